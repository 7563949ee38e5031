import "../i18n";
import { AUDIT_ACTIONS, AUDIT_PAGE_SIZE, type AuditEntry } from "@balcao/contract";
import DownloadIcon from "@mui/icons-material/Download";
import PolicyIcon from "@mui/icons-material/Policy";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { Theme } from "@mui/material/styles";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { FilterBar } from "../../../components/FilterBar";
import { PagedTable } from "../../../components/PagedTable";
import { PageHeader } from "../../../components/PageHeader";
import { toastError, toastSuccess } from "../../../lib/toast";
import { connectionsQuery } from "../../connections";
import { useQueues } from "../../queues";
import { useUsers, visibleUsers } from "../../users";
import { type AuditFilters, exportAuditCsv, NO_AUDIT_FILTERS, useAudit } from "../api/audit";
import { type AuditNames, changeText, targetText } from "../describe";

/** /audit (admins): who did what, filtered by action, user and days, 50 a page, exported as CSV. */
export default function AuditPage() {
  const { t, i18n } = useTranslation();
  const phone = useMediaQuery((th: Theme) => th.breakpoints.down("sm"));
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const list = useAudit(filters, page);
  const usersData = useUsers("").data;
  const allUsers = useMemo(() => usersData?.pages.flatMap((p) => p.users) ?? [], [usersData]);
  const users = visibleUsers(allUsers);
  const queues = useQueues().data;
  const connections = useQuery(connectionsQuery).data;
  // ids in the entries, named as the lists an admin reads name them (a deleted one stays "Usuário #2")
  const names = useMemo<AuditNames>(
    () => ({
      user: (id) => allUsers.find((u) => u.id === id)?.name,
      queue: (id) => queues?.find((q) => q.id === id)?.name,
      connection: (id) => connections?.find((c) => c.id === id)?.name,
    }),
    [allUsers, queues, connections],
  );
  const target = (e: AuditEntry) => targetText(e.target, t, names);
  const change = (e: AuditEntry) => changeText(e, t, names, i18n.language);
  const count = list.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / AUDIT_PAGE_SIZE));
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "medium" });
  const actionLabel = (a: string) => t(`audit.actions.${a}`, { defaultValue: a });
  const who = (e: AuditEntry) => e.userName || (e.userId === null ? t("audit.system") : `#${e.userId}`);

  const onExport = async () => {
    setExporting(true);
    try {
      await exportAuditCsv(filters);
      toastSuccess(t("audit.exported"));
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", minHeight: 0, overflowY: "auto", flex: 1 }}>
      <PageHeader title={t("audit.title")}>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void onExport()}
          disabled={exporting}
          data-testid="audit-export"
        >
          {t("audit.export")}
        </Button>
      </PageHeader>
      <Box sx={{ px: { xs: 2, sm: 3 }, pb: 3, display: "flex", flexDirection: "column", gap: 2 }}>
        <Alert severity="info" icon={<PolicyIcon fontSize="inherit" />}>
          {t("audit.howTo")}
        </Alert>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <FilterBar
            value={filters}
            onApply={(f) => {
              setFilters(f);
              setPage(1);
            }}
            onClear={() => {
              setFilters(NO_AUDIT_FILTERS);
              setPage(1);
            }}
            statuses={AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))}
            labels={{
              status: t("audit.filters.action"),
              all: t("audit.filters.all"),
              from: t("audit.filters.from"),
              to: t("audit.filters.to"),
              apply: t("audit.filters.apply"),
              clear: t("audit.filters.clear"),
            }}
            testId="audit"
            actions={
              <TextField
                select
                size="small"
                label={t("audit.filters.user")}
                value={filters.userId}
                onChange={(e) => {
                  setFilters({ ...filters, userId: e.target.value });
                  setPage(1);
                }}
                sx={{ width: { xs: "100%", sm: 200 } }}
                slotProps={{ htmlInput: { "data-testid": "audit-user" } }}
              >
                <MenuItem value="">{t("audit.filters.anyUser")}</MenuItem>
                {users.map((u) => (
                  <MenuItem key={u.id} value={String(u.id)}>
                    {u.name}
                  </MenuItem>
                ))}
              </TextField>
            }
          />
        </Paper>
        <PagedTable
          label={t("audit.title")}
          rows={list.data?.entries ?? []}
          rowKey={(e) => e.id}
          rowProps={(e) => ({ "data-testid": "audit-row", "data-action": e.action })}
          minWidth={900}
          loading={list.isLoading}
          fetching={list.isFetching}
          empty={t("audit.empty")}
          emptyTestId="audit-empty"
          tableTestId="audit-table"
          phone={phone}
          card={(e) => (
            <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="audit-card">
              <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1 }}>
                <Typography variant="subtitle2">{actionLabel(e.action)}</Typography>
                <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
                  {when(e.at)}
                </Typography>
              </Box>
              <Typography variant="body2">
                {who(e)}{" "}
                {e.target && (
                  <Box component="span" sx={{ color: "text.secondary" }}>
                    · {target(e)}
                  </Box>
                )}
              </Typography>
              {change(e) && (
                <Typography variant="caption" color="text.secondary" sx={{ display: "block", wordBreak: "break-word" }}>
                  {change(e)}
                </Typography>
              )}
              {e.ip && (
                <Typography variant="caption" color="text.secondary">
                  IP {e.ip}
                </Typography>
              )}
            </Paper>
          )}
          columns={[
            { key: "at", label: t("audit.columns.at"), sx: { whiteSpace: "nowrap" }, render: (e) => when(e.at) },
            { key: "user", label: t("audit.columns.user"), render: who },
            { key: "action", label: t("audit.columns.action"), render: (e) => actionLabel(e.action) },
            { key: "target", label: t("audit.columns.target"), sx: { minWidth: 120, maxWidth: 260 }, render: target },
            {
              key: "change",
              label: t("audit.columns.change"),
              title: change,
              sx: { maxWidth: 360, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
              render: (e) => change(e) || "—",
            },
            { key: "ip", label: t("audit.columns.ip"), sx: { whiteSpace: "nowrap" }, render: (e) => e.ip || "—" },
          ]}
          paging={{
            kind: "pages",
            page,
            totalPages: pages,
            perPage: AUDIT_PAGE_SIZE,
            options: [AUDIT_PAGE_SIZE],
            onPage: setPage,
            onPerPage: () => undefined,
            perPageLabel: t("audit.perPage"),
            previous: t("audit.previous"),
            next: t("audit.next"),
            pageOf: t("audit.pageOf", { page, pages, count }),
            testId: "audit-page",
          }}
        />
      </Box>
    </Box>
  );
}
