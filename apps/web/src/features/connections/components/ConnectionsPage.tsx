import "../i18n";
import type { Whatsapp } from "@balcao/contract";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { CrudGridPage } from "../../../components/CrudGridPage";
import { listState } from "../../../lib/list-state";
import {
  type SessionAction,
  useConnections,
  useConnectionsLive,
  useDeleteConnection,
  useSessionAction,
  useSimulatorAvailable,
} from "../api/connections";
import { useHealthLive } from "../api/health";
import { ConnectionCard } from "./ConnectionCard";
import { ConnectionDialog } from "./ConnectionDialog";
import { QrCodeDialog } from "./QrCodeDialog";

/** /connections (admins): the WhatsApp connections, their live status, sessions and settings. */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const q = useConnections();
  useConnectionsLive();
  // the card follows a number's health live; the pause alert's toast is the shell's (every screen)
  useHealthLive();
  const simulatorAvailable = useSimulatorAvailable();
  const connections = q.data ?? [];
  const [disconnecting, setDisconnecting] = useState<Whatsapp | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const remove = useDeleteConnection();
  const session = useSessionAction();

  const closeQr = useCallback(() => setQrFor(null), []);
  const act = (w: Whatsapp, action: SessionAction) => {
    if (action === "disconnect") setDisconnecting(w);
    else session.mutate({ id: w.id, action });
  };
  const busyId = session.isPending ? session.variables?.id : undefined;

  return (
    <CrudGridPage
      ns="connections"
      items={connections}
      {...listState(q)}
      remove={remove}
      itemName={(w) => w.name}
      renderCard={(w, on) => (
        <ConnectionCard
          connection={w}
          busy={busyId === w.id}
          onAction={(a) => act(w, a)}
          onShowQr={() => setQrFor(w.id)}
          onEdit={on.edit}
          onDelete={on.remove}
        />
      )}
      renderDialog={(d) => (
        <ConnectionDialog
          open={d.open}
          // a snapshot taken when the form opens: live status updates do not reset what is being typed
          connection={d.item}
          simulatorAvailable={simulatorAvailable}
          onClose={d.onClose}
        />
      )}
    >
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
    </CrudGridPage>
  );
}
