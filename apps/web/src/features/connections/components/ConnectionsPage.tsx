import "../i18n";
import type { Whatsapp } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { CardGrid } from "../../../components/CardGrid";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { PageHeader } from "../../../components/PageHeader";
import { toastSuccess } from "../../../lib/toast";
import {
  type SessionAction,
  useConnections,
  useConnectionsLive,
  useDeleteConnection,
  useSessionAction,
  useSimulatorAvailable,
} from "../api/connections";
import { ConnectionCard } from "./ConnectionCard";
import { ConnectionDialog } from "./ConnectionDialog";
import { QrCodeDialog } from "./QrCodeDialog";

/** /connections (admins): the WhatsApp connections, their live status, sessions and settings. */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const q = useConnections();
  useConnectionsLive();
  const simulatorAvailable = useSimulatorAvailable();
  const connections = q.data ?? [];
  const [editing, setEditing] = useState<Whatsapp | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Whatsapp | null>(null);
  const [disconnecting, setDisconnecting] = useState<Whatsapp | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const remove = useDeleteConnection();
  const session = useSessionAction();

  const openForm = (w: Whatsapp | null) => {
    setEditing(w);
    setFormOpen(true);
  };
  const closeQr = useCallback(() => setQrFor(null), []);
  const act = (w: Whatsapp, action: SessionAction) => {
    if (action === "disconnect") setDisconnecting(w);
    else session.mutate({ id: w.id, action });
  };
  const busyId = session.isPending ? session.variables?.id : undefined;

  return (
    <>
      <PageHeader title={t("connections.title")}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
          {t("connections.add")}
        </Button>
      </PageHeader>
      <CardGrid
        label={t("connections.title")}
        items={connections}
        getKey={(w) => w.id}
        loading={q.isPending}
        error={q.isError}
        onRetry={() => void q.refetch()}
        empty={t("connections.empty")}
        renderCard={(w) => (
          <ConnectionCard
            connection={w}
            busy={busyId === w.id}
            onAction={(a) => act(w, a)}
            onShowQr={() => setQrFor(w.id)}
            onEdit={() => openForm(w)}
            onDelete={() => setDeleting(w)}
          />
        )}
      />
      <ConnectionDialog
        open={formOpen}
        // a snapshot taken when the form opens: live status updates do not reset what is being typed
        connection={editing}
        simulatorAvailable={simulatorAvailable}
        onClose={() => setFormOpen(false)}
      />
      <QrCodeDialog connection={qrFor === null ? undefined : connections.find((w) => w.id === qrFor)} onClose={closeQr} />
      <ConfirmDialog
        open={Boolean(disconnecting)}
        title={t("connections.confirmDisconnectTitle", { name: disconnecting?.name ?? "" })}
        text={t("connections.confirmDisconnectText")}
        confirmLabel={t("connections.actions.disconnect")}
        busy={session.isPending}
        onClose={() => setDisconnecting(null)}
        onConfirm={() => {
          if (!disconnecting) return;
          session.mutate({ id: disconnecting.id, action: "disconnect" }, { onSuccess: () => setDisconnecting(null) });
        }}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t("connections.confirmDeleteTitle", { name: deleting?.name ?? "" })}
        text={t("connections.confirmDeleteText")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toastSuccess(t("connections.deleted"));
              setDeleting(null);
            },
          });
        }}
      />
    </>
  );
}
