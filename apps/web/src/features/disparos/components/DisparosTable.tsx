import type { Disparo } from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Column, PagedTable, type Paging } from "../../../components/PagedTable";
import { absoluteUrl, cut, isImageUrl, statusColor, statusTextColor } from "../lib";

/** §4: a pill in the status's colour (unknown statuses grey). */
export function StatusPill({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Box
      component="span"
      data-testid="disparo-status"
      data-status={status}
      sx={{
        display: "inline-block",
        px: 1.25,
        py: 0.25,
        borderRadius: 10,
        fontSize: 12,
        fontWeight: 600,
        whiteSpace: "nowrap",
        bgcolor: statusColor(status),
        color: statusTextColor(status),
        // black on a dark paper still needs an edge
        border: 1,
        borderColor: "divider",
      }}
    >
      {t(`disparos.statuses.${status}`, { defaultValue: status })}
    </Box>
  );
}

/** §2: the table of the loaded page (with its pager), and the image preview dialog. */
export function DisparosTable({
  rows,
  loading,
  fetching,
  paging,
}: {
  rows: Disparo[];
  loading: boolean;
  fetching: boolean;
  paging: Paging;
}) {
  const { t, i18n } = useTranslation();
  const [preview, setPreview] = useState<string | null>(null);
  const origin = window.location.origin;
  const columns: Column<Disparo>[] = [
    { key: "id", label: t("disparos.columns.id"), render: (r) => r.id },
    { key: "number", label: t("disparos.columns.number"), sx: { whiteSpace: "nowrap" }, render: (r) => r.number },
    {
      key: "message",
      label: t("disparos.columns.message"),
      sx: { maxWidth: 360 },
      render: (r) => {
        const text = r.rendered ?? r.message;
        return (
          <>
            {text.trim() ? (
              <Tooltip title={<Box sx={{ whiteSpace: "pre-wrap" }}>{text}</Box>}>
                <span>{cut(text)}</span>
              </Tooltip>
            ) : (
              "-"
            )}
            {r.reason && r.status !== "enviado" && (
              <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
                {r.reason}
              </Typography>
            )}
          </>
        );
      },
    },
    {
      key: "url",
      label: t("disparos.columns.url"),
      sx: { maxWidth: 200 },
      render: (r) =>
        !r.url ? (
          "-"
        ) : isImageUrl(r.url) ? (
          <Button size="small" variant="outlined" onClick={() => setPreview(absoluteUrl(r.url, origin))}>
            {t("disparos.view")}
          </Button>
        ) : (
          <Link href={absoluteUrl(r.url, origin)} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: "break-all" }}>
            {cut(r.url, 30)}
          </Link>
        ),
    },
    { key: "status", label: t("disparos.columns.status"), render: (r) => <StatusPill status={r.status} /> },
    {
      key: "datetime",
      label: t("disparos.columns.datetime"),
      sx: { whiteSpace: "nowrap" },
      render: (r) => new Date(r.datetime).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" }),
    },
    { key: "mimetype", label: t("disparos.columns.mimetype"), sx: { whiteSpace: "nowrap" }, render: (r) => r.mimetype || "-" },
  ];
  return (
    <>
      <PagedTable
        label={t("disparos.title")}
        rows={rows}
        rowKey={(r) => r.id}
        rowProps={() => ({ "data-testid": "disparo-row" })}
        columns={columns}
        minWidth={820}
        loading={loading}
        fetching={fetching}
        empty={t("disparos.empty")}
        emptyTestId="disparos-empty"
        paging={paging}
      />
      <Dialog open={preview !== null} onClose={() => setPreview(null)} maxWidth="md">
        <DialogTitle>{t("disparos.preview")}</DialogTitle>
        <DialogContent>
          {preview && (
            <Box component="img" src={preview} alt={t("disparos.preview")} sx={{ maxWidth: "100%", maxHeight: "70vh", display: "block" }} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPreview(null)}>{t("disparos.actions.back")}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
