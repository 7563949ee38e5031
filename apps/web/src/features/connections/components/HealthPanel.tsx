import { type ConnectionHealth, WARMUP_DAYS } from "@balcao/contract";
import PauseCircleOutlineIcon from "@mui/icons-material/PauseCircleOutline";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useConnectionHealth, useResumeSends } from "../api/health";
import { reasonText } from "./reasons";

/** The translated reason a number was paused (a session reason, or the health rules' own). */
export function pauseReasonText(reason: string, t: (key: string) => string, exists: (key: string) => boolean): string {
  const own = `connections.health.pauseReasons.${reason}`;
  return exists(own) ? t(own) : reasonText(reason, t, exists);
}

function Figure({ label, value, warn, testId }: { label: string; value: number; warn?: boolean; testId: string }) {
  return (
    <Box sx={{ display: "flex", alignItems: "baseline", justifyContent: "space-between", gap: 1, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" noWrap title={label}>
        {label}
      </Typography>
      <Typography variant="body2" fontWeight={600} color={warn ? "warning.main" : "text.primary"} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/**
 * The health panel on a connection's card: unsolicited sends today against the cap (the warm-up's
 * day), failures, refusals and drops in 24 h, the pairing's age, the latest drop's reason, a pause
 * with 'Retomar envios', and the backup connection (and whether it carries the sends now).
 */
export function HealthPanel({ whatsappId }: { whatsappId: number }) {
  const { t, i18n } = useTranslation();
  const q = useConnectionHealth(whatsappId);
  const resume = useResumeSends();
  const exists = (k: string) => i18n.exists(k);
  if (q.isPending) return <Skeleton variant="rounded" height={96} sx={{ mt: 0.5 }} data-testid="health-loading" />;
  const h: ConnectionHealth | undefined = q.data;
  if (!h) return null;
  const ratio = h.dailyCap > 0 ? Math.min(100, (h.sentToday / h.dailyCap) * 100) : 0;
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" });
  const lastDrop = h.recent.find((e) => e.kind === "disconnect");
  const days = h.pairedAt ? Math.max(0, Math.floor((Date.now() - new Date(h.pairedAt).getTime()) / 86_400_000)) : null;

  return (
    <Box
      data-testid="health-panel"
      data-paused={h.paused}
      sx={{ mt: 0.5, p: 1.25, borderRadius: 1, border: 1, borderColor: "divider", bgcolor: "action.hover", minWidth: 0 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="overline" color="text.secondary" component="h3" sx={{ lineHeight: 1.6, flex: 1 }}>
          {t("connections.health.title")}
        </Typography>
        {h.warmupDay !== null && (
          <Chip
            size="small"
            color="info"
            variant="outlined"
            label={t("connections.health.warmup", { day: h.warmupDay, days: WARMUP_DAYS, cap: h.dailyCap })}
            data-testid="health-warmup"
          />
        )}
      </Box>
      <Box sx={{ display: "flex", alignItems: "baseline", justifyContent: "space-between", gap: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ minWidth: 0 }}>
          {t("connections.health.sentToday")}
        </Typography>
        <Typography variant="body2" fontWeight={600} sx={{ whiteSpace: "nowrap", flexShrink: 0 }} data-testid="health-sent">
          {t("connections.health.ofCap", { sent: h.sentToday, cap: h.dailyCap })}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={ratio}
        color={ratio >= 100 ? "warning" : "primary"}
        sx={{ mt: 0.5, mb: 1, height: 6, borderRadius: 3 }}
        aria-label={t("connections.health.sentToday")}
      />
      <Box sx={{ display: "grid", gap: 0.25 }}>
        <Figure label={t("connections.health.failures")} value={h.failures24h} warn={h.failures24h > 0} testId="health-failures" />
        <Figure label={t("connections.health.blocks")} value={h.blocks24h} warn={h.blocks24h > 0} testId="health-blocks" />
        <Figure
          label={t("connections.health.disconnects")}
          value={h.disconnects24h}
          warn={h.disconnects24h > 0}
          testId="health-disconnects"
        />
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.75 }}>
        {days === null
          ? t("connections.health.notPaired")
          : days === 0
            ? t("connections.health.pairedToday")
            : t("connections.health.pairedAgo", { count: days })}
        {lastDrop
          ? ` · ${t("connections.health.lastDrop", { reason: reasonText(lastDrop.reason, t, exists) || lastDrop.status, when: when(lastDrop.at) })}`
          : ""}
      </Typography>
      {h.paused && (
        <Alert
          severity="error"
          icon={<PauseCircleOutlineIcon fontSize="inherit" />}
          sx={{ mt: 1, "& .MuiAlert-message": { minWidth: 0 } }}
          data-testid="health-paused"
        >
          {t("connections.health.paused", { reason: pauseReasonText(h.pausedReason, t, exists) })}
          <Typography variant="caption" component="p">
            {t("connections.health.pausedHelp")}
          </Typography>
          <Button
            color="inherit"
            variant="outlined"
            size="small"
            sx={{ mt: 1 }}
            disabled={resume.isPending}
            onClick={() =>
              resume.mutate(whatsappId, { onSuccess: () => toastSuccess(t("connections.health.resumed")), onError: (e) => toastError(e) })
            }
          >
            {t("connections.health.resume")}
          </Button>
        </Alert>
      )}
      {h.backupWhatsappId !== null &&
        (h.backupActive ? (
          <Alert severity="warning" icon={<SwapHorizIcon fontSize="inherit" />} sx={{ mt: 1 }} data-testid="health-backup-active">
            {t("connections.health.backupActive", { name: h.backupName ?? "" })}
          </Alert>
        ) : (
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }} noWrap data-testid="health-backup">
            {t("connections.health.backup", { name: h.backupName ?? "" })}
          </Typography>
        ))}
    </Box>
  );
}
