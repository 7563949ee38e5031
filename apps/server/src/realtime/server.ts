import { AGENT_SETTING_KEYS, type ClientToServerEvents, type ServerToClientEvents } from "@balcao/contract";
import type { FastifyInstance } from "fastify";
import { Server, type Socket } from "socket.io";
import type { AppContext, SessionUser } from "../context.js";
import { eq } from "drizzle-orm";
import { tickets } from "../db/schema/index.js";
import { bearerToken } from "../http/guards.js";
import { userFromToken } from "../modules/auth/tokens.js";
import { extraOrigins, originAllowed } from "../http/security.js";
import { contactVisible } from "../modules/contacts/service.js";

export interface SocketData {
  user: SessionUser;
}
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Rooms every socket is put in on connect. */
export const ROOM = {
  /** every signed-in socket: CRUD events of contacts, users, queues, quick answers, settings */
  all: "all",
  /** admins: connection events (they carry the API token) */
  admins: "profile:admin",
  user: (id: number) => `user:${id}`,
} as const;

/**
 * socket.io on the HTTP server of the app. A socket must present a valid access token
 * (`auth.token`, or the `token` query the original client sends); anonymous sockets are refused.
 */
export function createRealtime(ctx: AppContext, app: FastifyInstance): RealtimeServer {
  // browsers may open a socket from the app's own origin or a CORS_ORIGINS one only (websockets skip CORS: checked here)
  const extra = extraOrigins(ctx.config);
  const io: RealtimeServer = new Server(app.server, {
    path: "/socket.io",
    serveClient: false,
    cors: { origin: [...extra], credentials: true },
    allowRequest: (req, done) => done(null, originAllowed(req.headers.origin, req, ctx.config, extra)),
  });
  io.use(async (socket, next) => {
    try {
      const raw =
        (socket.handshake.auth as { token?: unknown })?.token ??
        socket.handshake.query?.token ??
        bearerToken(socket.handshake.headers.authorization);
      const token = typeof raw === "string" ? raw.replace(/^Bearer\s+/i, "") : undefined;
      const user = token ? await userFromToken(ctx, token) : null;
      if (!user) return next(new Error("ERR_SESSION_EXPIRED"));
      socket.data.user = user;
      next();
    } catch (err) {
      ctx.log.error({ err }, "socket authentication failed");
      next(new Error("ERR_INTERNAL"));
    }
  });
  io.on("connection", (socket) => {
    const user = socket.data.user;
    socket.join([ROOM.all, ROOM.user(user.id), `profile:${user.profile}`]);
  });
  return io;
}

/** Turns the CRUD domain events into the spec's socket events, from one place. */
export function bridgeCrudEvents(ctx: AppContext, io: RealtimeServer) {
  const all = () => io.to(ROOM.all);
  const { events } = ctx;
  // a contact's data reaches only who may touch it (supervisors, admins, agents who see one of its tickets)
  events.on("contact.saved", async (p) => {
    const routing = await ctx.db
      .select({ queueId: tickets.queueId, userId: tickets.userId })
      .from(tickets)
      .where(eq(tickets.contactId, p.contact.id));
    for (const id of io.sockets.adapter.rooms.get(ROOM.all) ?? []) {
      const s = io.sockets.sockets.get(id);
      if (s && contactVisible((s.data as SocketData).user, routing)) s.emit("contact", p);
    }
  });
  events.on("contact.deleted", (p) => all().emit("contact", { action: "delete", contactId: p.contactId }));
  events.on("contact.deletedAll", () => all().emit("contact", { action: "deleteAll" }));
  events.on("contact.imported", (p) => all().emit("contact", { action: "import", created: p.created }));
  events.on("user.saved", (p) => all().emit("user", p));
  events.on("user.deleted", (p) => {
    all().emit("user", { action: "delete", userId: p.userId });
    // the deleted user's open sockets stop hearing anything
    io.in(ROOM.user(p.userId)).disconnectSockets(true);
  });
  // logout, password or profile change: the user's sockets close (a new sign-in opens new ones)
  events.on("user.sessionsEnded", (p) => io.in(ROOM.user(p.userId)).disconnectSockets(true));
  events.on("queue.saved", (p) => all().emit("queue", p));
  events.on("incident.changed", (p) => all().emit("incident", p));
  events.on("queue.deleted", (p) => all().emit("queue", { action: "delete", queueId: p.queueId }));
  events.on("quickAnswer.saved", (p) => all().emit("quickAnswer", p));
  events.on("chatbot.changed", (p) => all().emit("chatbot:update", p));
  events.on("audiobot.changed", (p) => all().emit("audiobot:update", p));
  events.on("quickAnswer.deleted", (p) => all().emit("quickAnswer", { action: "delete", quickAnswerId: p.quickAnswerId }));
  // agents hear only the settings their screens read; the rest goes to admins
  events.on("setting.updated", (p) =>
    ((AGENT_SETTING_KEYS as readonly string[]).includes(p.setting.key) ? all() : io.to(ROOM.admins)).emit("settings", {
      action: "update",
      setting: { key: p.setting.key, value: p.setting.value, ...(p.setting.hasValue !== undefined && { hasValue: p.setting.hasValue }) },
    }),
  );
  events.on("whatsapp.saved", (p) => io.to(ROOM.admins).emit("whatsapp", { action: "update", whatsapp: p.whatsapp }));
  events.on("whatsapp.deleted", (p) => io.to(ROOM.admins).emit("whatsapp", { action: "delete", whatsappId: p.whatsappId }));
  events.on("whatsapp.session", (p) => io.to(ROOM.admins).emit("whatsappSession", { action: "update", session: p }));
}

/** Users whose profile or queues changed: their sockets refresh the data rooms depend on. */
export function refreshSocketUsers(ctx: AppContext, io: RealtimeServer) {
  ctx.events.on("user.saved", async ({ user }) => {
    const sockets = await io.in(ROOM.user(user.id)).fetchSockets();
    for (const s of sockets) {
      const data = s.data as SocketData;
      const wasProfile = data.user.profile;
      data.user = { ...data.user, name: user.name, email: user.email, profile: user.profile, queueIds: user.queues.map((q) => q.id) };
      if (wasProfile !== user.profile) {
        s.leave(`profile:${wasProfile}`);
        s.join(`profile:${user.profile}`);
      }
    }
  });
}

/** Users with at least one live socket in this process (the dashboard's "agents online"). */
export function onlineUserIds(io: RealtimeServer): number[] {
  const ids = new Set<number>();
  for (const s of io.of("/").sockets.values()) {
    const user = (s.data as Partial<SocketData>).user;
    if (user) ids.add(user.id);
  }
  return [...ids];
}
