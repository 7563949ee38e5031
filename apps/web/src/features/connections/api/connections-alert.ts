import { ALERT_CONNECTION_STATUSES, CONNECTION_BADGE_DELAY_MS, type ConnectionStatus } from "@balcao/contract";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { connectionsQuery, useConnectionsLive } from "./connections";

export function needsAttention(statuses: readonly ConnectionStatus[]): boolean {
  return statuses.some((s) => (ALERT_CONNECTION_STATUSES as readonly string[]).includes(s));
}

/** The drawer's connections alert: checked 2 s after load, then kept live by the session socket events. Failures stay silent. */
export function useConnectionsAlert(enabled: boolean): boolean {
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const t = setTimeout(() => setDue(true), CONNECTION_BADGE_DELAY_MS);
    return () => clearTimeout(t);
  }, [enabled]);
  const { data } = useQuery({
    ...connectionsQuery,
    enabled: enabled && due,
    retry: false,
    meta: { silent: true },
  });
  // the Connections screen's entries and live updates (one cache key): a read landing after a status event keeps the
  // newer of the two by updatedAt (shareNewer)
  useConnectionsLive();
  return Array.isArray(data) && needsAttention(data.map((c) => c.status));
}
