import "../i18n";
import RefreshIcon from "@mui/icons-material/Refresh";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../../components/PageHeader";
import { useQueues } from "../../queues";
import { useUsers } from "../../users";
import { type MetricsFilters, useMetrics, useMetricsLive } from "../api/metrics";
import { Cards, ClosedPending, HeatMap, IncidentsPanel, LivePanel, ServerPanel, TimesPanel, TopAgents } from "./Panels";

const NO_FILTERS: MetricsFilters = { from: "", to: "", queueId: "", userId: "" };

/** The filters of the response times, heat map and live panel (the spec's cards do not depend on them). */
function Filters({ value, onChange }: { value: MetricsFilters; onChange: (f: MetricsFilters) => void }) {
  const { t } = useTranslation();
  const queues = useQueues().data ?? [];
  const users = useUsers("").data?.pages.flatMap((p) => p.users) ?? [];
  const set = (k: keyof MetricsFilters) => (e: { target: { value: string } }) => onChange({ ...value, [k]: e.target.value });
  const field = { size: "small" as const, fullWidth: false, sx: { width: { xs: "calc(50% - 4px)", sm: 170 } } };
  return (
    <>
      <TextField
        {...field}
        type="date"
        label={t("dashboard.filters.from")}
        value={value.from}
        onChange={set("from")}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "dashboard-from" } }}
      />
      <TextField
        {...field}
        type="date"
        label={t("dashboard.filters.to")}
        value={value.to}
        onChange={set("to")}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "dashboard-to" } }}
      />
      <TextField {...field} select label={t("dashboard.filters.queue")} value={value.queueId} onChange={set("queueId")}>
        <MenuItem value="">{t("dashboard.filters.allQueues")}</MenuItem>
        {queues.map((q) => (
          <MenuItem key={q.id} value={String(q.id)}>
            {q.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...field} select label={t("dashboard.filters.agent")} value={value.userId} onChange={set("userId")}>
        <MenuItem value="">{t("dashboard.filters.all")}</MenuItem>
        {users.map((u) => (
          <MenuItem key={u.id} value={String(u.id)}>
            {u.name}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}

/** /dashboard (admins and supervisors): spec 000 §2 and the response times, heat map and live panel of issue 17. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const [filters, setFilters] = useState<MetricsFilters>(NO_FILTERS);
  const query = useMetrics(filters);
  useMetricsLive();
  const m = query.data;
  return (
    <Box sx={{ pb: 3 }} data-testid="dashboard">
      <PageHeader
        title={t("dashboard.title")}
        subtitle={m ? t("dashboard.updated", { time: new Date(query.dataUpdatedAt).toLocaleTimeString(i18n.language) }) : undefined}
      >
        <Tooltip title={t("dashboard.refresh")}>
          <span>
            <IconButton onClick={() => void query.refetch()} disabled={query.isFetching} aria-label={t("dashboard.refresh")}>
              <RefreshIcon />
            </IconButton>
          </span>
        </Tooltip>
      </PageHeader>
      <Box sx={{ height: 4, px: { xs: 2, sm: 3 } }}>{query.isFetching && m && <LinearProgress />}</Box>
      {query.isError && !m ? (
        <Box sx={{ px: { xs: 2, sm: 3 } }}>
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void query.refetch()}>
                {t("dashboard.retry")}
              </Button>
            }
          >
            {t("dashboard.error")}
          </Alert>
        </Box>
      ) : !m ? (
        <Box sx={{ display: "flex", justifyContent: "center", py: 8 }}>
          <CircularProgress aria-label={t("dashboard.title")} />
        </Box>
      ) : (
        <Box sx={{ px: { xs: 2, sm: 3 }, display: "grid", gap: { xs: 1.5, sm: 2 } }}>
          <Cards m={m} />
          <Box sx={{ display: "grid", gap: { xs: 1.5, sm: 2 }, gridTemplateColumns: { xs: "1fr", md: "2fr 1fr" } }}>
            <TopAgents m={m} />
            <ClosedPending m={m} />
          </Box>
          <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1 }}>
            <Filters value={filters} onChange={setFilters} />
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ flex: "1 1 auto", textAlign: { sm: "right" } }}
              data-testid="dashboard-period"
            >
              {new Date(m.period.from).toLocaleDateString(i18n.language, { timeZone: m.period.timeZone })} –{" "}
              {new Date(new Date(m.period.to).getTime() - 1).toLocaleDateString(i18n.language, { timeZone: m.period.timeZone })} (
              {m.period.timeZone})
            </Typography>
          </Paper>
          <LivePanel m={m} />
          <IncidentsPanel m={m} />
          <TimesPanel m={m} />
          <Box sx={{ display: "grid", gap: { xs: 1.5, sm: 2 }, gridTemplateColumns: { xs: "1fr", lg: "3fr 2fr" } }}>
            <HeatMap m={m} />
            <ServerPanel m={m} />
          </Box>
        </Box>
      )}
    </Box>
  );
}
