import type { Whatsapp, WhatsappBody, WhatsappTokenAnswer, WhatsappUpdateBody } from "@balcao/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { shareNewer } from "../../../lib/live-merge";
import { useSocketEvent } from "../../../lib/socket";

/**
 * The same key as the drawer's connections alert (./connections-alert.ts): both
 * read GET /whatsapp/, so the screen and the badge share one list and one set of live updates.
 */
export const connectionsQuery = queryOptions({
  queryKey: ["whatsapp"] as const,
  queryFn: ({ signal }) => http.get<Whatsapp[]>("/whatsapp/", undefined, signal),
  // a read that lands after a status event does not put the old status back
  structuralSharing: shareNewer,
});

const byId = (list: Whatsapp[]) => [...list].sort((a, b) => a.id - b.id);

/** The connections, oldest first (the server's order; a live update may append out of order). */
export function useConnections() {
  return useQuery({ ...connectionsQuery, select: byId });
}

type SessionUpdate = Pick<Whatsapp, "id" | "status" | "qrcode" | "retries" | "updatedAt"> & { number?: string };

/** A session's status, QR code, retries and linked number applied to the cached list. */
export function applySession(list: Whatsapp[] | undefined, s: SessionUpdate): Whatsapp[] | undefined {
  return list?.map((w) =>
    w.id === s.id
      ? {
          ...w,
          status: s.status,
          qrcode: s.qrcode,
          retries: s.retries,
          updatedAt: s.updatedAt,
          ...(s.number !== undefined && { number: s.number }),
        }
      : w,
  );
}

/** A saved connection replaces its entry (or joins the list); a deleted one leaves it. */
export function applyWhatsapp(
  list: Whatsapp[] | undefined,
  p: { action: "update"; whatsapp: Whatsapp } | { action: "delete"; whatsappId: number },
) {
  if (!list) return list;
  if (p.action === "delete") return list.filter((w) => w.id !== p.whatsappId);
  return list.some((w) => w.id === p.whatsapp.id) ? list.map((w) => (w.id === p.whatsapp.id ? p.whatsapp : w)) : [...list, p.whatsapp];
}

/**
 * Live status: `whatsappSession` and `whatsapp` socket events edit the shared cache (so the drawer
 * badge follows too); what a connect may have missed is read again by the socket's provider.
 */
export function useConnectionsLive() {
  const queryClient = useQueryClient();
  useSocketEvent("whatsappSession", (p) => {
    queryClient.setQueryData<Whatsapp[]>(connectionsQuery.queryKey, (old) => applySession(old, p.session));
  });
  useSocketEvent("whatsapp", (p) => {
    queryClient.setQueryData<Whatsapp[]>(connectionsQuery.queryKey, (old) => applyWhatsapp(old, p));
  });
}

/** Whether this server runs the simulator (its API answers only when ENABLE_SIMULATOR is on). */
export function useSimulatorAvailable() {
  const q = useQuery({
    queryKey: ["simulator", "available"],
    queryFn: async () => {
      try {
        await http.get("/simulator/api/connections");
        return true;
      } catch {
        return false;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    meta: { silent: true },
  });
  return q.data === true;
}

export interface TypebotInput {
  enabled: boolean;
  baseUrl: string;
  slug: string;
  /** Sent only when filled: blank keeps the stored key. */
  apiKey?: string;
  expiryMinutes?: number;
  endKeyword?: string;
  unknownMessage?: string;
  delayMs?: number;
}

/** POST /whatsapp or PUT /whatsapp/:id; answers the saved connection. */
export function useSaveConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: WhatsappBody | WhatsappUpdateBody }) =>
      id ? http.put<Whatsapp>(`/whatsapp/${id}`, body) : http.post<Whatsapp>("/whatsapp", body as WhatsappBody),
    meta: { silent: true },
    onSuccess: (saved) => {
      queryClient.setQueryData<Whatsapp[]>(connectionsQuery.queryKey, (old) => applyWhatsapp(old, { action: "update", whatsapp: saved }));
      // another connection may have lost the default flag: read the list again
      return queryClient.invalidateQueries({ queryKey: connectionsQuery.queryKey });
    },
  });
}

/** POST /whatsapp/:id/token ('Gerar novo token'): the new token, answered once; the list only learns hasToken. */
export function useRegenerateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<WhatsappTokenAnswer>(`/whatsapp/${id}/token`),
    meta: { silent: true },
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Whatsapp[]>(connectionsQuery.queryKey, (old) =>
        old?.map((w) => (w.id === id ? { ...w, hasToken: true } : w)),
      );
    },
  });
}

/** PUT /typebot/settings/:id; the API key only when filled. */
export function useSaveTypebot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, typebot: { apiKey, ...rest } }: { id: number; typebot: TypebotInput }) =>
      http.put<Whatsapp["typebot"]>(`/typebot/settings/${id}`, apiKey ? { ...rest, apiKey } : rest),
    meta: { silent: true },
    onSuccess: (typebot, { id }) => {
      queryClient.setQueryData<Whatsapp[]>(connectionsQuery.queryKey, (old) => old?.map((w) => (w.id === id ? { ...w, typebot } : w)));
    },
  });
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`/whatsapp/${id}`),
    onSuccess: (_r, id) => {
      queryClient.setQueryData<Whatsapp[]>(connectionsQuery.queryKey, (old) => applyWhatsapp(old, { action: "delete", whatsappId: id }));
      return queryClient.invalidateQueries({ queryKey: connectionsQuery.queryKey });
    },
  });
}

export type SessionAction = "start" | "newQr" | "disconnect";

/**
 * POST /whatsappsession/:id retries, PUT asks for a new QR code, DELETE disconnects. The new status
 * arrives by the `whatsappSession` socket event.
 */
export function useSessionAction() {
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: SessionAction }) => {
      const path = `/whatsappsession/${id}`;
      if (action === "start") return http.post(path);
      if (action === "newQr") return http.put(path);
      return http.delete(path);
    },
  });
}
