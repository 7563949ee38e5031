import { renderTemplate, type Ticket } from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../lib/toast";
import { useChatWindow, useSendTemplate, useTemplates } from "./api";
import "./i18n";

/**
 * On a Cloud API connection, above the chat's input: when the customer's 24 h window is closed,
 * says so and offers the approved templates, their variables filled from the contact ({{1}}: the
 * contact's name), with a preview. Nothing on other connections or while the window is open.
 */
export function CloudWindowBar({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const window = useChatWindow(ticket.id, ticket.updatedAt);
  const [open, setOpen] = useState(false);
  if (window.data?.channel !== "cloud" || window.data.open || ticket.status !== "open") return null;
  return (
    <>
      <Alert
        severity="warning"
        data-testid="window-closed"
        sx={{ borderRadius: 0, alignItems: "center" }}
        action={
          <Button color="inherit" size="small" variant="outlined" onClick={() => setOpen(true)} data-testid="send-template">
            {t("cloud.sendTemplate")}
          </Button>
        }
      >
        {t("cloud.windowClosed")}
      </Alert>
      <TemplateDialog ticket={ticket} open={open} onClose={() => setOpen(false)} onSent={() => void window.refetch()} />
    </>
  );
}

function TemplateDialog({ ticket, open, onClose, onSent }: { ticket: Ticket; open: boolean; onClose: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down("sm"));
  const templates = useTemplates(ticket.whatsappId, open);
  const send = useSendTemplate(ticket.id);
  const [key, setKey] = useState("");
  const [vars, setVars] = useState<string[]>([]);
  const list = templates.data?.templates ?? [];
  const chosen = list.find((x) => `${x.name}|${x.language}` === key) ?? list[0];

  // a template's variables start from the contact: {{1}} its name
  useEffect(() => {
    if (!chosen) return;
    setVars(Array.from({ length: chosen.variables }, (_, i) => (i === 0 ? ticket.contact.name : "")));
  }, [chosen, ticket.contact.name]);

  const submit = async () => {
    if (!chosen) return;
    try {
      await send.mutateAsync({ name: chosen.name, language: chosen.language, variables: vars });
      onSent();
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      <DialogTitle>{t("cloud.templatesTitle")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        {templates.isLoading ? (
          <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
            <CircularProgress size={18} />
            <Typography variant="body2">{t("cloud.loadingTemplates")}</Typography>
          </Box>
        ) : list.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t("cloud.noTemplates")}
          </Typography>
        ) : (
          <>
            <TextField
              select
              label={t("cloud.template")}
              value={chosen ? `${chosen.name}|${chosen.language}` : ""}
              onChange={(e) => setKey(e.target.value)}
              data-testid="template-select"
            >
              {list.map((x) => (
                <MenuItem key={`${x.name}|${x.language}`} value={`${x.name}|${x.language}`}>
                  {x.name} · {x.language} · {x.category}
                </MenuItem>
              ))}
            </TextField>
            {vars.map((v, i) => (
              <TextField
                // biome-ignore lint/suspicious/noArrayIndexKey: a template's variables are positional
                key={i}
                label={t("cloud.variable", { n: i + 1 })}
                value={v}
                onChange={(e) => setVars(vars.map((x, j) => (j === i ? e.target.value : x)))}
              />
            ))}
            {chosen && (
              <Box>
                <Typography variant="overline" color="text.secondary">
                  {t("cloud.preview")}
                </Typography>
                <Paper variant="outlined" sx={{ p: 1.5, whiteSpace: "pre-wrap" }} data-testid="template-preview">
                  {renderTemplate(chosen.body, vars)}
                </Paper>
              </Box>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("cloud.cancel")}</Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={!chosen || send.isPending || vars.some((v) => !v.trim())}
          data-testid="template-send"
        >
          {t("cloud.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
