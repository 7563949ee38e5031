import type { Ticket, TicketsAnswer } from "@balcao/contract";
import { InfiniteQueryObserver, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { answer, cacheUnderTest } from "../../lib/query-testing";
import { flatTickets, ticketKey, ticketsLive, ticketsQuery } from "./api/tickets";
import type { TicketFilter } from "./lib";

// The ticket lists beside their live events: a list (or a ticket) being read when an event lands may
// answer what the server held before it. Whatever order they land in, the screen ends on the server's
// state after the last event, and a list nobody is reading is not fetched again.

const ME = 7;
const pendingTab: TicketFilter = { status: "pending", showAll: true, searchParam: "", queueIds: [] };

function ticket(id: number, over: Partial<Ticket> = {}): Ticket {
  return {
    id,
    status: "pending",
    lastMessage: "minha internet caiu",
    lastMessageFailed: false,
    unreadMessages: 1,
    isGroup: false,
    transf: false,
    contactId: id,
    contact: { id, name: `Cliente ${id}`, number: `5534999${id}`, lid: null, email: "", profilePicUrl: "", isGroup: false },
    userId: null,
    user: null,
    queueId: null,
    queue: null,
    whatsappId: 1,
    whatsapp: { id: 1, name: "Suporte" },
    tags: [],
    createdAt: "2026-11-28T10:00:00.000Z",
    updatedAt: `2026-11-28T10:${String(id).padStart(2, "0")}:00.000Z`,
    ...over,
  };
}
const page = (tickets: Ticket[]): TicketsAnswer => ({ tickets, count: tickets.length, hasMore: false });
/** Ticket 3 accepted by this agent: it leaves the Pending tab. */
const accepted = () => ticket(3, { status: "open", userId: ME, user: { id: ME, name: "Ana" }, updatedAt: "2026-11-28T11:00:00.000Z" });

const t = cacheUnderTest();

type Held<T> = { answer: (v: T) => void; signal: AbortSignal }[];

/** The Pending tab observing its list; GET /tickets answers each read when the test says. */
function pendingList() {
  const reads: Held<TicketsAnswer> = [];
  const observer = new InfiniteQueryObserver(t.client, {
    ...ticketsQuery(pendingTab),
    refetchInterval: false,
    queryFn: ({ signal }) => new Promise<TicketsAnswer>((answer) => reads.push({ answer, signal })),
  });
  t.stops.push(observer.subscribe(() => undefined));
  const shown = () => flatTickets(t.client.getQueryData(ticketsQuery(pendingTab).queryKey)).map((x) => x.id);
  return { reads, shown };
}

describe("the ticket lists beside a read already under way", () => {
  it("a ticket accepted while the Pending tab's poll is under way leaves the tab once the read after the event lands", async () => {
    const { reads, shown } = pendingList();
    await vi.advanceTimersByTimeAsync(0);
    await answer(reads[0], page([ticket(3), ticket(2)]));
    expect(shown()).toEqual([3, 2]);
    const live = ticketsLive(t.client, ME);
    t.stops.push(live.dispose);
    // the 30 s poll reads the tab; the server answers it slowly
    void t.client.refetchQueries({ queryKey: ticketsQuery(pendingTab).queryKey });
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toHaveLength(2);
    // the agent accepts ticket 3: the event lands first and takes it out of the tab
    live.ticket({ action: "update", ticket: accepted() });
    expect(shown()).toEqual([2]);
    // the poll answers what it read before the accept: the ticket is back for a moment
    await answer(reads[1], page([ticket(3), ticket(2)]));
    expect(shown()).toEqual([3, 2]);
    // half a second after the event the tab is read again, after it
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(3);
    await answer(reads[2], page([ticket(2)]));
    expect(shown()).toEqual([2]);
  });

  it("the tab's first read, under way when the event lands, is read again once it has landed", async () => {
    const { reads, shown } = pendingList();
    const live = ticketsLive(t.client, ME);
    t.stops.push(live.dispose);
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toHaveLength(1);
    // nothing cached yet: the event has no list to change
    live.ticket({ action: "update", ticket: accepted() });
    // the first read is still under way after the wait: reading again now would only join it
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(1);
    await answer(reads[0], page([ticket(3), ticket(2)]));
    expect(shown()).toEqual([3, 2]);
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(2);
    await answer(reads[1], page([ticket(2)]));
    expect(shown()).toEqual([2]);
  });

  it("a chat's ticket read under way when its unread count is cleared shows no unread badge in the end", async () => {
    const reads: Held<Ticket> = [];
    const observer = new QueryObserver(t.client, {
      queryKey: ticketKey(3),
      queryFn: ({ signal }) => new Promise<Ticket>((answer) => reads.push({ answer, signal })),
    });
    t.stops.push(observer.subscribe(() => undefined));
    await vi.advanceTimersByTimeAsync(0);
    await answer(reads[0], ticket(3, { unreadMessages: 2 }));
    const live = ticketsLive(t.client, ME);
    t.stops.push(live.dispose);
    void t.client.refetchQueries({ queryKey: ticketKey(3) });
    await vi.advanceTimersByTimeAsync(0);
    live.ticket({ action: "updateUnread", ticketId: 3 });
    expect(t.client.getQueryData<Ticket>(ticketKey(3))?.unreadMessages).toBe(0);
    await answer(reads[1], ticket(3, { unreadMessages: 2 }));
    expect(t.client.getQueryData<Ticket>(ticketKey(3))?.unreadMessages).toBe(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(3);
    await answer(reads[2], ticket(3, { unreadMessages: 0 }));
    expect(t.client.getQueryData<Ticket>(ticketKey(3))?.unreadMessages).toBe(0);
  });

  it("events while nothing is being read change the cache and fetch nothing", async () => {
    const { reads, shown } = pendingList();
    await vi.advanceTimersByTimeAsync(0);
    await answer(reads[0], page([ticket(3), ticket(2)]));
    const live = ticketsLive(t.client, ME);
    t.stops.push(live.dispose);
    live.appMessage(ticket(4, { updatedAt: "2026-11-28T11:05:00.000Z" }));
    live.ticket({ action: "update", ticket: accepted() });
    live.ticket({ action: "delete", ticketId: 2 });
    expect(shown()).toEqual([4]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(reads).toHaveLength(1);
    expect(shown()).toEqual([4]);
  });
});
