import { type DisparoConnection, type DisparoStats, WARMUP_DAYS } from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { expectedFinish, progressOf, statusColor } from "../lib";

const CARDS = [
  { status: "cancelado", label: "disparos.cards.cancelado" },
  { status: "a enviar", label: "disparos.cards.aEnviar" },
  { status: "com erro", label: "disparos.cards.comErro" },
  { status: "enviado", label: "disparos.cards.enviado" },
] as const;

/** §2: the four summary cards, with the counts of the stats call. */
export function StatsCards({ stats }: { stats: DisparoStats }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", md: "repeat(4, 1fr)" }, gap: { xs: 1, sm: 2 } }}>
      {CARDS.map((c) => (
        <Paper
          key={c.status}
          variant="outlined"
          data-testid="disparo-card"
          data-status={c.status}
          // black is the spec's colour for cancelado; on the dark paper its edge shows in grey
          sx={(theme) => ({
            p: { xs: 1.5, sm: 2 },
            borderLeft: 6,
            borderLeftColor: theme.palette.mode === "dark" && c.status === "cancelado" ? theme.palette.grey[600] : statusColor(c.status),
            minWidth: 0,
          })}
        >
          <Typography variant="body2" color="text.secondary" noWrap>
            {t(c.label)}
          </Typography>
          <Typography variant="h4" component="p" fontWeight={700} data-testid="disparo-card-count">
            {stats[c.status].toLocaleString()}
          </Typography>
          {c.status === "a enviar" && stats.enviando > 0 && (
            <Typography variant="caption" color="text.secondary">
              {t("disparos.cards.sending", { count: stats.enviando })}
            </Typography>
          )}
        </Paper>
      ))}
    </Box>
  );
}

/** How far the queue is, and when it should be done at the connections' current pace. */
export function ProgressPanel({ stats, connections }: { stats: DisparoStats; connections?: DisparoConnection[] }) {
  const { t, i18n } = useTranslation();
  const p = progressOf(stats);
  const finish = expectedFinish(connections);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="disparos-progress">
      <Box sx={{ display: "flex", flexWrap: "wrap", justifyContent: "space-between", gap: 1, mb: 1 }}>
        <Typography variant="body2" fontWeight={600}>
          {p.total ? t("disparos.progress", { done: p.done, total: p.total, percent: p.percent }) : t("disparos.nothingWaiting")}
        </Typography>
        {finish && p.remaining > 0 && (
          <Typography variant="body2" color="text.secondary" data-testid="disparos-finish">
            {t("disparos.finish", { when: new Date(finish).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" }) })}
          </Typography>
        )}
      </Box>
      <LinearProgress
        variant="determinate"
        value={p.percent}
        aria-label={t("disparos.progress", { ...p })}
        sx={{ height: 8, borderRadius: 4 }}
      />
    </Paper>
  );
}

/** Each connection's sending: what waits, why nothing goes, the pace, Pausar / Retomar. */
export function ConnectionsPanel({
  connections,
  busyId,
  onToggle,
}: {
  connections: DisparoConnection[];
  busyId?: number;
  onToggle: (c: DisparoConnection) => void;
}) {
  const { t } = useTranslation();
  const shown = connections.filter((c) => c.pending > 0 || c.sending > 0 || c.paused || c.sentToday > 0);
  if (!shown.length) return null;
  return (
    <Box>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
        {t("disparos.connections.title")}
      </Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "repeat(2, 1fr)" }, gap: 1.5 }}>
        {shown.map((c) => (
          <Paper key={c.whatsappId} variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-testid="disparo-connection">
            <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
              <Typography fontWeight={700} noWrap sx={{ flex: "1 1 auto", minWidth: 0 }}>
                {c.name}
              </Typography>
              {c.waiting && (
                <Chip
                  size="small"
                  data-testid="disparo-connection-waiting"
                  color={c.waiting === "pausado" || c.waiting === "desconectado" ? "error" : "warning"}
                  label={t(`disparos.connections.waiting.${c.waiting}`, { defaultValue: c.waiting })}
                />
              )}
              <Button
                size="small"
                variant={c.paused ? "contained" : "outlined"}
                disabled={busyId === c.whatsappId}
                onClick={() => onToggle(c)}
              >
                {c.paused ? t("disparos.connections.resume") : t("disparos.connections.pause")}
              </Button>
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {t("disparos.connections.pending", { count: c.pending + c.sending })} ·{" "}
              {t("disparos.connections.sentToday", { count: c.sentToday })} ·{" "}
              {c.windowStart
                ? t("disparos.connections.hours", { start: c.windowStart, end: c.windowEnd })
                : t("disparos.connections.anyHour")}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {t(c.pauseEvery > 0 ? "disparos.connections.pace" : "disparos.connections.paceNoPause", {
                min: Math.round(c.intervalMinMs / 1000),
                max: Math.round(c.intervalMaxMs / 1000),
                every: c.pauseEvery,
                cap: c.dailyCap,
              })}
            </Typography>
            {c.warmupDay !== null && (
              <Typography variant="caption" color="info.main" component="div" data-testid="disparo-warmup">
                {t("disparos.connections.warmup", { day: c.warmupDay, days: WARMUP_DAYS, cap: c.dailyCap })}
              </Typography>
            )}
            {c.pausedReason === "falhas" && (
              <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
                {t("disparos.connections.failures")}
              </Typography>
            )}
            {c.pausedReason === "saúde" && (
              <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
                {t("disparos.connections.healthPaused")}
              </Typography>
            )}
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
