import { type ChannelType, cleanDeep } from "@balcao/contract";
import type { AuthStateStore, ChannelDeps, ChannelEvent, ChannelFactory, ChannelSession, EngineTraits } from "./channel.js";
import type { RemoteSessions, SessionOp } from "../lib/cluster/remote.js";

/**
 * The live sessions of this process, one per connection. It creates a session with the factory of
 * the connection's type and is the channel layer's door to the product: every event a session
 * emits is first written to the inbound journal (the session's `emit` resolves then), and only
 * then handed to the handler (the inbound pipeline), events of one chat in order, chats in
 * parallel. Events the journal holds but nobody finished (a crash, a failing handler) are handed
 * over again when the connection's session starts. It knows nothing of tickets or HTTP.
 */

export interface JournaledEvent {
  id: number;
  whatsappId: number;
  event: ChannelEvent;
}

/** Where inbound events are kept until they are handled (implemented over the database). */
export interface InboundJournal {
  /** Writes the event; answers its journal id. */
  append(whatsappId: number, chat: string, event: ChannelEvent): Promise<number>;
  /** The connection's events not handled yet, oldest first. */
  pending(whatsappId: number): Promise<JournaledEvent[]>;
  /** Marks an event handled (for handlers that have no transaction of their own to do it in). */
  done(id: number): Promise<void>;
  /** A handler failed: counts the attempt; answers whether to try again or give up (the row is kept as failed). */
  failed(id: number, error: unknown): Promise<"retry" | "failed">;
}

export interface ManagerDeps {
  log: ChannelDeps["log"];
  authState: (whatsappId: number) => AuthStateStore;
  getMessage: (whatsappId: number, id: string) => Promise<{ body: string } | undefined>;
  journal: InboundJournal;
  /** Delay before handling a failed event again (attempt 1, 2, ...). */
  retryDelayMs?: (attempt: number) => number;
}

/**
 * Handles one event. Journaled events carry their journal id: the handler marks it done in the
 * same transaction as its effects (or through `InboundJournal.done` when it writes nothing).
 */
export type ChannelEventHandler = (whatsappId: number, event: ChannelEvent, journalId?: number) => Promise<void>;

export interface ConnectionRef {
  id: number;
  name: string;
  type: ChannelType;
}

/** Events that are kept in the journal; status changes and typing are state, not history, and reactions are not stored. */
export function isJournaled(event: ChannelEvent): boolean {
  return event.type !== "status" && event.type !== "reaction" && event.type !== "typing";
}

/** What any process may ask of a connection's session; the process that owns it answers. */
export type SessionCalls = Pick<
  ChannelSession,
  "checkNumber" | "profilePictureUrl" | "markRead" | "setTyping" | "deleteForEveryone" | "rejectCall" | "contacts"
>;
export const SESSION_CALLS = [
  "checkNumber",
  "profilePictureUrl",
  "markRead",
  "setTyping",
  "deleteForEveryone",
  "rejectCall",
  "contacts",
] as const satisfies readonly (keyof SessionCalls)[];

/**
 * Sessions of other processes (several server processes on one database): each connection's
 * session runs in the one process that owns it; the others reach it through this.
 */
export type { RemoteSessions, SessionOp } from "../lib/cluster/remote.js";

export class ChannelManager {
  private readonly factories = new Map<ChannelType, ChannelFactory>();
  private readonly traits = new Map<ChannelType, EngineTraits>();
  private readonly sessions = new Map<number, ChannelSession>();
  /** Tail of the work queue of each chat ("<whatsappId>:<chat>"), to keep its events in order. */
  private readonly tails = new Map<string, Promise<void>>();
  /** journal ids queued or running in this process (a replay skips them) */
  private readonly queued = new Set<number>();
  private readonly statusListeners = new Set<(whatsappId: number, event: Extract<ChannelEvent, { type: "status" }>) => void>();
  private inflight = 0;
  private idleWaiters: (() => void)[] = [];
  private handler: ChannelEventHandler = async () => {};
  private remote?: RemoteSessions;

  constructor(private readonly deps: ManagerDeps) {}

  /** Several processes: sessions this process does not own are reached through `remote`. */
  setRemote(remote: RemoteSessions): void {
    this.remote = remote;
  }

  register(type: ChannelType, factory: ChannelFactory, traits: EngineTraits = {}): void {
    this.factories.set(type, factory);
    this.traits.set(type, traits);
  }

  /** What the engine of `type` declared of itself (its pace); empty for an engine that declared nothing. */
  traitsOf(type: ChannelType): EngineTraits {
    return this.traits.get(type) ?? {};
  }

  hasFactory(type: ChannelType): boolean {
    return this.factories.has(type);
  }

  setHandler(handler: ChannelEventHandler): void {
    this.handler = handler;
  }

  /** Hears every status change of every session (the outbox sender resumes a connection on CONNECTED). */
  onStatus(listener: (whatsappId: number, event: Extract<ChannelEvent, { type: "status" }>) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** The session of this process (the live one, when this process owns the connection). */
  get(whatsappId: number): ChannelSession | undefined {
    return this.sessions.get(whatsappId);
  }

  /** The ids of the connections with a session in this process. */
  ids(): number[] {
    return [...this.sessions.keys()];
  }

  /**
   * The connection's session wherever it runs: this process's, or (several processes) a stand-in
   * that asks the process owning it. Undefined when this process owns it and has no session.
   */
  session(whatsappId: number): SessionCalls | undefined {
    const local = this.sessions.get(whatsappId);
    if (local) return local;
    const remote = this.remote;
    if (!remote || remote.owns(whatsappId)) return undefined;
    const call =
      <T>(method: (typeof SESSION_CALLS)[number]) =>
      (...args: unknown[]) =>
        remote.call(whatsappId, method, args) as Promise<T>;
    return {
      checkNumber: call("checkNumber"),
      profilePictureUrl: call("profilePictureUrl"),
      markRead: call("markRead"),
      setTyping: call("setTyping"),
      deleteForEveryone: call("deleteForEveryone"),
      rejectCall: call("rejectCall"),
      contacts: call("contacts"),
    };
  }

  /** See RemoteSessions.atOwner; always false with one process. */
  atOwner(whatsappId: number, op: SessionOp): Promise<boolean> {
    return this.remote ? this.remote.atOwner(whatsappId, op) : Promise.resolve(false);
  }

  /** The connection's session is connected, in this process or (several processes) in its owner. */
  async isConnected(whatsappId: number): Promise<boolean> {
    const local = this.sessions.get(whatsappId);
    if (local) return local.connected;
    if (!this.remote || this.remote.owns(whatsappId)) return false;
    return this.remote.connectedElsewhere(whatsappId);
  }

  /**
   * Starts (or restarts) the session of a connection: the connection's unfinished journal events
   * are queued first, so they keep their place before anything the new session receives. Answers
   * undefined when its type has no driver here.
   */
  async start(conn: ConnectionRef): Promise<ChannelSession | undefined> {
    await this.stop(conn.id);
    const factory = this.factories.get(conn.type);
    if (!factory) {
      this.deps.log.warn({ whatsappId: conn.id, type: conn.type }, "no channel driver for this connection type");
      return undefined;
    }
    const session = factory({
      whatsappId: conn.id,
      name: conn.name,
      emit: (event) => this.receive(conn.id, event),
      authState: this.deps.authState(conn.id),
      getMessage: (id) => this.deps.getMessage(conn.id, id),
      log: this.deps.log,
    });
    this.sessions.set(conn.id, session);
    await this.replay(conn.id);
    await session.start();
    return session;
  }

  async stop(whatsappId: number): Promise<void> {
    const session = this.sessions.get(whatsappId);
    if (!session) return;
    this.sessions.delete(whatsappId);
    await session.stop().catch((err) => this.deps.log.warn({ err, whatsappId }, "stopping a channel session failed"));
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.stop(id)));
  }

  /** Resolves when every event received so far has been handled (tests, benchmarks, shutdown). */
  idle(): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * What a session's `emit` does: journals the event (resolving then), and queues it for the
   * handler. Status changes are not journaled: they are applied in order, and heard by listeners.
   */
  async receive(whatsappId: number, raw: ChannelEvent): Promise<void> {
    // a customer's text or name with a NUL is kept, without the NUL (PostgreSQL refuses it)
    const event = cleanDeep(raw);
    if (event.type === "status") {
      for (const l of this.statusListeners) {
        try {
          l(whatsappId, event);
        } catch (err) {
          this.deps.log.error({ err, whatsappId }, "status listener failed");
        }
      }
    }
    if (!isJournaled(event)) {
      void this.dispatch(whatsappId, event);
      return;
    }
    // the event takes its place in its chat's queue now; it is handled once journaled
    const appended = this.append(whatsappId, event);
    void this.dispatch(whatsappId, event, appended);
    await appended;
  }

  /** Writes to the journal; a database hiccup is retried a few times before the event is refused. */
  private async append(whatsappId: number, event: ChannelEvent): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.journal.append(whatsappId, chatKey(event) ?? event.type, event);
      } catch (err) {
        if (attempt >= 4) throw err;
        this.deps.log.warn({ err, whatsappId, attempt }, "journaling an inbound event failed; trying again");
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
  }

  /** Queues the connection's unfinished journal events (start-up after a crash, a session restart). */
  async replay(whatsappId: number): Promise<number> {
    const pending = await this.deps.journal.pending(whatsappId);
    let n = 0;
    for (const p of pending) {
      if (this.queued.has(p.id)) continue;
      n++;
      void this.dispatch(whatsappId, this.withMediaLoader(whatsappId, p.event), p.id);
    }
    if (n) this.deps.log.info({ whatsappId, events: n }, "inbound events from the journal handed over again");
    return n;
  }

  /** An event read back from the journal has its media's ref, not its bytes: the session downloads them again. */
  private withMediaLoader(whatsappId: number, event: ChannelEvent): ChannelEvent {
    if (event.type !== "message" || !event.message.media || event.message.media.data) return event;
    const ref = event.message.media.ref;
    const data = () => {
      const session = this.sessions.get(whatsappId);
      if (!session || ref === undefined) return Promise.reject(new Error("media no longer available"));
      return session.downloadMedia(ref);
    };
    return { ...event, message: { ...event.message, media: { ...event.message.media, data } } };
  }

  /**
   * Hands an event to the handler, in order per chat. A failing journaled event is tried again
   * after a delay (its chat waits, to keep the order) until the journal gives up on it; a failing
   * status event is logged.
   */
  dispatch(whatsappId: number, event: ChannelEvent, journaled?: number | Promise<number>): Promise<void> {
    const key = orderKey(whatsappId, event);
    this.inflight++;
    let journalId: number | undefined = typeof journaled === "number" ? journaled : undefined;
    if (journalId !== undefined) this.queued.add(journalId);
    const run = async () => {
      if (journaled instanceof Promise) {
        try {
          journalId = await journaled;
        } catch {
          return; // never journaled: the engine was told, and keeps it (the simulator redelivers)
        }
        this.queued.add(journalId);
      }
      const session = this.sessions.get(whatsappId);
      const resolved = session?.resolve ? await session.resolve(event).catch(() => event) : event;
      for (let attempt = 1; ; attempt++) {
        try {
          await this.handler(whatsappId, resolved, journalId);
          return;
        } catch (err) {
          this.deps.log.error({ err, whatsappId, event: event.type, journalId, attempt }, "channel event failed");
          if (journalId === undefined) return;
          const next = await this.deps.journal.failed(journalId, err).catch(() => "retry" as const);
          if (next === "failed") return;
          await new Promise((r) => setTimeout(r, this.deps.retryDelayMs?.(attempt) ?? Math.min(30_000, 500 * 2 ** attempt)));
        }
      }
    };
    const prev = key ? this.tails.get(key) : undefined;
    const done = (prev ? prev.then(run) : run()).finally(() => {
      if (journalId !== undefined) this.queued.delete(journalId);
      if (key && this.tails.get(key) === done) this.tails.delete(key);
      if (--this.inflight === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
    });
    if (key) this.tails.set(key, done);
    return done;
  }
}

/** The chat an event belongs to (messages and calls), for ordering and the journal. */
function chatKey(event: ChannelEvent): string | undefined {
  if (event.type === "message") {
    const c = event.message.chat;
    return c.groupId ?? c.number ?? c.lid ?? "";
  }
  if (event.type === "call") return event.from.number ?? event.from.lid ?? "";
  return undefined;
}

/** Messages and calls of one chat are handled one after the other; other events need no order. */
function orderKey(whatsappId: number, event: ChannelEvent): string | undefined {
  if (event.type === "status") return `${whatsappId}:status`;
  const chat = chatKey(event);
  return chat === undefined ? undefined : `${whatsappId}:${chat}`;
}
