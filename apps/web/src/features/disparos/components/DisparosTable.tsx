import type { Disparo } from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { absoluteUrl, cut, isImageUrl, statusColor, statusTextColor } from "../lib";

/** §4: a pill in the status's colour (unknown statuses grey). */
export function StatusPill({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Box
      component="span"
      data-testid="disparo-status"
      data-status={status}
      sx={{
        display: "inline-block",
        px: 1.25,
        py: 0.25,
        borderRadius: 10,
        fontSize: 12,
        fontWeight: 600,
        whiteSpace: "nowrap",
        bgcolor: statusColor(status),
        color: statusTextColor(status),
        // black on a dark paper still needs an edge
        border: 1,
        borderColor: "divider",
      }}
    >
      {t(`disparos.statuses.${status}`, { defaultValue: status })}
    </Box>
  );
}

/** §2: the table of the loaded page, with the image preview dialog. */
export function DisparosTable({ rows }: { rows: Disparo[] }) {
  const { t, i18n } = useTranslation();
  const [preview, setPreview] = useState<string | null>(null);
  const origin = window.location.origin;
  if (!rows.length) {
    return (
      <Typography color="text.secondary" sx={{ py: 6, textAlign: "center" }} data-testid="disparos-empty">
        {t("disparos.empty")}
      </Typography>
    );
  }
  return (
    <>
      <TableContainer sx={{ overflowX: "auto" }}>
        <Table size="small" aria-label={t("disparos.title")} sx={{ minWidth: 820 }}>
          <TableHead>
            <TableRow>
              {(["id", "number", "message", "url", "status", "datetime", "mimetype"] as const).map((c) => (
                <TableCell key={c} sx={{ fontWeight: 700, whiteSpace: "nowrap" }}>
                  {t(`disparos.columns.${c}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => {
              const text = r.rendered ?? r.message;
              return (
                <TableRow key={r.id} hover data-testid="disparo-row">
                  <TableCell>{r.id}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{r.number}</TableCell>
                  <TableCell sx={{ maxWidth: 360 }}>
                    {text.trim() ? (
                      <Tooltip title={<Box sx={{ whiteSpace: "pre-wrap" }}>{text}</Box>}>
                        <span>{cut(text)}</span>
                      </Tooltip>
                    ) : (
                      "-"
                    )}
                    {r.reason && r.status !== "enviado" && (
                      <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
                        {r.reason}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 200 }}>
                    {!r.url ? (
                      "-"
                    ) : isImageUrl(r.url) ? (
                      <Button size="small" variant="outlined" onClick={() => setPreview(absoluteUrl(r.url, origin))}>
                        {t("disparos.view")}
                      </Button>
                    ) : (
                      <Link href={absoluteUrl(r.url, origin)} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: "break-all" }}>
                        {cut(r.url, 30)}
                      </Link>
                    )}
                  </TableCell>
                  <TableCell>
                    <StatusPill status={r.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>
                    {new Date(r.datetime).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" })}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{r.mimetype || "-"}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <Dialog open={preview !== null} onClose={() => setPreview(null)} maxWidth="md">
        <DialogTitle>{t("disparos.preview")}</DialogTitle>
        <DialogContent>
          {preview && (
            <Box component="img" src={preview} alt={t("disparos.preview")} sx={{ maxWidth: "100%", maxHeight: "70vh", display: "block" }} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPreview(null)}>{t("disparos.actions.back")}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
