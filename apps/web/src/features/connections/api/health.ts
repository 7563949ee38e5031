import type { ConnectionHealth } from "@balcao/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useDisposable } from "../../../lib/hooks";
import { useSocketEvent } from "../../../lib/socket";
import { trailingReads } from "../../../lib/trailing-reads";

/** A number's health (GET /whatsapp/:id/health): its own key, apart from the connections list's ["whatsapp"]. */
export const healthQuery = (id: number) =>
  queryOptions({
    queryKey: ["whatsappHealth", id] as const,
    queryFn: ({ signal }) => http.get<ConnectionHealth>(`/whatsapp/${id}/health`, undefined, signal),
    // today's counts move with the sends; the socket brings changes, this catches the rest
    refetchInterval: 60_000,
  });

export function useConnectionHealth(id: number) {
  return useQuery({ ...healthQuery(id), meta: { silent: true } });
}

/**
 * Live health: `whatsappHealth` replaces the number's entry, and the entry is read again half a
 * second later (`trailingReads`: a read under way, such as the one a session change starts just
 * before a ban pauses the number, would otherwise land after the event and show the number
 * unpaused until the next minute's read). A session change (a drop, a reconnect) reads it again,
 * as do the connection's settings being saved. (Its pause alert is `useConnectionHealthAlerts`,
 * on every screen.)
 */
export function useHealthLive() {
  const queryClient = useQueryClient();
  const reads = useDisposable(() => trailingReads(queryClient));
  useSocketEvent("whatsappHealth", (p) => {
    queryClient.setQueryData(healthQuery(p.whatsappId).queryKey, p.health);
    reads.ask(healthQuery(p.whatsappId).queryKey);
  });
  useSocketEvent("whatsappSession", (p) => {
    void queryClient.invalidateQueries({ queryKey: healthQuery(p.session.id).queryKey });
  });
  useSocketEvent("whatsapp", (p) => {
    void queryClient.invalidateQueries({ queryKey: ["whatsappHealth"] });
    if (p.action === "delete") queryClient.removeQueries({ queryKey: healthQuery(p.whatsappId).queryKey });
  });
}

/** POST /whatsapp/:id/health/resume ('Retomar envios'). */
export function useResumeSends() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<ConnectionHealth>(`/whatsapp/${id}/health/resume`),
    onSuccess: (health) => queryClient.setQueryData(healthQuery(health.whatsappId).queryKey, health),
  });
}
