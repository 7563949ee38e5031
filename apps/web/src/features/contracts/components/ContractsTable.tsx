import "../i18n";
import {
  CONTRACT_PAGE_SIZE_DEFAULT,
  CONTRACT_PAGE_SIZES,
  CONTRACT_STATUSES,
  CONTRACT_STATUS_COLORS,
  type ContractItem,
} from "@balcao/contract";
import DeleteIcon from "@mui/icons-material/Delete";
import DownloadIcon from "@mui/icons-material/Download";
import VisibilityIcon from "@mui/icons-material/Visibility";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import Paper from "@mui/material/Paper";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { enqueueSnackbar } from "notistack";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { FilterBar } from "../../../components/FilterBar";
import { type Column, PagedTable } from "../../../components/PagedTable";
import { toastSuccess } from "../../../lib/toast";
import {
  type ContractFilters,
  deleteAllFiltered,
  fetchContractFile,
  NO_FILTERS,
  useContracts,
  useContractsLive,
  useDeleteContract,
} from "../api/contracts";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("pt-BR") : "—");

export function StatusPill({ status }: { status: ContractItem["status"] }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      label={t(`contracts.statuses.${status}`)}
      data-testid="contract-status"
      sx={{ bgcolor: CONTRACT_STATUS_COLORS[status], color: "#fff", fontWeight: 600 }}
    />
  );
}

/** 'Visualizar Documento': the PDF framed (a blob: URL fetched with the session), or 'URL do PDF ausente.' */
function ViewerDialog({ item, onClose }: { item: ContractItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setUrl(null);
    setFailed(false);
    if (!item?.caminho) return;
    let made: string | null = null;
    let live = true;
    fetchContractFile(item.caminho).then(
      (u) => {
        made = u;
        if (live) setUrl(u);
        else URL.revokeObjectURL(u);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [item]);
  return (
    <Dialog open={item !== null} onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="contract-viewer-title">
      <DialogTitle id="contract-viewer-title">{t("contracts.viewer")}</DialogTitle>
      <DialogContent dividers sx={{ p: 0, height: "75vh" }}>
        {!item?.caminho || failed ? (
          <Typography sx={{ p: 3 }}>{failed ? t("contracts.toasts.fileFailed") : t("contracts.noUrl")}</Typography>
        ) : url ? (
          <Box
            component="iframe"
            title={t("contracts.viewer")}
            src={url}
            sx={{ border: 0, width: "100%", height: "100%" }}
            data-testid="contract-frame"
          />
        ) : (
          <LinearProgress />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("contracts.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The contracts list with the spec's filters, columns, pills, paging and deletions; the /contratos
 * screen (with Atendente) and the per-ticket dialog (with 'Novo Contrato') share it.
 */
export function ContractsTable({ ticketId, screen, extraActions }: { ticketId?: number; screen?: boolean; extraActions?: ReactNode }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down("sm"));
  useContractsLive();
  const [filters, setFilters] = useState<ContractFilters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState<number>(CONTRACT_PAGE_SIZE_DEFAULT);
  const list = useContracts(ticketId, page + 1, limit, filters);
  const del = useDeleteContract();
  const [viewing, setViewing] = useState<ContractItem | null>(null);
  const [deleting, setDeleting] = useState<ContractItem | null>(null);
  const [deletingAll, setDeletingAll] = useState(false);
  const [busyAll, setBusyAll] = useState(false);
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  useEffect(() => {
    if (list.isError) enqueueSnackbar(t("contracts.toasts.loadFailed"), { variant: "error" });
  }, [list.isError, t]);

  const download = async (item: ContractItem) => {
    if (!item.caminho) return enqueueSnackbar(t("contracts.toasts.fileMissing"), { variant: "error" });
    // the tab opens now (a popup blocker lets a click's own window through), the file follows
    const tab = window.open("", "_blank");
    try {
      const url = await fetchContractFile(item.caminho);
      if (tab) tab.location.href = url;
      else window.location.assign(url);
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      tab?.close();
      enqueueSnackbar(t("contracts.toasts.fileFailed"), { variant: "error" });
    }
  };

  const deleteOne = (item: ContractItem) =>
    del.mutate(item.id, {
      onSuccess: () => toastSuccess(t("contracts.toasts.deleted")),
      onError: () => enqueueSnackbar(t("contracts.toasts.deleteFailed"), { variant: "error" }),
      onSettled: () => setDeleting(null),
    });

  const deleteAll = async () => {
    setBusyAll(true);
    try {
      const { found, deleted: ok, failed } = await deleteAllFiltered(ticketId, filters);
      if (!found) {
        enqueueSnackbar(t("contracts.toasts.noneToDelete"), { variant: "info" });
        return;
      }
      if (ok) toastSuccess(t("contracts.toasts.deletedN", { count: ok }));
      if (failed) enqueueSnackbar(t("contracts.toasts.failedN", { count: failed }), { variant: "error" });
      setPage(0);
    } catch {
      enqueueSnackbar(t("contracts.toasts.deleteAllFailed"), { variant: "error" });
    } finally {
      setBusyAll(false);
      setDeletingAll(false);
      void list.refetch();
    }
  };

  const actions = (c: ContractItem) => (
    <>
      <Tooltip title={t("contracts.viewer")}>
        <span>
          <IconButton size="small" disabled={!c.caminho} onClick={() => setViewing(c)} aria-label={t("contracts.viewer")}>
            <VisibilityIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t("contracts.columns.baixar")}>
        <span>
          <IconButton size="small" disabled={!c.caminho} onClick={() => void download(c)} aria-label={t("contracts.columns.baixar")}>
            <DownloadIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <IconButton size="small" color="error" onClick={() => setDeleting(c)} aria-label={t("contracts.columns.excluir")}>
        <DeleteIcon fontSize="small" />
      </IconButton>
    </>
  );
  const sent = (c: ContractItem) => (c.data_envio ? when(c.data_envio) : c.caminho ? "—" : t("contracts.generating"));

  const columns: Column<ContractItem>[] = [
    { key: "titulo", label: t("contracts.columns.titulo"), sx: { minWidth: 160 }, render: (c) => c.titulo },
    { key: "nome", label: t("contracts.columns.nome"), sx: { minWidth: 140 }, render: (c) => c.nome },
    { key: "email", label: t("contracts.columns.email"), render: (c) => c.email || "—" },
    { key: "status", label: t("contracts.columns.status"), render: (c) => <StatusPill status={c.status} /> },
    { key: "enviado", label: t("contracts.columns.enviado"), sx: { whiteSpace: "nowrap" }, render: sent },
    ...(screen ? [{ key: "atendente", label: t("contracts.columns.atendente"), render: (c: ContractItem) => c.atendente || "—" }] : []),
    {
      key: "visualizar",
      label: t(screen ? "contracts.columns.visualizar" : "contracts.columns.visualizarPdf"),
      align: "center",
      render: (c) => (
        <Tooltip title={t("contracts.viewer")}>
          <span>
            <IconButton size="small" disabled={!c.caminho} onClick={() => setViewing(c)} aria-label={t("contracts.viewer")}>
              <VisibilityIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ),
    },
    {
      key: "baixar",
      label: t("contracts.columns.baixar"),
      align: "center",
      render: (c) => (
        <Tooltip title={t("contracts.columns.baixar")}>
          <span>
            <IconButton size="small" disabled={!c.caminho} onClick={() => void download(c)} aria-label={t("contracts.columns.baixar")}>
              <DownloadIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ),
    },
    {
      key: "excluir",
      label: t("contracts.columns.excluir"),
      align: "center",
      render: (c) => (
        <IconButton size="small" color="error" onClick={() => setDeleting(c)} aria-label={t("contracts.columns.excluir")}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      ),
    },
  ];

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" data-testid="contracts-showing">
        {t("contracts.showing", { count: items.length, total })}
      </Typography>
      <FilterBar
        value={filters}
        onApply={(f) => {
          setFilters(f);
          setPage(0);
        }}
        onClear={() => {
          setFilters(NO_FILTERS);
          setPage(0);
        }}
        statuses={CONTRACT_STATUSES.map((st) => ({ value: st, label: t(`contracts.statuses.${st}`) }))}
        labels={{
          status: t("contracts.filters.status"),
          all: t("contracts.filters.all"),
          from: t("contracts.filters.from"),
          to: t("contracts.filters.to"),
          apply: t("contracts.filters.apply"),
          clear: t("contracts.filters.clear"),
        }}
        testId="contracts"
        actions={
          <>
            <Button color="error" variant="outlined" onClick={() => setDeletingAll(true)} disabled={busyAll}>
              {t("contracts.filters.deleteAll")}
            </Button>
            {extraActions}
          </>
        }
      />
      <PagedTable
        label={t("contracts.title")}
        rows={items}
        rowKey={(c) => c.id}
        rowProps={(c) => ({ "data-testid": `contract-row-${c.id}` })}
        columns={columns}
        loading={list.isLoading}
        fetching={list.isFetching || busyAll}
        empty={t("contracts.empty")}
        tableTestId="contracts-table"
        phone={phone}
        card={(c) => (
          <Paper variant="outlined" sx={{ p: 1.5 }} data-testid={`contract-row-${c.id}`}>
            <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, alignItems: "flex-start" }}>
              <Typography variant="subtitle2">{c.titulo}</Typography>
              <StatusPill status={c.status} />
            </Box>
            <Typography variant="body2">{c.nome}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: "break-all" }}>
              {c.email || "—"}
            </Typography>
            <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "center", mt: 0.5 }}>
              <Typography variant="caption" color="text.secondary">
                {sent(c)}
                {screen && c.atendente ? ` · ${c.atendente}` : ""}
              </Typography>
              <Box>{actions(c)}</Box>
            </Box>
          </Paper>
        )}
        framed={false}
        paging={{
          kind: "count",
          count: total,
          page,
          perPage: limit,
          options: CONTRACT_PAGE_SIZES,
          onPage: setPage,
          onPerPage: (n) => {
            setLimit(n);
            setPage(0);
          },
          perPageLabel: t("contracts.perPage"),
        }}
      />
      <ViewerDialog item={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("contracts.confirmDelete")}
        busy={del.isPending}
        onConfirm={() => deleting && deleteOne(deleting)}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={deletingAll}
        title={t("contracts.confirmDeleteAll")}
        busy={busyAll}
        onConfirm={() => void deleteAll()}
        onClose={() => setDeletingAll(false)}
      />
    </Box>
  );
}
