import "../i18n";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import SummarizeIcon from "@mui/icons-material/Summarize";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { type ReactElement, type ReactNode, useState } from "react";
import { errorMessage } from "../../../api/errors";
import { toastSuccess } from "../../../lib/toast";
import { useAiEnabled, useSummary } from "../api/ai";

type SummaryState = ReturnType<typeof useSummary>;

/** The summary as it loads: a spinner, the error in Portuguese with 'Tentar de novo', or the text. */
function SummaryBody({ s, onRetry }: { s: SummaryState; onRetry: () => void }) {
  const { t, i18n } = useTranslation();
  if (s.isPending)
    return (
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, py: 1 }}>
        <CircularProgress size={20} />
        <Typography variant="body2" color="text.secondary">
          {t("ai.summarizing")}
        </Typography>
      </Box>
    );
  if (s.isError)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {t("ai.again")}
          </Button>
        }
        data-testid="ai-summary-error"
      >
        {errorMessage(s.error, (key) => (i18n.exists(key) ? t(key) : undefined))}
      </Alert>
    );
  if (!s.data) return null;
  return (
    <>
      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }} data-testid="ai-summary-text">
        {s.data.summary}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1 }}>
        {t("ai.aiNote")}
      </Typography>
    </>
  );
}

function copy(text: string, done: string) {
  void navigator.clipboard?.writeText(text).then(
    () => toastSuccess(done),
    () => undefined,
  );
}

/**
 * 'Resumo' in the ticket's header: a dialog with who the customer is, what they asked, what was done
 * and what is pending. `render` draws the trigger in the header's style (an item of its overflow menu).
 */
export function AiSummaryButton({
  ticketId,
  render,
}: {
  ticketId: number;
  render?: (p: { icon: ReactElement; label: string; onClick: () => void; testId: string }) => ReactNode;
}) {
  const { t } = useTranslation();
  const enabled = useAiEnabled();
  const s = useSummary(ticketId);
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  const ask = () => {
    setOpen(true);
    s.mutate();
  };
  return (
    <>
      {render ? (
        render({ icon: <SummarizeIcon />, label: t("ai.summary"), onClick: ask, testId: "action-summary" })
      ) : (
        <Tooltip title={t("ai.summary")}>
          <IconButton aria-label={t("ai.summary")} onClick={ask} data-testid="action-summary">
            <SummarizeIcon />
          </IconButton>
        </Tooltip>
      )}
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" data-testid="ai-summary-dialog">
        <DialogTitle>{t("ai.summaryTitle")}</DialogTitle>
        <DialogContent dividers>
          <SummaryBody s={s} onRetry={() => s.mutate()} />
        </DialogContent>
        <DialogActions>
          {s.data && (
            <Button startIcon={<ContentCopyIcon />} onClick={() => copy(s.data.summary, t("ai.copied"))}>
              {t("ai.copy")}
            </Button>
          )}
          <Button onClick={() => setOpen(false)}>{t("ai.close")}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** 'Resumo' inside the transfer dialog: asked on a click, shown in place for whoever takes the ticket next. */
export function AiSummaryPanel({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const enabled = useAiEnabled();
  const s = useSummary(ticketId);
  if (!enabled) return null;
  if (s.isIdle)
    return (
      <Box>
        <Button size="small" variant="outlined" startIcon={<SummarizeIcon />} onClick={() => s.mutate()} data-testid="transfer-summary">
          {t("ai.summary")}
        </Button>
      </Box>
    );
  return (
    <Box sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1.5, position: "relative" }} data-testid="transfer-summary-box">
      <Typography variant="subtitle2" sx={{ mb: 0.5, display: "flex", alignItems: "center", gap: 0.5 }}>
        <SummarizeIcon fontSize="small" color="primary" />
        {t("ai.summaryTitle")}
      </Typography>
      {s.data && (
        <Tooltip title={t("ai.copy")}>
          <IconButton
            size="small"
            aria-label={t("ai.copy")}
            onClick={() => copy(s.data.summary, t("ai.copied"))}
            sx={{ position: "absolute", top: 6, right: 6 }}
          >
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <SummaryBody s={s} onRetry={() => s.mutate()} />
    </Box>
  );
}
