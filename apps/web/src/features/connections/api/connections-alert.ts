import { ALERT_CONNECTION_STATUSES, CONNECTION_BADGE_DELAY_MS, type ConnectionStatus, type Whatsapp } from "@balcao/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { http } from "../../../api/http";
import { shareNewer } from "../../../lib/live-merge";
import { useSocketEvent } from "../../../lib/socket";

const connectionsKey = ["whatsapp"] as const;
type Connection = Pick<Whatsapp, "id" | "status">;

export function needsAttention(statuses: readonly ConnectionStatus[]): boolean {
  return statuses.some((s) => (ALERT_CONNECTION_STATUSES as readonly string[]).includes(s));
}

/** The drawer's connections alert: checked 2 s after load, then kept live by the session socket events. Failures stay silent. */
export function useConnectionsAlert(enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const t = setTimeout(() => setDue(true), CONNECTION_BADGE_DELAY_MS);
    return () => clearTimeout(t);
  }, [enabled]);
  const { data } = useQuery({
    queryKey: connectionsKey,
    queryFn: () => http.get<Connection[]>("/whatsapp/"),
    structuralSharing: shareNewer,
    enabled: enabled && due,
    retry: false,
    meta: { silent: true },
  });
  useSocketEvent("whatsappSession", (p) => {
    queryClient.setQueryData<Connection[]>(connectionsKey, (old) =>
      old?.map((c) => (c.id === p.session.id ? { ...c, status: p.session.status } : c)),
    );
  });
  useSocketEvent("whatsapp", (p) => {
    queryClient.setQueryData<Connection[]>(connectionsKey, (old) => {
      if (!old) return old;
      if (p.action === "delete") return old.filter((c) => c.id !== p.whatsappId);
      const rest = old.filter((c) => c.id !== p.whatsapp.id);
      return [...rest, p.whatsapp];
    });
  });
  return Array.isArray(data) && needsAttention(data.map((c) => c.status));
}
