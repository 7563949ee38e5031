import type { AgentTickets, Metrics, MetricsPeriod } from "@balcao/contract";
import { METRICS_PERIODS } from "@balcao/contract";
import DownloadIcon from "@mui/icons-material/Download";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import { alpha, useTheme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { BarChart } from "@mui/x-charts/BarChart";
import { PieChart } from "@mui/x-charts/PieChart";
import { Fragment, type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { colorAt, formatBytes, formatDuration, mergeTimes, p90Of, type TimesRow, timesCsv, weekdayNames } from "../lib";

export function Section({
  title,
  help,
  action,
  children,
  testId,
}: {
  title: string;
  help?: string;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }} data-testid={testId}>
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", justifyContent: "space-between", gap: 1, mb: 1 }}>
        <Typography component="h2" variant="subtitle1" fontWeight={700}>
          {title}
        </Typography>
        {action}
      </Box>
      {help && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {help}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

const CARDS = ["today", "week", "month", "total"] as const;

/** §2: the four cards (tickets created today, this week, this month, ever). */
export function Cards({ m }: { m: Metrics }) {
  const { t, i18n } = useTranslation();
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", md: "repeat(4, 1fr)" }, gap: { xs: 1, sm: 2 } }}>
      {CARDS.map((c, i) => (
        <Paper
          key={c}
          variant="outlined"
          data-testid="dashboard-card"
          data-card={c}
          sx={{ p: { xs: 1.5, sm: 2 }, borderLeft: 6, borderLeftColor: colorAt(i), minWidth: 0 }}
        >
          <Typography variant="body2" color="text.secondary" noWrap>
            {t(`dashboard.cards.${c}`)}
          </Typography>
          <Typography variant="h4" component="p" fontWeight={700} data-testid="dashboard-card-count">
            {m[c].toLocaleString(i18n.language)}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {t("dashboard.cards.tickets")}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}

/** §2: the top agents bar chart with its period select, one colour per bar (six, cycling). */
export function TopAgents({ m }: { m: Metrics }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<MetricsPeriod>("month");
  const rows: AgentTickets[] = m.topAtendentes[period];
  const names = rows.map((r) => r.name);
  return (
    <Section
      title={t("dashboard.topAgents")}
      help={t("dashboard.topAgentsHelp")}
      testId="dashboard-top-agents"
      action={
        <TextField
          select
          size="small"
          label={t("dashboard.period")}
          value={period}
          onChange={(e) => setPeriod(e.target.value as MetricsPeriod)}
          fullWidth={false}
          sx={{ minWidth: 130 }}
          slotProps={{ htmlInput: { "data-testid": "top-agents-period" } }}
        >
          {METRICS_PERIODS.map((p) => (
            <MenuItem key={p} value={p}>
              {t(`dashboard.periods.${p}`)}
            </MenuItem>
          ))}
        </TextField>
      }
    >
      {rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
          {t("dashboard.times.empty")}
        </Typography>
      ) : (
        <BarChart
          height={Math.max(160, 40 + rows.length * 34)}
          layout="horizontal"
          yAxis={[
            {
              scaleType: "band",
              data: names,
              width: 90,
              colorMap: { type: "ordinal", values: names, colors: names.map((_, i) => colorAt(i)) },
            },
          ]}
          xAxis={[{ tickMinStep: 1 }]}
          series={[{ data: rows.map((r) => r.tickets), label: t("dashboard.cards.tickets") }]}
          hideLegend
          margin={{ left: 4, right: 16, top: 8, bottom: 4 }}
        />
      )}
    </Section>
  );
}

/** §2: closed versus pending, now. */
export function ClosedPending({ m }: { m: Metrics }) {
  const { t } = useTranslation();
  const empty = m.closed + m.pending === 0;
  return (
    <Section title={t("dashboard.closedPending")} testId="dashboard-closed-pending">
      {empty ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
          {t("dashboard.times.empty")}
        </Typography>
      ) : (
        <PieChart
          height={200}
          series={[
            {
              innerRadius: 45,
              paddingAngle: 1,
              data: [
                { id: "closed", value: m.closed, label: `${t("dashboard.closed")} (${m.closed})`, color: colorAt(0) },
                { id: "pending", value: m.pending, label: `${t("dashboard.pending")} (${m.pending})`, color: colorAt(1) },
              ],
            },
          ]}
        />
      )}
    </Section>
  );
}

/** §2: the server's memory, disk, CPU, platform, architecture, uptime and release. */
export function ServerPanel({ m }: { m: Metrics }) {
  const { t } = useTranslation();
  const s = m.serverMetrics;
  const rows: [string, string][] = [
    [t("dashboard.server.memory"), t("dashboard.server.used", { used: formatBytes(s.memory.used), total: formatBytes(s.memory.total) })],
    [
      t("dashboard.server.disk"),
      s.disk.total ? t("dashboard.server.used", { used: formatBytes(s.disk.used), total: formatBytes(s.disk.total) }) : "—",
    ],
    [
      t("dashboard.server.cpu"),
      `${s.cpu.model || "—"} · ${t("dashboard.server.cores", { count: s.cpu.cores })} · ${t("dashboard.server.load", { load: s.cpu.load1.toFixed(2) })}`,
    ],
    [t("dashboard.server.platform"), s.platform],
    [t("dashboard.server.arch"), s.arch],
    [t("dashboard.server.uptime"), t("dashboard.server.uptimeHours", { hours: s.uptimeHours })],
    [t("dashboard.server.release"), s.release],
  ];
  return (
    <Section title={t("dashboard.server.title")} testId="dashboard-server">
      <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 0.75, m: 0 }}>
        {rows.map(([k, v], i) => (
          <Box key={k} sx={{ display: "contents" }}>
            <Typography component="dt" variant="body2" color="text.secondary" sx={{ borderLeft: 3, borderColor: colorAt(i), pl: 1 }}>
              {k}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: "anywhere" }}>
              {v}
            </Typography>
          </Box>
        ))}
      </Box>
    </Section>
  );
}

function TimesTable({ rows, first, testId }: { rows: TimesRow[]; first: string; testId: string }) {
  const { t } = useTranslation();
  // at phone widths the counts give way (the CSV keeps them) and the cells are tighter
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const cols = narrow ? (["median", "p90"] as const) : (["median", "p90", "count"] as const);
  const cell = { whiteSpace: "nowrap", ...(narrow && { px: 0.75 }) } as const;
  return (
    <TableContainer sx={{ maxWidth: "100%", overflowX: "auto" }}>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            <TableCell rowSpan={2} sx={cell}>
              {first}
            </TableCell>
            <TableCell colSpan={cols.length} align="center" sx={{ ...cell, borderLeft: 1, borderColor: "divider" }}>
              {t("dashboard.times.firstResponse")}
            </TableCell>
            <TableCell colSpan={cols.length} align="center" sx={{ ...cell, borderLeft: 1, borderColor: "divider" }}>
              {t("dashboard.times.resolution")}
            </TableCell>
          </TableRow>
          <TableRow>
            {(["frt", "res"] as const).map((g) =>
              cols.map((c, i) => (
                <TableCell key={`${g}${c}`} align="right" sx={{ ...cell, ...(i === 0 && { borderLeft: 1, borderColor: "divider" }) }}>
                  {t(`dashboard.times.${c}`)}
                </TableCell>
              )),
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.key} data-testid="times-row">
              <TableCell sx={{ ...cell, maxWidth: narrow ? 110 : 160, overflow: "hidden", textOverflow: "ellipsis" }}>{r.name}</TableCell>
              {(
                [
                  ["frt", r.firstResponse],
                  ["res", r.resolution],
                ] as const
              ).map(([which, s]) => (
                <Fragment key={which}>
                  <TableCell align="right" sx={{ ...cell, borderLeft: 1, borderColor: "divider" }} data-testid={`${which}-median`}>
                    {formatDuration(s.median)}
                  </TableCell>
                  <TableCell align="right" sx={cell}>
                    {formatDuration(p90Of(s))}
                  </TableCell>
                  {!narrow && (
                    <TableCell align="right" sx={cell}>
                      {s.count}
                    </TableCell>
                  )}
                </Fragment>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Response times per agent and per queue (median, p90 from 10 samples, count), with the CSV of the agents' table. */
export function TimesPanel({ m }: { m: Metrics }) {
  const { t } = useTranslation();
  const noQueue = t("dashboard.times.noQueue");
  const agents = useMemo(() => mergeTimes(m.firstResponseTime, m.resolutionTime, "agent", noQueue), [m, noQueue]);
  const queues = useMemo(() => mergeTimes(m.firstResponseTime, m.resolutionTime, "queue", noQueue), [m, noQueue]);
  const overall: TimesRow = {
    key: "all",
    name: t("dashboard.times.overall"),
    firstResponse: m.firstResponseTime.overall,
    resolution: m.resolutionTime.overall,
  };
  const exportCsv = () => {
    const fr = t("dashboard.times.firstResponse");
    const rs = t("dashboard.times.resolution");
    const headers = [
      t("dashboard.times.agent"),
      `${fr} ${t("dashboard.times.median")} (s)`,
      `${fr} p90 (s)`,
      `${fr} ${t("dashboard.times.count")}`,
      `${rs} ${t("dashboard.times.median")} (s)`,
      `${rs} p90 (s)`,
      `${rs} ${t("dashboard.times.count")}`,
    ];
    const blob = new Blob([`\uFEFF${timesCsv(agents, headers)}`], { type: "text/csv;charset=utf-8" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `tempos-por-atendente-${m.period.from.slice(0, 10)}-${m.period.to.slice(0, 10)}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <Section
      title={t("dashboard.times.title")}
      help={t("dashboard.times.help")}
      testId="dashboard-times"
      action={
        <Button size="small" startIcon={<DownloadIcon />} onClick={exportCsv} disabled={agents.length === 0} data-testid="times-csv">
          {t("dashboard.times.exportCsv")}
        </Button>
      }
    >
      {overall.firstResponse.count + overall.resolution.count === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {t("dashboard.times.empty")}
        </Typography>
      ) : (
        <Box sx={{ display: "grid", gap: 2 }}>
          <Box>
            <Typography variant="body2" fontWeight={600} sx={{ mb: 0.5 }}>
              {t("dashboard.times.byAgent")}
            </Typography>
            <TimesTable rows={[overall, ...agents]} first={t("dashboard.times.agent")} testId="times-by-agent" />
          </Box>
          <Box>
            <Typography variant="body2" fontWeight={600} sx={{ mb: 0.5 }}>
              {t("dashboard.times.byQueue")}
            </Typography>
            <TimesTable rows={queues} first={t("dashboard.times.queue")} testId="times-by-queue" />
          </Box>
        </Box>
      )}
    </Section>
  );
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** Tickets created in the period by weekday × hour, darker where there are more. */
export function HeatMap({ m }: { m: Metrics }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const days = weekdayNames(i18n.language);
  const max = Math.max(1, ...m.ticketsByHour.flat());
  const base = colorAt(0);
  return (
    <Section title={t("dashboard.heatmap.title")} help={t("dashboard.heatmap.help")} testId="dashboard-heatmap">
      <Box sx={{ display: "grid", gridTemplateColumns: "auto repeat(24, minmax(0, 1fr))", gap: "2px", alignItems: "center" }}>
        <Box />
        {HOURS.map((h) => (
          <Typography key={h} variant="caption" color="text.secondary" sx={{ textAlign: "center", fontSize: { xs: 8, sm: 10 } }}>
            {h % 3 === 0 ? h : ""}
          </Typography>
        ))}
        {days.map((day, d) => (
          <Box key={day} sx={{ display: "contents" }}>
            <Typography variant="caption" color="text.secondary" sx={{ pr: 0.5, fontSize: { xs: 10, sm: 12 } }}>
              {day}
            </Typography>
            {HOURS.map((h) => ({ h, n: m.ticketsByHour[d]?.[h] ?? 0 })).map(({ h, n }) => (
              <Tooltip key={h} title={t("dashboard.heatmap.cell", { day, hour: h, count: n })}>
                <Box
                  data-count={n}
                  sx={{
                    aspectRatio: "1",
                    borderRadius: 0.5,
                    bgcolor: n ? alpha(base, 0.15 + 0.85 * (n / max)) : theme.palette.action.hover,
                  }}
                />
              </Tooltip>
            ))}
          </Box>
        ))}
      </Box>
    </Section>
  );
}

/** Right now: who waits in each queue (and for how long the oldest), and the agents online with their open tickets. */
export function LivePanel({ m }: { m: Metrics }) {
  const { t } = useTranslation();
  return (
    <Section title={t("dashboard.live.title")} testId="dashboard-live">
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2 }}>
        <Box>
          <Typography variant="body2" fontWeight={600}>
            {t("dashboard.live.waiting")}
          </Typography>
          {m.now.waiting.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
              {t("dashboard.live.noWaiting")}
            </Typography>
          ) : (
            <List dense disablePadding>
              {m.now.waiting.map((w) => (
                <ListItem key={String(w.queueId)} disableGutters data-testid="live-waiting">
                  <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: w.color || "text.disabled", mr: 1, flexShrink: 0 }} />
                  <ListItemText
                    primary={w.queueId === null ? t("dashboard.live.noQueue") : w.name}
                    secondary={t("dashboard.live.oldest", { wait: formatDuration(w.oldestWaitSeconds) })}
                  />
                  <Chip size="small" label={w.tickets} color={w.oldestWaitSeconds > 900 ? "warning" : "default"} />
                </ListItem>
              ))}
            </List>
          )}
        </Box>
        <Box>
          <Typography variant="body2" fontWeight={600}>
            {t("dashboard.live.agents")}
          </Typography>
          {m.now.agents.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
              {t("dashboard.live.noAgents")}
            </Typography>
          ) : (
            <List dense disablePadding>
              {m.now.agents.map((a) => (
                <ListItem key={a.userId} disableGutters data-testid="live-agent">
                  <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: "success.main", mr: 1, flexShrink: 0 }} />
                  <ListItemText primary={a.name} />
                  <Chip size="small" variant="outlined" label={t("dashboard.live.open", { count: a.openTickets })} />
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      </Box>
    </Section>
  );
}

/** Outage mode: the tickets linked to each incident open during the period (shown only when there was one). */
export function IncidentsPanel({ m }: { m: Metrics }) {
  const { t } = useTranslation();
  const list = m.incidents ?? [];
  if (!list.length) return null;
  return (
    <Section title={t("dashboard.incidents.title")} testId="dashboard-incidents">
      <List dense disablePadding>
        {list.map((i) => (
          <ListItem key={i.id} disableGutters data-testid="dashboard-incident">
            <ListItemText
              primary={i.title}
              secondary={i.status === "open" ? t("dashboard.incidents.open") : t("dashboard.incidents.closed")}
              slotProps={{ primary: { sx: { overflowWrap: "anywhere" } } }}
            />
            <Chip
              size="small"
              color={i.status === "open" ? "warning" : "default"}
              label={t("dashboard.incidents.tickets", { count: i.tickets })}
            />
          </ListItem>
        ))}
      </List>
    </Section>
  );
}
