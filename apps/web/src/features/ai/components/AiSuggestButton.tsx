import "../i18n";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import CloseIcon from "@mui/icons-material/Close";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Portal from "@mui/material/Portal";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { type ReactElement, type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../api/errors";
import { useAiEnabled, useSuggestions } from "../api/ai";

/**
 * 'Sugerir resposta' beside the message input: three replies as chips above it; a click puts one in
 * the input to edit (nothing is sent). Hidden while AI assist is off. The chips are placed against
 * the input's box (its nearest positioned ancestor), like the quick answers' list. Where the input
 * is narrow the screen draws the trigger (`render`, an item of the input's menu) and gives the box
 * the chips go to (`panelContainer`).
 */
export function AiSuggestButton({
  ticketId,
  onPick,
  render,
  panelContainer,
}: {
  ticketId: number;
  onPick: (text: string) => void;
  render?: (p: { icon: ReactElement; label: string; onClick: () => void; disabled?: boolean; testId?: string }) => ReactNode;
  panelContainer?: HTMLElement | null;
}) {
  const { t, i18n } = useTranslation();
  const enabled = useAiEnabled();
  const suggest = useSuggestions(ticketId);
  const [open, setOpen] = useState(false);
  const { reset } = suggest;
  // biome-ignore lint/correctness/useExhaustiveDependencies: another ticket closes the chips
  useEffect(() => {
    setOpen(false);
    reset();
  }, [ticketId, reset]);
  if (!enabled) return null;

  const ask = () => {
    setOpen(true);
    suggest.mutate();
  };
  const list = suggest.data?.suggestions ?? [];

  const panel = open && (
    <Paper
      elevation={4}
      sx={{ position: "absolute", bottom: "100%", left: 8, right: 8, zIndex: 3, p: 1.5, mb: 0.5, maxHeight: 320, overflow: "auto" }}
      data-testid="ai-suggestions"
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 1 }}>
        <AutoAwesomeIcon fontSize="small" color="primary" />
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          {t("ai.suggestions")}
        </Typography>
        <IconButton size="small" aria-label={t("ai.close")} onClick={() => setOpen(false)}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      {suggest.isPending ? (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, py: 1 }} data-testid="ai-suggestions-loading">
          <CircularProgress size={20} />
          <Typography variant="body2" color="text.secondary">
            {t("ai.suggesting")}
          </Typography>
        </Box>
      ) : suggest.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={ask}>
              {t("ai.again")}
            </Button>
          }
          data-testid="ai-suggestions-error"
        >
          {errorMessage(suggest.error, (key) => (i18n.exists(key) ? t(key) : undefined))}
        </Alert>
      ) : list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("ai.noSuggestions")}
        </Typography>
      ) : (
        <>
          <Stack spacing={1} sx={{ alignItems: "flex-start" }}>
            {list.map((s, i) => (
              <Chip
                // biome-ignore lint/suspicious/noArrayIndexKey: the three suggestions of one answer, in order
                key={i}
                label={s}
                variant="outlined"
                color="primary"
                onClick={() => {
                  onPick(s);
                  setOpen(false);
                }}
                data-testid="ai-suggestion"
                sx={{ height: "auto", maxWidth: "100%", py: 0.75, "& .MuiChip-label": { whiteSpace: "normal", textAlign: "left" } }}
              />
            ))}
          </Stack>
          <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1 }}>
            {t("ai.pickHint")} {t("ai.aiNote")}
          </Typography>
        </>
      )}
    </Paper>
  );

  if (render)
    return (
      <>
        {render({ icon: <AutoAwesomeIcon />, label: t("ai.suggest"), onClick: ask, disabled: suggest.isPending, testId: "ai-suggest" })}
        {panel && <Portal container={panelContainer}>{panel}</Portal>}
      </>
    );

  return (
    <>
      <Tooltip title={t("ai.suggest")}>
        <span>
          <IconButton
            aria-label={t("ai.suggest")}
            onClick={ask}
            disabled={suggest.isPending}
            color={open ? "primary" : "default"}
            sx={{ p: { xs: 0.5, sm: 1 } }}
            data-testid="ai-suggest"
          >
            <AutoAwesomeIcon />
          </IconButton>
        </span>
      </Tooltip>
      {panel}
    </>
  );
}
