import "../i18n";
import { DISPARO_FILTER_STATUSES, DISPARO_PAGE_SIZE_DEFAULT, DISPARO_PAGE_SIZES, type DisparoConnection } from "@balcao/contract";
import RefreshIcon from "@mui/icons-material/Refresh";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { enqueueSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FilterBar } from "../../../components/FilterBar";
import { PageHeader } from "../../../components/PageHeader";
import { toastSuccess } from "../../../lib/toast";
import {
  type BulkAction,
  type DisparoFilters,
  EMPTY_STATS,
  useBulkAction,
  useClearOptOut,
  useDisparoConnections,
  useDisparoStats,
  useDisparos,
  useDisparosLive,
  useOptOuts,
  useReload,
  useUpdateDisparoConnection,
} from "../api/disparos";
import { searchRows } from "../lib";
import { DisparosTable } from "./DisparosTable";
import { NewDisparoDialog } from "./NewDisparoDialog";
import { ConnectionsPanel, ProgressPanel, StatsCards } from "./Overview";

const NO_FILTERS: DisparoFilters = { status: "", from: "", to: "" };

/** §2 'Voltar / confirm': each bulk action waits for this. */
function BulkConfirm({
  action,
  onClose,
  onConfirm,
  busy,
}: {
  action: BulkAction | null;
  onClose: () => void;
  onConfirm: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const label = action === "restart" ? "restart" : action === "cancel" ? "cancel" : "delete";
  return (
    <Dialog open={action !== null} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="bulk-title">
      <DialogTitle id="bulk-title">{t(`disparos.actions.${label}`)}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t(`disparos.confirm.${label}`)}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("disparos.actions.back")}</Button>
        <Button variant="contained" color={action === "delete" ? "error" : "primary"} disabled={busy} onClick={onConfirm}>
          {t(`disparos.actions.${label}`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function OptOutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const q = useOptOuts(open);
  const clear = useClearOptOut();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="optouts-title">
      <DialogTitle id="optouts-title">{t("disparos.optOuts.title")}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary">
          {t("disparos.optOuts.help")}
        </Typography>
        {q.isLoading && <LinearProgress sx={{ mt: 2 }} />}
        {q.data && !q.data.length && <Typography sx={{ mt: 2 }}>{t("disparos.optOuts.empty")}</Typography>}
        <List dense>
          {(q.data ?? []).map((o) => (
            <ListItem
              key={o.contactId}
              secondaryAction={
                <Button size="small" disabled={clear.isPending} onClick={() => clear.mutate(o.contactId)}>
                  {t("disparos.optOuts.clear")}
                </Button>
              }
            >
              <ListItemText
                primary={o.name}
                secondary={`${o.number ?? ""} · ${new Date(o.createdAt).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" })}`}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("disparos.actions.back")}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** /Disparos (admins): the bulk-message monitor of §2 with the campaign's progress and each connection's sending. */
export default function DisparosPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<DisparoFilters>(NO_FILTERS);
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(DISPARO_PAGE_SIZE_DEFAULT);
  const [confirm, setConfirm] = useState<BulkAction | null>(null);
  const [creating, setCreating] = useState(false);
  const [optOuts, setOptOuts] = useState(false);

  const list = useDisparos(page, limit, filters);
  const stats = useDisparoStats();
  const connections = useDisparoConnections();
  const bulk = useBulkAction();
  const toggle = useUpdateDisparoConnection();
  const reload = useReload();
  useDisparosLive((whatsappId) => {
    const name = connections.data?.find((c) => c.whatsappId === whatsappId)?.name ?? `#${whatsappId}`;
    enqueueSnackbar(t("disparos.connections.alert", { name }), { variant: "warning", autoHideDuration: 8000 });
  });

  const s = stats.data ?? EMPTY_STATS;
  const totalPages = list.data?.totalPages ?? 1;
  const rows = searchRows(list.data?.rows ?? [], search);

  const runBulk = () => {
    if (!confirm) return;
    const action = confirm;
    bulk.mutate(action, {
      onSuccess: (r) => toastSuccess(t(`disparos.done.${action}`, { count: r.changed })),
      // §8: only logged
      onError: (err) => console.error("disparos action failed", err),
      onSettled: () => setConfirm(null),
    });
  };
  const onToggle = (c: DisparoConnection) => toggle.mutate({ id: c.whatsappId, body: { paused: !c.paused } });

  return (
    <Box sx={{ display: "flex", flexDirection: "column", minHeight: 0, overflowY: "auto", flex: 1 }}>
      <PageHeader title={t("disparos.title")}>
        <Tooltip title={t("disparos.reload")}>
          <IconButton aria-label={t("disparos.reload")} onClick={() => void reload()}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
        <Button variant="outlined" size="small" onClick={() => setConfirm("restart")}>
          {t("disparos.actions.restart")}
        </Button>
        <Button variant="outlined" size="small" onClick={() => setConfirm("cancel")}>
          {t("disparos.actions.cancel")}
        </Button>
        <Button variant="outlined" size="small" color="error" onClick={() => setConfirm("delete")}>
          {t("disparos.actions.delete")}
        </Button>
        <Button size="small" onClick={() => setOptOuts(true)}>
          {t("disparos.actions.optOuts")}
        </Button>
        <Button variant="contained" size="small" onClick={() => setCreating(true)}>
          {t("disparos.actions.newDisparo")}
        </Button>
      </PageHeader>

      <Box sx={{ px: { xs: 2, sm: 3 }, pb: 3, display: "flex", flexDirection: "column", gap: 2 }}>
        <StatsCards stats={s} />
        <ProgressPanel stats={s} connections={connections.data} />
        <ConnectionsPanel
          connections={connections.data ?? []}
          busyId={toggle.isPending ? toggle.variables?.id : undefined}
          onToggle={onToggle}
        />

        <Paper variant="outlined" sx={{ p: 2 }}>
          <FilterBar
            value={filters}
            onApply={(f) => {
              setFilters(f);
              setPage(1);
            }}
            onClear={() => {
              setFilters(NO_FILTERS);
              setSearch("");
              setPage(1);
            }}
            statuses={DISPARO_FILTER_STATUSES.map((st) => ({ value: st, label: t(`disparos.statuses.${st}`) }))}
            labels={{
              status: t("disparos.filters.status"),
              all: t("disparos.filters.all"),
              from: t("disparos.filters.from"),
              to: t("disparos.filters.to"),
              apply: t("disparos.filters.apply"),
              clear: t("disparos.filters.clear"),
              search: t("disparos.filters.search"),
              searchHelp: t("disparos.filters.searchHelp"),
            }}
            search={{ value: search, onChange: setSearch }}
            testId="disparos"
          />
        </Paper>

        <DisparosTable
          rows={rows}
          loading={list.isLoading}
          fetching={list.isFetching}
          paging={{
            kind: "pages",
            page,
            totalPages,
            perPage: limit,
            options: DISPARO_PAGE_SIZES,
            onPage: setPage,
            onPerPage: (n) => {
              setLimit(n);
              setPage(1);
            },
            perPageLabel: t("disparos.perPage"),
            previous: t("disparos.previous"),
            next: t("disparos.next"),
            pageOf: t("disparos.pageOf", { page, total: totalPages }),
            testId: "disparos-page",
          }}
        />
      </Box>

      <BulkConfirm action={confirm} busy={bulk.isPending} onClose={() => setConfirm(null)} onConfirm={runBulk} />
      <NewDisparoDialog open={creating} onClose={() => setCreating(false)} connections={connections.data ?? []} />
      <OptOutsDialog open={optOuts} onClose={() => setOptOuts(false)} />
    </Box>
  );
}
