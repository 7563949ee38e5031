import type { ServerToClientEvents, Ticket, TicketUpdateBody, TicketsAnswer } from "@balcao/contract";
import {
  type InfiniteData,
  type QueryClient,
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect } from "react";
import { http } from "../../../api/http";
import { nextPage } from "../../../lib/entity-api";
import { useDisposable } from "../../../lib/hooks";
import { useSocket, useSocketEvent } from "../../../lib/socket";
import { trailingReads } from "../../../lib/trailing-reads";
import { useAuth } from "../../auth";
import { type TicketFilter, belongsTo, byUpdatedDesc, withListFields } from "../lib";
import { openTicket } from "../notifications";

/** Under ["tickets","list"]: the bell's unread query lives under ["tickets","unread"] and is left alone. */
export const ticketListsKey = ["tickets", "list"] as const;
export const ticketKey = (id: number) => ["tickets", "one", id] as const;
export const TICKETS_PAGE_SIZE = 100;

type Pages = InfiniteData<TicketsAnswer, unknown>;

export const ticketsQuery = (f: TicketFilter) =>
  infiniteQueryOptions({
    queryKey: [...ticketListsKey, f],
    queryFn: ({ pageParam, signal }) =>
      http.get<TicketsAnswer>(
        "/tickets",
        {
          searchParam: f.searchParam,
          pageNumber: pageParam,
          rowsPerPage: TICKETS_PAGE_SIZE,
          status: f.status,
          isGroup: f.isGroup,
          showAll: f.showAll,
          userId: f.userId,
          queueIds: f.queueIds.length ? JSON.stringify(f.queueIds) : undefined,
          incidentId: f.incidentId,
        },
        signal,
      ),
    // queue positions and an incident's members move without an event of their own
    refetchInterval: f.status === "pending" || f.incidentId ? 30_000 : false,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

export function useTickets(f: TicketFilter, enabled = true) {
  return useInfiniteQuery({ ...ticketsQuery(f), enabled });
}

export const ticketQuery = (id: number) =>
  queryOptions({
    queryKey: ticketKey(id),
    queryFn: ({ signal }) => http.get<Ticket>(`/tickets/${id}`, undefined, signal),
    meta: { silent: true },
    retry: false,
  });

export function useTicket(id: number) {
  return useQuery(ticketQuery(id));
}

/** Every item of the loaded pages, once each. */
export function flatTickets(d: Pages | undefined): Ticket[] {
  const seen = new Set<number>();
  const out: Ticket[] = [];
  for (const p of d?.pages ?? [])
    for (const t of p.tickets) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      out.push(t);
    }
  return out;
}

function without(d: Pages, id: number): { data: Pages; had: boolean } {
  let had = false;
  const pages = d.pages.map((p) => {
    const kept = p.tickets.filter((t) => t.id !== id);
    if (kept.length !== p.tickets.length) had = true;
    return kept.length === p.tickets.length ? p : { ...p, tickets: kept };
  });
  return { data: { ...d, pages }, had };
}

/**
 * Applies one live ticket to every loaded list: inserted in order where it now belongs, replaced
 * where it stays, dropped where it no longer belongs. Counts follow; nothing is fetched again.
 */
export function applyTicket(qc: QueryClient, live: Ticket, me: number) {
  let known: Ticket | undefined;
  for (const [, data] of qc.getQueriesData<Pages>({ queryKey: ticketListsKey }))
    known ??= data?.pages.flatMap((p) => p.tickets).find((x) => x.id === live.id);
  const ticket = withListFields(live, known);
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: ticketListsKey })) {
    if (!data) continue;
    const f = key[2] as TicketFilter;
    const { data: rest, had } = without(data, ticket.id);
    const fits = belongsTo(ticket, f, me);
    let next: Pages = rest;
    let inserted = false;
    if (fits && (had || !f.searchParam)) {
      // keep server order: newest update first; a ticket older than every loaded row waits for its page
      const pages = rest.pages.map((p) => ({ ...p, tickets: [...p.tickets] }));
      let placed = false;
      for (const p of pages) {
        const i = p.tickets.findIndex((x) => byUpdatedDesc(ticket, x) <= 0);
        if (i >= 0) {
          p.tickets.splice(i, 0, ticket);
          placed = true;
          break;
        }
      }
      const last = pages[pages.length - 1];
      if (!placed && last && !last.hasMore) {
        last.tickets.push(ticket);
        placed = true;
      }
      inserted = placed;
      next = { ...rest, pages };
    }
    const delta = (inserted ? 1 : 0) - (had ? 1 : 0);
    if (delta !== 0 && next.pages[0]) next.pages[0] = { ...next.pages[0], count: Math.max(0, next.pages[0].count + delta) };
    if (next !== data) qc.setQueryData(key, next);
  }
  qc.setQueryData(ticketKey(ticket.id), ticket);
}

/** Whether a ticket is the one open in the chat pane of a visible tab (its new messages are read at once). */
export function beingRead(t: Pick<Ticket, "id">, openId: number, visible: boolean): boolean {
  return visible && openId !== 0 && openId === t.id;
}

export function removeTicket(qc: QueryClient, id: number) {
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: ticketListsKey })) {
    if (!data) continue;
    const { data: next, had } = without(data, id);
    if (!had) continue;
    if (next.pages[0]) next.pages[0] = { ...next.pages[0], count: Math.max(0, next.pages[0].count - 1) };
    qc.setQueryData(key, next);
  }
}

function clearUnread(qc: QueryClient, id: number) {
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: ticketListsKey })) {
    if (!data?.pages.some((p) => p.tickets.some((t) => t.id === id && t.unreadMessages > 0))) continue;
    qc.setQueryData<Pages>(key, {
      ...data,
      pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === id ? { ...t, unreadMessages: 0 } : t)) })),
    });
  }
  qc.setQueryData<Ticket>(ticketKey(id), (t) => (t ? { ...t, unreadMessages: 0 } : t));
}

type TicketEvent = Parameters<ServerToClientEvents["ticket"]>[0];

/**
 * The `ticket` and `appMessage` events applied to every cached list and ticket. A ticket's
 * `updatedAt` is its lists' order, not a version (clearing the unread count or a new preview does
 * not move it), so a read cannot be merged by it: a list or a ticket being read when an event
 * lands may answer what the server held before that event, and would show a ticket in the tab it
 * just left, or its unread badge again, until its next event. Those reads are made again once
 * the burst is over (`trailingReads`); a list not being read is left alone (a busy inbox sends
 * events every second).
 */
export function ticketsLive(qc: QueryClient, me: number, reading: (t: Ticket) => Ticket = (t) => t, everyMs = 500) {
  const reads = trailingReads(qc, everyMs);
  const readAgainIfBeingRead = (id: number) => reads.askIfBeingRead(ticketListsKey, ticketKey(id));
  return {
    ticket(p: TicketEvent) {
      if (p.action === "update") applyTicket(qc, reading(p.ticket), me);
      else if (p.action === "delete") removeTicket(qc, p.ticketId);
      else clearUnread(qc, p.ticketId);
      readAgainIfBeingRead(p.action === "update" ? p.ticket.id : p.ticketId);
    },
    // a new message moves the ticket; an update (a failed send, a resend) may change its preview's mark
    appMessage(t: Ticket) {
      applyTicket(qc, reading(t), me);
      readAgainIfBeingRead(t.id);
    },
    dispose: reads.dispose,
  };
}

/**
 * Joins the ticket rooms (again after every reconnect) and keeps every cached list and ticket
 * current from the `ticket` and `appMessage` events.
 */
export function useTicketsLive() {
  const qc = useQueryClient();
  const socket = useSocket();
  const { user } = useAuth();
  const me = user?.id ?? 0;
  useEffect(() => {
    if (!socket) return;
    const join = () => {
      for (const s of ["open", "pending", "closed"] as const) socket.emit("joinTickets", s);
      socket.emit("joinNotification");
    };
    if (socket.connected) join();
    socket.on("connect", join);
    return () => {
      socket.off("connect", join);
    };
  }, [socket]);
  // the chat the agent is reading never counts up, whichever event brings its ticket: the chat marks what arrives
  // read (POST /messages/:id/read)
  const reading = (t: Ticket): Ticket =>
    beingRead(t, openTicket.id, document.visibilityState === "visible") ? { ...t, unreadMessages: 0 } : t;
  // `reading` reads module state only (the open chat, the tab's visibility); the user decides what is "mine"
  const live = useDisposable(() => ticketsLive(qc, me, reading), [qc, me]);
  useSocketEvent("ticket", (p) => live.ticket(p));
  useSocketEvent("appMessage", (p) => live.appMessage(p.ticket));
}

export function useUpdateTicket() {
  const qc = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TicketUpdateBody }) => http.put<Ticket>(`/tickets/${id}`, body),
    onSuccess: (ticket) => applyTicket(qc, ticket, user?.id ?? 0),
  });
}

export function useCreateTicket() {
  const qc = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: (body: { contactId: number; queueId: number | null; userId: number; status: "open" }) =>
      http.post<Ticket>("/tickets", body),
    onSuccess: (ticket) => applyTicket(qc, ticket, user?.id ?? 0),
  });
}
