import "../i18n";
import { SCHEDULE_FILTER_STATUSES, SCHEDULE_PAGE_SIZE_DEFAULT, SCHEDULE_PAGE_SIZES, type Schedule } from "@balcao/contract";
import DeleteIcon from "@mui/icons-material/Delete";
import EventIcon from "@mui/icons-material/Event";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import RefreshIcon from "@mui/icons-material/Refresh";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { FilterBar } from "../../../components/FilterBar";
import { PagedTable } from "../../../components/PagedTable";
import { PageHeader } from "../../../components/PageHeader";
import { formatPhone } from "../../../lib/phone";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useSettings } from "../../settings";
import { type ScheduleFilters, useDeleteSchedule, useReloadSchedules, useSchedules, useSchedulesLive } from "../api/schedules";
import { attendantOf, cut, formatWhen, searchSchedules } from "../lib";
import { StatusChip } from "./StatusChip";

const NO_FILTERS: ScheduleFilters = { status: "", from: "", to: "" };

/** /schedules (admins): the Agendamentos screen of §2 — filters, search on the loaded rows, columns, 10/25/50 rows. */
export default function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { get } = useSettings();
  const zone = get("timezone") || undefined;
  const [filters, setFilters] = useState<ScheduleFilters>(NO_FILTERS);
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState<number>(SCHEDULE_PAGE_SIZE_DEFAULT);
  const list = useSchedules(filters);
  const remove = useDeleteSchedule();
  const reload = useReloadSchedules();
  useSchedulesLive();

  const rows = searchSchedules(list.data ?? [], search);
  const shown = rows.slice(page * perPage, page * perPage + perPage);
  const onDelete = (s: Schedule) =>
    remove.mutate(s.id, {
      onSuccess: (r) => toastSuccess(r.removed ? t("schedules.deleted") : t("schedules.canceled")),
      onError: toastError,
    });

  return (
    <Box sx={{ display: "flex", flexDirection: "column", minHeight: 0, overflowY: "auto", flex: 1 }}>
      <PageHeader title={t("schedules.title")}>
        <Tooltip title={t("schedules.reload")}>
          <IconButton aria-label={t("schedules.reload")} onClick={() => void reload()} data-testid="schedules-refresh">
            <RefreshIcon />
          </IconButton>
        </Tooltip>
      </PageHeader>
      <Box sx={{ px: { xs: 2, sm: 3 }, pb: 3, display: "flex", flexDirection: "column", gap: 2 }}>
        <Alert severity="info" icon={<EventIcon fontSize="inherit" />} data-testid="schedules-how">
          {t("schedules.howTo")}
        </Alert>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <FilterBar
            value={filters}
            onApply={(f) => {
              setFilters(f);
              setPage(0);
            }}
            statuses={SCHEDULE_FILTER_STATUSES.map((st) => ({ value: st, label: t(`schedules.statuses.${st}`) }))}
            labels={{
              status: t("schedules.filters.status"),
              all: t("schedules.filters.all"),
              from: t("schedules.filters.from"),
              to: t("schedules.filters.to"),
              apply: t("schedules.filters.apply"),
              search: t("schedules.filters.search"),
              searchHelp: t("schedules.filters.searchHelp"),
            }}
            search={{
              value: search,
              onChange: (v) => {
                setSearch(v);
                setPage(0);
              },
            }}
            testId="schedules"
          />
        </Paper>

        <PagedTable
          label={t("schedules.title")}
          rows={shown}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ "data-testid": "schedule-row", "data-id": s.id })}
          minWidth={760}
          loading={list.isLoading}
          fetching={list.isFetching}
          empty={
            <>
              <Typography color="text.secondary">{t("schedules.empty")}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {t("schedules.emptyHowTo")}
              </Typography>
            </>
          }
          emptyTestId="schedules-empty"
          columns={[
            {
              key: "when",
              label: t("schedules.columns.when"),
              sx: { whiteSpace: "nowrap" },
              render: (s) => formatWhen(s.when, zone, i18n.language),
            },
            { key: "message", label: t("schedules.columns.message"), title: (s) => s.message, render: (s) => cut(s.message) },
            {
              key: "contact",
              label: t("schedules.columns.contact"),
              render: (s) => (
                <Box sx={{ display: "flex", flexDirection: "column" }}>
                  <span>{s.contactName ?? "-"}</span>
                  <Typography variant="caption" color="text.secondary">
                    {s.customerNumber ? formatPhone(s.customerNumber) : ""}
                  </Typography>
                </Box>
              ),
            },
            { key: "user", label: t("schedules.columns.user"), render: (s) => attendantOf(s, (id) => t("schedules.userId", { id })) },
            {
              key: "status",
              label: t("schedules.columns.status"),
              render: (s) => <StatusChip status={s.status} reason={s.reason} queued={!s.sentAt} />,
            },
            {
              key: "actions",
              label: t("schedules.columns.actions"),
              align: "right",
              sx: { whiteSpace: "nowrap" },
              render: (s) => (
                <>
                  {s.ticketId !== null && (
                    <Tooltip title={t("schedules.openTicket")}>
                      <IconButton aria-label={t("schedules.openTicket")} onClick={() => navigate(`/tickets/${s.ticketId}`)}>
                        <OpenInNewIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title={s.status === "pending" ? t("schedules.cancel") : t("schedules.delete")}>
                    <span>
                      <IconButton
                        aria-label={s.status === "pending" ? t("schedules.cancel") : t("schedules.delete")}
                        color="error"
                        disabled={remove.isPending}
                        onClick={() => onDelete(s)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </>
              ),
            },
          ]}
          paging={{
            kind: "count",
            count: rows.length,
            page,
            perPage,
            options: SCHEDULE_PAGE_SIZES,
            onPage: setPage,
            onPerPage: (n) => {
              setPerPage(n);
              setPage(0);
            },
            perPageLabel: t("schedules.perPage"),
            rangeLabel: ({ from, to, count }) => t("schedules.range", { from, to, count }),
          }}
        />
      </Box>
    </Box>
  );
}
