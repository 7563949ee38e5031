import "../i18n";
import { SCHEDULE_FILTER_STATUSES, SCHEDULE_PAGE_SIZE_DEFAULT, SCHEDULE_PAGE_SIZES, type Schedule } from "@balcao/contract";
import DeleteIcon from "@mui/icons-material/Delete";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import RefreshIcon from "@mui/icons-material/Refresh";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
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
  const [draft, setDraft] = useState<ScheduleFilters>(NO_FILTERS);
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
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Box
            component="form"
            onSubmit={(e) => {
              e.preventDefault();
              setFilters(draft);
              setPage(0);
            }}
            sx={{
              display: "grid",
              gridTemplateColumns: { xs: "1fr 1fr", md: "170px 170px 170px 1fr auto" },
              gap: 1.5,
              alignItems: "center",
            }}
          >
            <TextField
              select
              size="small"
              label={t("schedules.filters.status")}
              value={draft.status}
              onChange={(e) => setDraft({ ...draft, status: e.target.value })}
              sx={{ gridColumn: { xs: "1 / -1", md: "auto" } }}
              slotProps={{
                inputLabel: { shrink: true },
                select: { displayEmpty: true, SelectDisplayProps: { "data-testid": "schedules-status" } as object },
              }}
            >
              <MenuItem value="">{t("schedules.filters.all")}</MenuItem>
              {SCHEDULE_FILTER_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`schedules.statuses.${s}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              type="date"
              label={t("schedules.filters.from")}
              value={draft.from}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "schedules-from" } }}
            />
            <TextField
              size="small"
              type="date"
              label={t("schedules.filters.to")}
              value={draft.to}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "schedules-to" } }}
            />
            <TextField
              size="small"
              label={t("schedules.filters.search")}
              placeholder={t("schedules.filters.searchHelp")}
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(0);
              }}
              sx={{ gridColumn: { xs: "1 / -1", md: "auto" } }}
              slotProps={{ htmlInput: { "data-testid": "schedules-search" } }}
            />
            <Button type="submit" variant="contained" sx={{ gridColumn: { xs: "1 / -1", md: "auto" } }} data-testid="schedules-apply">
              {t("schedules.filters.apply")}
            </Button>
          </Box>
        </Paper>

        <Paper variant="outlined">
          {list.isFetching && <LinearProgress />}
          {!list.isLoading && !rows.length ? (
            <Typography color="text.secondary" sx={{ py: 6, textAlign: "center" }} data-testid="schedules-empty">
              {t("schedules.empty")}
            </Typography>
          ) : (
            <TableContainer sx={{ overflowX: "auto" }}>
              <Table size="small" aria-label={t("schedules.title")} sx={{ minWidth: 760 }}>
                <TableHead>
                  <TableRow>
                    {(["when", "message", "contact", "user", "status", "actions"] as const).map((c) => (
                      <TableCell key={c} sx={{ fontWeight: 700, whiteSpace: "nowrap" }} align={c === "actions" ? "right" : "left"}>
                        {t(`schedules.columns.${c}`)}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {shown.map((s) => (
                    <TableRow key={s.id} hover data-testid="schedule-row" data-id={s.id}>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>{formatWhen(s.when, zone, i18n.language)}</TableCell>
                      <TableCell title={s.message}>{cut(s.message)}</TableCell>
                      <TableCell>
                        <Box sx={{ display: "flex", flexDirection: "column" }}>
                          <span>{s.contactName ?? "-"}</span>
                          <Typography variant="caption" color="text.secondary">
                            {s.customerNumber ? formatPhone(s.customerNumber) : ""}
                          </Typography>
                        </Box>
                      </TableCell>
                      <TableCell>{attendantOf(s, (id) => t("schedules.userId", { id }))}</TableCell>
                      <TableCell>
                        <StatusChip status={s.status} reason={s.reason} queued={!s.sentAt} />
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
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
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          <TablePagination
            component="div"
            count={rows.length}
            page={Math.min(page, Math.max(0, Math.ceil(rows.length / perPage) - 1))}
            onPageChange={(_e, p) => setPage(p)}
            rowsPerPage={perPage}
            rowsPerPageOptions={[...SCHEDULE_PAGE_SIZES]}
            onRowsPerPageChange={(e) => {
              setPerPage(Number(e.target.value));
              setPage(0);
            }}
            labelRowsPerPage={t("schedules.perPage")}
            labelDisplayedRows={({ from, to, count }) => t("schedules.range", { from, to, count })}
          />
        </Paper>
      </Box>
    </Box>
  );
}
