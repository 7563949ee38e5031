import "../i18n";
import { CONTRACT_PAGE_SIZE_DEFAULT, CONTRACT_PAGE_SIZES, CONTRACT_STATUS_COLORS, type ContractItem } from "@balcao/contract";
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
import MenuItem from "@mui/material/MenuItem";
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
import Paper from "@mui/material/Paper";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { enqueueSnackbar } from "notistack";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
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
  const [draft, setDraft] = useState<ContractFilters>(NO_FILTERS);
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

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" data-testid="contracts-showing">
        {t("contracts.showing", { count: items.length, total })}
      </Typography>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, alignItems: "center" }}>
        <TextField
          select
          size="small"
          label={t("contracts.filters.status")}
          value={draft.status}
          onChange={(e) => setDraft({ ...draft, status: e.target.value as ContractFilters["status"] })}
          fullWidth={false}
          sx={{ width: { xs: "100%", sm: 170 } }}
          slotProps={{
            inputLabel: { shrink: true },
            select: { displayEmpty: true, inputProps: { "data-testid": "contracts-status-filter" } },
          }}
        >
          <MenuItem value="">{t("contracts.filters.all")}</MenuItem>
          <MenuItem value="Nao assinado">{t("contracts.statuses.Nao assinado")}</MenuItem>
          <MenuItem value="Assinado">{t("contracts.statuses.Assinado")}</MenuItem>
        </TextField>
        <TextField
          size="small"
          type="date"
          label={t("contracts.filters.from")}
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          fullWidth={false}
          sx={{ width: { xs: "calc(50% - 4px)", sm: 170 } }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label={t("contracts.filters.to")}
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          fullWidth={false}
          sx={{ width: { xs: "calc(50% - 4px)", sm: 170 } }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button
          onClick={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
            setPage(0);
          }}
        >
          {t("contracts.filters.clear")}
        </Button>
        <Button
          variant="contained"
          onClick={() => {
            setFilters(draft);
            setPage(0);
          }}
        >
          {t("contracts.filters.apply")}
        </Button>
        <Button color="error" variant="outlined" onClick={() => setDeletingAll(true)} disabled={busyAll}>
          {t("contracts.filters.deleteAll")}
        </Button>
        {extraActions}
      </Box>
      {(list.isFetching || busyAll) && <LinearProgress />}
      {phone ? (
        <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }} data-testid="contracts-table">
          {items.map((c) => (
            <Paper key={c.id} variant="outlined" sx={{ p: 1.5 }} data-testid={`contract-row-${c.id}`}>
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
          ))}
          {!list.isLoading && items.length === 0 && (
            <Typography align="center" color="text.secondary" sx={{ py: 4 }}>
              {t("contracts.empty")}
            </Typography>
          )}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: "auto" }}>
          <Table size="small" data-testid="contracts-table">
            <TableHead>
              <TableRow>
                <TableCell>{t("contracts.columns.titulo")}</TableCell>
                <TableCell>{t("contracts.columns.nome")}</TableCell>
                <TableCell>{t("contracts.columns.email")}</TableCell>
                <TableCell>{t("contracts.columns.status")}</TableCell>
                <TableCell>{t("contracts.columns.enviado")}</TableCell>
                {screen && <TableCell>{t("contracts.columns.atendente")}</TableCell>}
                <TableCell align="center">{t(screen ? "contracts.columns.visualizar" : "contracts.columns.visualizarPdf")}</TableCell>
                <TableCell align="center">{t("contracts.columns.baixar")}</TableCell>
                <TableCell align="center">{t("contracts.columns.excluir")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((c) => (
                <TableRow key={c.id} hover data-testid={`contract-row-${c.id}`}>
                  <TableCell sx={{ minWidth: 160 }}>{c.titulo}</TableCell>
                  <TableCell sx={{ minWidth: 140 }}>{c.nome}</TableCell>
                  <TableCell>{c.email || "—"}</TableCell>
                  <TableCell>
                    <StatusPill status={c.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>
                    {c.data_envio ? when(c.data_envio) : c.caminho ? "—" : t("contracts.generating")}
                  </TableCell>
                  {screen && <TableCell>{c.atendente || "—"}</TableCell>}
                  <TableCell align="center">
                    <Tooltip title={t("contracts.viewer")}>
                      <span>
                        <IconButton size="small" disabled={!c.caminho} onClick={() => setViewing(c)} aria-label={t("contracts.viewer")}>
                          <VisibilityIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                  <TableCell align="center">
                    <Tooltip title={t("contracts.columns.baixar")}>
                      <span>
                        <IconButton
                          size="small"
                          disabled={!c.caminho}
                          onClick={() => void download(c)}
                          aria-label={t("contracts.columns.baixar")}
                        >
                          <DownloadIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                  <TableCell align="center">
                    <IconButton size="small" color="error" onClick={() => setDeleting(c)} aria-label={t("contracts.columns.excluir")}>
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
              {!list.isLoading && items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={screen ? 9 : 8} align="center" sx={{ py: 4, color: "text.secondary" }}>
                    {t("contracts.empty")}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <TablePagination
        component="div"
        count={total}
        page={Math.min(page, Math.max(0, Math.ceil(total / limit) - 1))}
        onPageChange={(_e, p) => setPage(p)}
        rowsPerPage={limit}
        rowsPerPageOptions={[...CONTRACT_PAGE_SIZES]}
        onRowsPerPageChange={(e) => {
          setLimit(Number(e.target.value));
          setPage(0);
        }}
        labelRowsPerPage={t("contracts.perPage")}
        labelDisplayedRows={({ from, to, count }) => `${from}–${to} / ${count}`}
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
