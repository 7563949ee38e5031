import type {
  DisparoConnection,
  DisparoConnectionUpdateBody,
  DisparoCreateAnswer,
  DisparoOptOut,
  DisparoStats,
  DisparosAnswer,
  DisparosUpdate,
  Tag,
  Whatsapp,
} from "@balcao/contract";
import { type QueryClient, keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { http } from "../../../api/http";
import { shareNewer } from "../../../lib/live-merge";
import { useDisposable } from "../../../lib/hooks";
import { useSocketEvent } from "../../../lib/socket";
import { trailingReads } from "../../../lib/trailing-reads";

/** The screen's filters as sent (§5: from at T00:00:00, to at T23:59:59). */
export interface DisparoFilters {
  status: string;
  from: string;
  to: string;
}

export const EMPTY_STATS: DisparoStats = { cancelado: 0, "a enviar": 0, "com erro": 0, enviado: 0, enviando: 0 };

const keys = {
  all: ["disparos"] as const,
  list: (page: number, limit: number, f: DisparoFilters) => ["disparos", "list", page, limit, f] as const,
  stats: ["disparos", "stats"] as const,
  connections: ["disparos", "connections"] as const,
  optOuts: ["disparos", "opt-outs"] as const,
};

export function useDisparos(page: number, limit: number, f: DisparoFilters) {
  return useQuery({
    queryKey: keys.list(page, limit, f),
    queryFn: ({ signal }) =>
      http.get<DisparosAnswer>(
        "/disparos",
        {
          page,
          limit,
          status: f.status || undefined,
          from: f.from ? `${f.from}T00:00:00` : undefined,
          to: f.to ? `${f.to}T23:59:59` : undefined,
        },
        signal,
      ),
    placeholderData: keepPreviousData,
    // §8: load failures are only logged
    meta: { silent: true },
  });
}

export const statsQuery = queryOptions({
  queryKey: keys.stats,
  queryFn: ({ signal }) => http.get<DisparoStats>("/disparos/stats", undefined, signal),
  meta: { silent: true },
});
export const useDisparoStats = () => useQuery(statsQuery);

export function useDisparoConnections() {
  return useQuery({
    queryKey: keys.connections,
    queryFn: ({ signal }) => http.get<DisparoConnection[]>("/disparos/connections", undefined, signal),
    // the expected finish and 'fora do horário' move with the clock
    refetchInterval: 60_000,
    meta: { silent: true },
  });
}

export function useOptOuts(enabled: boolean) {
  return useQuery({
    queryKey: keys.optOuts,
    queryFn: ({ signal }) => http.get<DisparoOptOut[]>("/disparos/opt-outs", undefined, signal),
    enabled,
  });
}

/** Connections and tags for the 'Novo disparo' dialog. */
export function useDialogChoices(enabled: boolean) {
  const connections = useQuery({
    queryKey: ["whatsapp"] as const,
    queryFn: ({ signal }) => http.get<Whatsapp[]>("/whatsapp/", undefined, signal),
    structuralSharing: shareNewer,
    enabled,
  });
  const tags = useQuery({ queryKey: ["tags"] as const, queryFn: ({ signal }) => http.get<Tag[]>("/tags", undefined, signal), enabled });
  return { connections: connections.data ?? [], tags: tags.data ?? [] };
}

/**
 * `disparos:update` (§4) as the screen takes it: the cards take the counts the event carries at
 * once; the counts, the page and the connections are read again half a second after the first
 * event of a burst (`trailingReads`: the last read always comes after the last event). The counts
 * carry no version: without that read of them, a bulk action's read answered after the sends'
 * events left the cards on the counts from before the sends.
 */
export function disparosLive(queryClient: QueryClient, onAlert?: (whatsappId: number) => void, everyMs = 500) {
  const reads = trailingReads(queryClient, everyMs);
  return {
    update(p: DisparosUpdate) {
      queryClient.setQueryData(keys.stats, p.stats);
      if (p.alert) onAlert?.(p.alert.whatsappId);
      reads.ask(keys.stats, ["disparos", "list"], keys.connections);
    },
    dispose: reads.dispose,
  };
}

export function useDisparosLive(onAlert?: (whatsappId: number) => void) {
  const queryClient = useQueryClient();
  const alert = useRef(onAlert);
  alert.current = onAlert;
  const live = useDisposable(() => disparosLive(queryClient, (id) => alert.current?.(id)));
  useSocketEvent("disparos:update", (p) => live.update(p));
}

export function useReload() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.all });
}

export type BulkAction = "restart" | "cancel" | "delete";

export function useBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: BulkAction) =>
      action === "restart"
        ? http.post<{ changed: number }>("/disparos/restart-errors")
        : action === "cancel"
          ? http.post<{ changed: number }>("/disparos/cancel-pending")
          : http.delete<{ changed: number }>("/disparos"),
    // §8: action failures are only logged
    meta: { silent: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useCreateDisparos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => http.upload<DisparoCreateAnswer>("/disparos", form),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useUpdateDisparoConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: DisparoConnectionUpdateBody }) =>
      http.put<DisparoConnection>(`/disparos/connections/${id}`, body),
    onSuccess: (saved) =>
      queryClient.setQueryData<DisparoConnection[]>(keys.connections, (old) =>
        old?.map((c) => (c.whatsappId === saved.whatsappId ? saved : c)),
      ),
  });
}

export function useClearOptOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: number) => http.delete(`/disparos/opt-outs/${contactId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.optOuts }),
  });
}
