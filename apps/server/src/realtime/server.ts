import { AGENT_SETTING_KEYS, type ClientToServerEvents, type ServerToClientEvents } from "@balcao/contract";
import type { FastifyInstance } from "fastify";
import { Server, type Socket } from "socket.io";
import type { AppContext, SessionUser } from "../context.js";
import { eq } from "drizzle-orm";
import { tickets } from "../db/schema/index.js";
import { bearerToken } from "../http/guards.js";
import { userFromToken } from "../modules/auth/tokens.js";
import { extraOrigins, originAllowed } from "../http/security.js";
import { contactVisible, seesEveryContact } from "../modules/contacts/service.js";

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
 *
 * Several processes: domain events reach every process (`lib/events.ts` `onEverywhere`) and each
 * emits to its own sockets only (`io.local`, `localSockets`), judging each socket's user where it
 * lives. With `REDIS_URL` the socket.io Redis adapter also makes rooms span processes (a room emit
 * or `disconnectSockets` without `local` reaches every process; `fetchSockets` answers them all).
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
  ctx.cluster.socketAdapter?.(io);
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

/** This process's sockets in a room (what an `onEverywhere` listener judges one by one). */
export function localSockets(io: RealtimeServer, room: string): RealtimeSocket[] {
  const out: RealtimeSocket[] = [];
  for (const id of io.sockets.adapter.rooms.get(room) ?? []) {
    const s = io.sockets.sockets.get(id);
    if (s) out.push(s);
  }
  return out;
}

/** Turns the CRUD domain events into the spec's socket events, from one place: on every process, to its own sockets. */
export function bridgeCrudEvents(ctx: AppContext, io: RealtimeServer) {
  const all = () => io.local.to(ROOM.all);
  const admins = () => io.local.to(ROOM.admins);
  const on = ctx.events.onEverywhere.bind(ctx.events);
  // a contact's data reaches only who may touch it (supervisors, admins, agents who see one of its tickets)
  on("contact.saved", async (p) => {
    const sockets = localSockets(io, ROOM.all);
    if (sockets.length === 0) return;
    // the contact's tickets decide only for agents: admins and supervisors see every contact
    const routing = sockets.some((s) => !seesEveryContact((s.data as SocketData).user))
      ? await ctx.db.select({ queueId: tickets.queueId, userId: tickets.userId }).from(tickets).where(eq(tickets.contactId, p.contact.id))
      : [];
    for (const s of sockets) if (contactVisible((s.data as SocketData).user, routing)) s.emit("contact", p);
  });
  on("contact.deleted", (p) => all().emit("contact", { action: "delete", contactId: p.contactId }));
  on("contact.deletedAll", () => all().emit("contact", { action: "deleteAll" }));
  on("contact.imported", (p) => all().emit("contact", { action: "import", created: p.created }));
  on("user.saved", (p) => all().emit("user", p));
  on("user.deleted", (p) => {
    all().emit("user", { action: "delete", userId: p.userId });
    // the deleted user's open sockets stop hearing anything (each process closes its own)
    io.local.in(ROOM.user(p.userId)).disconnectSockets(true);
  });
  // logout, password or profile change: the user's sockets close on every process (a new sign-in opens new ones)
  on("user.sessionsEnded", (p) => io.local.in(ROOM.user(p.userId)).disconnectSockets(true));
  on("queue.saved", (p) => all().emit("queue", p));
  on("incident.changed", (p) => all().emit("incident", p));
  on("queue.deleted", (p) => all().emit("queue", { action: "delete", queueId: p.queueId }));
  on("quickAnswer.saved", (p) => all().emit("quickAnswer", p));
  on("chatbot.changed", (p) => all().emit("chatbot:update", p));
  on("audiobot.changed", (p) => all().emit("audiobot:update", p));
  on("quickAnswer.deleted", (p) => all().emit("quickAnswer", { action: "delete", quickAnswerId: p.quickAnswerId }));
  // agents hear only the settings their screens read; the rest goes to admins
  on("setting.updated", (p) =>
    ((AGENT_SETTING_KEYS as readonly string[]).includes(p.setting.key) ? all() : admins()).emit("settings", {
      action: "update",
      setting: { key: p.setting.key, value: p.setting.value, ...(p.setting.hasValue !== undefined && { hasValue: p.setting.hasValue }) },
    }),
  );
  on("whatsapp.saved", (p) => admins().emit("whatsapp", { action: "update", whatsapp: p.whatsapp }));
  on("whatsapp.deleted", (p) => admins().emit("whatsapp", { action: "delete", whatsappId: p.whatsappId }));
  // the path to the other processes came back after an outage: what they published meanwhile never
  // reached these sockets; each screen reads again (the web does on "resync" what it does on a reconnect)
  ctx.events.onResume(() => {
    ctx.log.info("event path back: screens told to read again");
    io.local.emit("resync", {});
  });
  on("whatsapp.session", ({ previous: _previous, reason: _reason, ...session }) =>
    admins().emit("whatsappSession", { action: "update", session }),
  );
}

/** Users whose profile or queues changed: their sockets (on every process, each its own) refresh the data rooms depend on. */
export function refreshSocketUsers(ctx: AppContext, io: RealtimeServer) {
  ctx.events.onEverywhere("user.saved", ({ user }) => {
    for (const s of localSockets(io, ROOM.user(user.id))) {
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

/** Users with at least one live socket in this process. */
export function localUserIds(io: RealtimeServer): number[] {
  const ids = new Set<number>();
  for (const s of io.of("/").sockets.values()) {
    const user = (s.data as Partial<SocketData>).user;
    if (user) ids.add(user.id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** Presence entries last this long unless renewed (a dead process's users drop out after it). */
const PRESENCE_TTL_MS = 30_000;
const PRESENCE_RENEW_MS = 10_000;

/**
 * The dashboard's "agents online" across processes: each process writes its users with a live
 * socket to the shared store (`lib/cluster/`) when they change and every few seconds, and reads
 * everyone's. With one process (memory store) it reads its own sockets, as before.
 */
export function trackPresence(ctx: AppContext, io: RealtimeServer): { onlineUserIds(): Promise<number[]>; stop(): Promise<void> } {
  const { store, processId } = ctx.cluster;
  if (store.kind === "memory") return { onlineUserIds: async () => localUserIds(io), stop: async () => {} };
  let written = "";
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  const write = (force: boolean) => {
    writing = writing.then(async () => {
      if (stopped) return;
      const ids = localUserIds(io);
      const text = JSON.stringify(ids);
      if (!force && text === written) return;
      written = text;
      await store.setPresence(processId, ids, PRESENCE_TTL_MS).catch((err) => ctx.log.warn({ err }, "presence: writing failed"));
    });
    return writing;
  };
  io.on("connection", (socket) => {
    void write(false);
    socket.on("disconnect", () => void write(false));
  });
  const renew = setInterval(() => void write(true), PRESENCE_RENEW_MS);
  renew.unref();
  return {
    async onlineUserIds() {
      await write(false);
      const all = await store.presentUsers();
      return [...new Set([...all, ...localUserIds(io)])];
    },
    async stop() {
      clearInterval(renew);
      await writing;
      stopped = true;
      await store.setPresence(processId, [], PRESENCE_TTL_MS).catch(() => undefined);
    },
  };
}
