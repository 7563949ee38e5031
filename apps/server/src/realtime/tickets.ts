import { idText, type Ticket } from "@balcao/contract";
import type { AppContext, SessionUser } from "../context.js";
import { canSee, findTicket, loadTickets } from "../modules/tickets/queries.js";
import type { RealtimeServer, RealtimeSocket, SocketData } from "./server.js";

/**
 * Ticket rooms. A socket hears about tickets only after it joins (joinTickets / joinNotification:
 * the feed of what the user may see; joinChatBox: one ticket, checked against role and queues).
 * A ticket event reaches only the sockets allowed to see the ticket in its new state (its queue's,
 * its owner's, admins' and its chat box's, each checked against the user); sockets that could see
 * it before and no longer can get a removal, so their lists drop it and their chat box closes.
 */

const FEED_PREFIX = "tickets:";
const room = {
  all: "tickets:all",
  noQueue: "tickets:noqueue",
  queue: (id: number) => `tickets:queue:${id}`,
  user: (id: number) => `tickets:user:${id}`,
  chat: (id: number) => `ticket:${id}`,
};

type Routing = { id: number; queueId: number | null; userId: number | null };

function roomsOf(t: Routing): string[] {
  const rooms = [room.all, t.queueId !== null ? room.queue(t.queueId) : room.noQueue, room.chat(t.id)];
  if (t.userId !== null) rooms.push(room.user(t.userId));
  return rooms;
}

/** The feed rooms a user is entitled to: everything for admins; otherwise their queues, queue-less tickets and their own. */
export function feedRooms(user: Pick<SessionUser, "id" | "profile" | "queueIds">): string[] {
  if (user.profile === "admin") return [room.all];
  return [room.noQueue, room.user(user.id), ...user.queueIds.map(room.queue)];
}

export function registerTicketRealtime(ctx: AppContext, io: RealtimeServer) {
  io.on("connection", (socket: RealtimeSocket) => {
    const joinFeed = () => socket.join(feedRooms(socket.data.user));
    socket.on("joinTickets", (_status, ack) => {
      joinFeed();
      if (typeof ack === "function") ack({ ok: true });
    });
    socket.on("joinNotification", (ack) => {
      joinFeed();
      if (typeof ack === "function") ack({ ok: true });
    });
    socket.on("joinChatBox", async (ticketId, ack) => {
      const reply = (r: { ok: boolean; error?: string }) => typeof ack === "function" && ack(r);
      try {
        const parsed = idText.safeParse(ticketId);
        const id = parsed.success ? parsed.data : 0;
        const ticket = parsed.success ? await findTicket(ctx.db, id) : undefined;
        if (!ticket) return reply({ ok: false, error: "ERR_NO_TICKET_FOUND" });
        if (!canSee(socket.data.user, ticket)) return reply({ ok: false, error: "ERR_NO_PERMISSION" });
        socket.join(room.chat(id));
        reply({ ok: true });
      } catch (err) {
        ctx.log.error({ err }, "joinChatBox failed");
        reply({ ok: false, error: "ERR_INTERNAL" });
      }
    });
    socket.on("leaveChatBox", (ticketId) => {
      socket.leave(room.chat(Number(ticketId)));
    });
  });

  /**
   * This process's sockets in any of these rooms. Ticket events run on every process
   * (`onEverywhere`): each judges and tells its own sockets, whose user and rooms live here.
   */
  const members = (rooms: string[]): RealtimeSocket[] => {
    const ids = new Set<string>();
    for (const r of rooms) for (const id of io.sockets.adapter.rooms.get(r) ?? []) ids.add(id);
    const out: RealtimeSocket[] = [];
    for (const id of ids) {
      const s = io.sockets.sockets.get(id);
      if (s) out.push(s);
    }
    return out;
  };
  const inAny = (s: RealtimeSocket, rooms: string[]) => rooms.some((r) => s.rooms.has(r));
  /** The sockets that hear about this ticket now: in its rooms and allowed to see it (a chat box may be stale). */
  const audience = (ticket: Routing): RealtimeSocket[] => {
    const rooms = roomsOf(ticket);
    return members(rooms).filter((s) => canSee((s.data as SocketData).user, ticket));
  };

  /**
   * A ticket changed: the sockets allowed to see it now get the update; those that could see it
   * before and cannot now get a removal (a `delete` marked `moved`) and leave its chat box; nobody
   * else hears of it. A ticket created and routed in one step (`fresh`) had no earlier audience.
   */
  const announce = (ticket: Ticket, previous?: Routing, fresh = false) => {
    const nextRooms = roomsOf(ticket);
    const prevRooms = previous && !fresh ? roomsOf(previous) : [];
    for (const s of members([...nextRooms, ...prevRooms])) {
      const user = (s.data as SocketData).user;
      if (canSee(user, ticket) && inAny(s, nextRooms)) {
        s.emit("ticket", { action: "update", ticket });
        continue;
      }
      const hadChat = s.rooms.has(room.chat(ticket.id));
      const sawBefore = hadChat || (inAny(s, prevRooms) && !!previous && canSee(user, previous));
      s.leave(room.chat(ticket.id));
      if (sawBefore) s.emit("ticket", { action: "delete", ticketId: ticket.id, moved: true });
    }
  };

  const on = ctx.events.onEverywhere.bind(ctx.events);
  on("ticket.updated", ({ ticket, previous, created }) => {
    // a ticket created and routed in the same transaction: its queue-less moment was never announced
    const fresh = created === true || (!!previous && ticket.createdAt === ticket.updatedAt);
    announce(ticket, previous && { id: ticket.id, queueId: previous.queueId, userId: previous.userId }, fresh);
  });
  on("tickets.changed", async ({ ticketIds }) => {
    for (const ticket of await loadTickets(ctx.db, ticketIds)) announce(ticket);
  });
  on("ticket.unreadCleared", ({ ticket }) => {
    for (const s of audience(ticket)) s.emit("ticket", { action: "updateUnread", ticketId: ticket.id });
  });
  on("ticket.deleted", ({ ticket }) => {
    for (const s of audience(ticket)) s.emit("ticket", { action: "delete", ticketId: ticket.id });
  });
  on("message.created", ({ message, ticket }) => {
    for (const s of audience(ticket)) s.emit("appMessage", { action: "create", message, ticket, contact: ticket.contact });
  });
  // someone types in a ticket: the others watching it see it (an agent never hears their own typing)
  on("ticket.typing", ({ ticketId, typing, userId, name }) => {
    const to = io.local.to(room.chat(ticketId));
    (userId !== undefined ? to.except(`user:${userId}`) : to).emit("typing", { ticketId, typing, ...(name && { name }) });
  });
  on("message.updated", ({ message, ticket }) => {
    for (const s of audience(ticket)) s.emit("appMessage", { action: "update", message, ticket, contact: ticket.contact });
  });

  // a user's queues or profile changed: their feed follows, and chat boxes they lost are left
  on("user.saved", async ({ user }) => {
    const next = { id: user.id, profile: user.profile, queueIds: user.queues.map((q) => q.id) };
    const sockets = await io.local.in(`user:${user.id}`).fetchSockets();
    for (const s of sockets) {
      const rooms = [...s.rooms];
      if (rooms.some((r) => r.startsWith(FEED_PREFIX))) {
        for (const r of rooms) if (r.startsWith(FEED_PREFIX)) s.leave(r);
        s.join(feedRooms(next));
      }
      for (const r of rooms) {
        if (!r.startsWith("ticket:")) continue;
        const t = await findTicket(ctx.db, Number(r.slice("ticket:".length)));
        if (!t || !canSee(next, t)) s.leave(r);
      }
    }
  });
}
