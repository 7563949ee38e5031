import type { ChannelType } from "@balcao/contract";
import type { AuthStateStore, ChannelDeps, ChannelEvent, ChannelFactory, ChannelSession } from "./channel.js";

/**
 * The live sessions of this process, one per connection. It creates a session with the factory of
 * the connection's type, routes every event the session emits to one handler (the inbound
 * pipeline), and keeps the events of one chat in order while different chats run in parallel.
 * It knows nothing of tickets or HTTP.
 */

export interface ManagerDeps {
  log: ChannelDeps["log"];
  authState: (whatsappId: number) => AuthStateStore;
  getMessage: (whatsappId: number, id: string) => Promise<{ body: string } | undefined>;
}

export type ChannelEventHandler = (whatsappId: number, event: ChannelEvent) => Promise<void>;

export interface ConnectionRef {
  id: number;
  name: string;
  type: ChannelType;
}

export class ChannelManager {
  private readonly factories = new Map<ChannelType, ChannelFactory>();
  private readonly sessions = new Map<number, ChannelSession>();
  /** Tail of the work queue of each chat ("<whatsappId>:<chat>"), to keep its events in order. */
  private readonly tails = new Map<string, Promise<void>>();
  private inflight = 0;
  private idleWaiters: (() => void)[] = [];
  private handler: ChannelEventHandler = async () => {};

  constructor(private readonly deps: ManagerDeps) {}

  register(type: ChannelType, factory: ChannelFactory): void {
    this.factories.set(type, factory);
  }

  hasFactory(type: ChannelType): boolean {
    return this.factories.has(type);
  }

  setHandler(handler: ChannelEventHandler): void {
    this.handler = handler;
  }

  get(whatsappId: number): ChannelSession | undefined {
    return this.sessions.get(whatsappId);
  }

  /** Starts (or restarts) the session of a connection. Answers undefined when its type has no driver here. */
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
      emit: (event) => this.dispatch(conn.id, event),
      authState: this.deps.authState(conn.id),
      getMessage: (id) => this.deps.getMessage(conn.id, id),
      log: this.deps.log,
    });
    this.sessions.set(conn.id, session);
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

  /** Hands an event to the handler, in order per chat; a failing event is logged, never thrown. */
  dispatch(whatsappId: number, event: ChannelEvent): Promise<void> {
    const key = orderKey(whatsappId, event);
    this.inflight++;
    const run = async () => {
      try {
        await this.handler(whatsappId, event);
      } catch (err) {
        this.deps.log.error({ err, whatsappId, event: event.type }, "channel event failed");
      }
    };
    const prev = key ? this.tails.get(key) : undefined;
    const done = (prev ? prev.then(run) : run()).finally(() => {
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

/** Messages of one chat are handled one after the other; other events need no order. */
function orderKey(whatsappId: number, event: ChannelEvent): string | undefined {
  if (event.type === "status") return `${whatsappId}:status`;
  if (event.type !== "message") return undefined;
  const c = event.message.chat;
  return `${whatsappId}:${c.groupId ?? c.number ?? c.lid ?? ""}`;
}
