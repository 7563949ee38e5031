import { idText, type Ticket } from "@balcao/contract";
import type { AppContext, SessionUser } from "../context.js";
import { canSee, findTicket, loadTickets } from "../modules/tickets/queries.js";
import type { RealtimeServer, RealtimeSocket, SocketData } from "./server.js";

/**
 * Ticket rooms. A socket hears about tickets only after it joins (joinTickets / joinNotification:
 * the feed of what the user may see; joinChatBox: one ticket, checked against role and queues).
 * Every ticket event goes to the rooms of its queue, its owner, admins and its chat box — and,
 * when it moved, to the rooms it left, so their lists drop it.
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

  const emitTicket = (ticket: Ticket, previous?: { queueId: number | null; userId: number | null }) => {
    const rooms = new Set(roomsOf(ticket));
    if (previous) for (const r of roomsOf({ id: ticket.id, ...previous })) rooms.add(r);
    io.to([...rooms]).emit("ticket", { action: "update", ticket });
  };

  /** Chat boxes of a ticket that moved out of a user's reach stop hearing it. */
  const evictChat = async (ticket: Ticket) => {
    const sockets = await io.in(room.chat(ticket.id)).fetchSockets();
    for (const s of sockets) if (!canSee((s.data as SocketData).user, ticket)) s.leave(room.chat(ticket.id));
  };

  const { events } = ctx;
  events.on("ticket.updated", async ({ ticket, previous }) => {
    emitTicket(ticket, previous);
    if (previous && (previous.queueId !== ticket.queueId || previous.userId !== ticket.userId)) await evictChat(ticket);
  });
  events.on("tickets.changed", async ({ ticketIds }) => {
    for (const ticket of await loadTickets(ctx.db, ticketIds)) {
      io.to(roomsOf(ticket)).emit("ticket", { action: "update", ticket });
      await evictChat(ticket);
    }
  });
  events.on("ticket.unreadCleared", ({ ticket }) => {
    io.to(roomsOf(ticket)).emit("ticket", { action: "updateUnread", ticketId: ticket.id });
  });
  events.on("ticket.deleted", ({ ticket }) => {
    io.to(roomsOf(ticket)).emit("ticket", { action: "delete", ticketId: ticket.id });
  });
  events.on("message.created", ({ message, ticket }) => {
    io.to(roomsOf(ticket)).emit("appMessage", { action: "create", message, ticket, contact: ticket.contact });
  });
  events.on("message.updated", ({ message, ticket }) => {
    io.to(roomsOf(ticket)).emit("appMessage", { action: "update", message, ticket, contact: ticket.contact });
  });

  // a user's queues or profile changed: their feed follows, and chat boxes they lost are left
  events.on("user.saved", async ({ user }) => {
    const next = { id: user.id, profile: user.profile, queueIds: user.queues.map((q) => q.id) };
    const sockets = await io.in(`user:${user.id}`).fetchSockets();
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
