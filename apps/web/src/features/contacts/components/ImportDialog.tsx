import type { ImportAnswer } from "@balcao/contract";
import PhoneAndroidIcon from "@mui/icons-material/PhoneAndroid";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../api/errors";
import { toastSuccess } from "../../../lib/toast";
import { formatPhone } from "../../../lib/phone";
import { validationText } from "../../../lib/validation";
import { useImportConnections, useImportContacts, useImportPhoneContacts } from "../api/contacts";

const STATUS_COLOR = { created: "success", updated: "info", skipped: "default", error: "error" } as const;

/** Upload a CSV, or take the contacts of the connected phone, and show the per-row report the server answers. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down("sm"));
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportAnswer | null>(null);
  const importer = useImportContacts();
  const fromPhone = useImportPhoneContacts();
  const connections = useImportConnections(open).data ?? [];
  const [whatsappId, setWhatsappId] = useState<number | "">("");
  const chosen = whatsappId || connections.find((w) => w.isDefault)?.id || "";

  useEffect(() => {
    if (open) {
      setFile(null);
      setReport(null);
      setWhatsappId("");
    }
  }, [open]);

  const send = async () => {
    if (!file) return;
    try {
      const r = await importer.mutateAsync(file);
      setReport(r);
      toastSuccess(t("contacts.importDialog.done"));
    } catch {
      // the shared handler already showed the toast
    }
  };

  const importPhone = async () => {
    try {
      setFile(null);
      setReport(await fromPhone.mutateAsync(chosen || undefined));
      toastSuccess(t("contacts.importDialog.done"));
    } catch {
      // the shared handler already showed the toast
    }
  };

  // "number: Invalid number" (a row the contact form would refuse): the field's name and the message, translated
  const rowError = (code?: string) => {
    if (!code) return "";
    const field = /^(name|number|email): (.+)$/.exec(code);
    if (field) return `${t(`contacts.importDialog.${field[1] === "email" ? "email" : field[1]}`)}: ${validationText(field[2])}`;
    return errorMessage(code, (k) => (i18n.exists(k) ? t(k) : undefined));
  };

  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="md" aria-labelledby="import-title">
      <DialogTitle id="import-title">{t("contacts.importDialog.title")}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {t("contacts.importDialog.help")}
        </Typography>
        <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap", my: 2 }}>
          <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
            {t("contacts.importDialog.choose")}
            <input
              hidden
              type="file"
              accept=".csv,text/csv"
              data-testid="import-file"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setReport(null);
              }}
            />
          </Button>
          <Typography variant="body2" noWrap sx={{ minWidth: 0, flex: 1 }}>
            {file?.name}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {t("contacts.importDialog.phoneHelp")}
        </Typography>
        <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap", my: 2 }}>
          {connections.length > 1 && (
            <TextField
              select
              size="small"
              label={t("contacts.importDialog.connection")}
              value={chosen}
              onChange={(e) => setWhatsappId(Number(e.target.value))}
              sx={{ minWidth: 220 }}
            >
              {connections.map((w) => (
                <MenuItem key={w.id} value={w.id}>
                  {w.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button variant="outlined" startIcon={<PhoneAndroidIcon />} onClick={() => void importPhone()} disabled={fromPhone.isPending}>
            {t("contacts.importDialog.fromPhone")}
          </Button>
        </Box>
        {report && (
          <>
            <Alert severity={report.errors > 0 ? "warning" : "success"} sx={{ mb: 2 }} data-testid="import-summary">
              {t("contacts.importDialog.summary", report)}
            </Alert>
            <Box sx={{ overflowX: "auto" }}>
              <Table size="small" aria-label={t("contacts.importDialog.title")}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t("contacts.importDialog.row")}</TableCell>
                    <TableCell>{t("contacts.importDialog.name")}</TableCell>
                    <TableCell>{t("contacts.importDialog.number")}</TableCell>
                    <TableCell>{t("contacts.importDialog.result")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.rows.map((r) => (
                    <TableRow key={r.row}>
                      <TableCell>{r.row}</TableCell>
                      <TableCell>{r.name}</TableCell>
                      <TableCell>{formatPhone(r.number) || r.number}</TableCell>
                      <TableCell>
                        <Chip size="small" color={STATUS_COLOR[r.status]} label={t(`contacts.importDialog.status.${r.status}`)} />
                        {r.error && (
                          <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 0.5 }}>
                            {rowError(r.error)}
                          </Typography>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
        <Button variant="contained" onClick={() => void send()} disabled={!file || importer.isPending}>
          {t("contacts.importDialog.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
