import type {
  Contact,
  Message,
  Queue,
  QuickAnswer,
  Setting,
  Ticket,
  User,
  Whatsapp,
  ConnectionStatus,
  DisparosUpdate,
  ContractItem,
  ScheduleUpdate,
  ChatEntry,
  AudioEntry,
  WhatsappHealthEvent,
  IncidentUpdate,
} from "@balcao/contract";

/**
 * Domain events. Services publish them after their writes commit. Listeners say where they run:
 *
 * - `on`: once, on the process that published: what must happen once per event (bots, jobs,
 *   notifications, writes, any side effect outside this process).
 * - `onEverywhere`: on every server process (this one included): what concerns each process's own
 *   memory — dropping a cache, closing this process's sockets of a user, emitting to this
 *   process's sockets (`realtime/` emits only to local sockets from here).
 *
 * With one process (the embedded default) both run in place, as one `EventEmitter` always did.
 * With several, a transport (`lib/cluster/`: Redis pub/sub, or PostgreSQL LISTEN/NOTIFY) carries
 * each event that has `onEverywhere` listeners to the other processes as JSON: payloads are
 * JSON-safe (dates as ISO strings, no class instances), which `JsonSafe` below checks.
 */
export interface DomainEvents {
  "contact.saved": { action: "create" | "update"; contact: Contact };
  "contact.deleted": { contactId: number };
  "contact.deletedAll": Record<string, never>;
  "contact.imported": { created: number };
  "user.saved": { action: "create" | "update"; user: User };
  "user.deleted": { userId: number };
  /** Every session of the user ended (logout, password or profile change): tokens refused, sockets closed. */
  "user.sessionsEnded": { userId: number };
  "queue.saved": { action: "create" | "update"; queue: Queue };
  "queue.deleted": { queueId: number };
  "quickAnswer.saved": { action: "create" | "update"; quickAnswer: QuickAnswer };
  "quickAnswer.deleted": { quickAnswerId: number };
  "setting.updated": { setting: Setting };
  /** A ticket changed; `previous` holds what routing depends on, to reach rooms it left. */
  "ticket.updated": {
    ticket: Ticket;
    previous?: { status: Ticket["status"]; queueId: number | null; userId: number | null };
    /** the ticket was created by this change: nobody saw its previous state */
    created?: boolean;
  };
  /** Tickets changed in bulk (a user or queue deleted): listeners reload and broadcast them. */
  "tickets.changed": { ticketIds: number[] };
  "ticket.unreadCleared": { ticket: Ticket };
  "ticket.deleted": { ticket: Ticket };
  "message.created": { message: Message; ticket: Ticket };
  "message.updated": { message: Message; ticket: Ticket };
  /** the channel took an outgoing message (the outbox sender); `sentAt` is already stored; `priority` says its kind (outbox PRIORITY) */
  "message.sent": { messageId: number; whatsappId: number; priority: number };
  /** an outgoing message could not be sent, for good (its reason is on the message) */
  "message.failed": { messageId: number; whatsappId: number; reason: string };
  "whatsapp.saved": { whatsapp: Whatsapp };
  "whatsapp.deleted": { whatsappId: number };
  /** a number's health changed (modules/health); `alert` when a ban signal just paused it, `left`/`joined` when it went down / came up */
  "whatsapp.health": WhatsappHealthEvent & { left?: boolean; joined?: boolean };
  /**
   * a session reported its status (stored by modules/connections); `previous` is the status stored
   * before, `reason` the session's (a disconnect's cause, a ban signal): number health records them
   */
  "whatsapp.session": {
    id: number;
    status: ConnectionStatus;
    qrcode: string;
    retries: number;
    number: string;
    updatedAt: string;
    previous?: ConnectionStatus;
    reason?: string;
  };
  /**
   * a number is down or paused and its backup is up (modules/health decided): the work waiting to
   * go unsolicited from `from` moves to `to` (disparos move their rows, schedules look at their due
   * ones now); each module moves its own
   */
  "whatsapp.reroute": { from: number; to: number; at: number };
  /** someone is typing in a ticket: an agent (userId) or the customer (from the channel's presence) */
  "ticket.typing": { ticketId: number; typing: boolean; userId?: number; name?: string };
  /** disparos were created, changed status, were deleted, or a connection's disparo pace changed */
  "disparos.changed": DisparosUpdate;
  /** a contract was created, generated or signed; `routing` is its ticket's (null: admins only) */
  "contract.changed": { contract: ContractItem; routing: { queueId: number | null; userId: number | null } | null };
  "contract.deleted": { id: number; routing: { queueId: number | null; userId: number | null } | null };
  /** a schedule was created, changed status or was deleted; `routing` says who may see it (its ticket's) */
  "schedule.changed": {
    update: ScheduleUpdate;
    routing: { ticketId: number | null; queueId: number | null; userId: number | null };
  };
  "chatbot.changed": { action: "create" | "update"; chatEntry: ChatEntry } | { action: "delete"; id: number };
  /** an incident was opened, changed or closed (issue 32 §1: every signed-in user hears it, the banner) */
  "incident.changed": IncidentUpdate;
  /** an internal note named these users (`@Name`); each may see the ticket (modules/messages/notes.ts checked) */
  "note.mentioned": { userIds: number[]; ticketId: number; messageId: number; byUserId: number; byName: string; body: string };
  "audiobot.changed": { action: "create" | "update"; audioEntry: AudioEntry } | { action: "delete"; id: number };
}

export type DomainEventName = keyof DomainEvents;

/** `false` somewhere inside when a part of T would not survive JSON.stringify / JSON.parse (a Date, Map, Set, bigint, function). */
type JsonCheck<T> = T extends string | number | boolean | null | undefined
  ? true
  : T extends Date | bigint | Map<unknown, unknown> | Set<unknown> | ((...a: never[]) => unknown)
    ? false
    : T extends readonly (infer U)[]
      ? JsonCheck<U>
      : T extends object
        ? { [K in keyof T]-?: JsonCheck<T[K]> }[keyof T]
        : false;
type AllJsonSafe = false extends { [K in DomainEventName]: JsonCheck<DomainEvents[K]> }[DomainEventName] ? false : true;
/** Fails to compile when an event's payload holds a Date or anything else JSON would change. */
const payloadsAreJsonSafe: AllJsonSafe = true;
void payloadsAreJsonSafe;

/** Carries encoded events between processes (`lib/cluster/bus.ts`). */
export interface EventTransport {
  /** Sends one encoded event to the other processes (in the order of the calls). */
  send(message: string): Promise<void>;
  /**
   * Starts hearing the other processes' events (and this one's own, which the bus drops);
   * `onResume` when hearing starts again after the path was lost (events of that gap are gone).
   */
  listen(onMessage: (message: string) => void, onResume?: () => void): Promise<void>;
  close(): Promise<void>;
}

type Listener = (payload: never) => unknown;

export class EventBus {
  private readonly once = new Map<string, Listener[]>();
  private readonly everywhere = new Map<string, Listener[]>();
  private onError: (err: unknown, name: string) => void = () => {};
  private transport?: EventTransport;
  /** This process among the others (events it sent come back to it and are dropped). */
  readonly origin = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly ownPrefix = `{"o":${JSON.stringify(this.origin)},`;

  setErrorHandler(fn: (err: unknown, name: string) => void) {
    this.onError = fn;
  }

  /** From now on, events with `onEverywhere` listeners also go to (and come from) the other processes. */
  async connect(transport: EventTransport): Promise<void> {
    await transport.listen(
      (message) => this.receive(message),
      () => {
        for (const fn of this.resumers) {
          try {
            fn();
          } catch (err) {
            this.onError(err, "(event path resumed)");
          }
        }
      },
    );
    this.transport = transport;
  }

  private readonly resumers: (() => void)[] = [];

  /**
   * The path to the other processes came back after an outage (Redis or PostgreSQL's listener
   * reconnected): what they published meanwhile never arrived here. Screens resynchronise on it.
   */
  onResume(fn: () => void): void {
    this.resumers.push(fn);
  }

  async close(): Promise<void> {
    const t = this.transport;
    this.transport = undefined;
    await t?.close();
  }

  publish<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.run(name, this.once.get(name), payload);
    const everywhere = this.everywhere.get(name);
    this.run(name, everywhere, payload);
    if (this.transport && everywhere?.length) {
      let message: string;
      try {
        message = JSON.stringify({ o: this.origin, n: name, p: payload });
      } catch (err) {
        this.onError(err, name);
        return;
      }
      this.transport.send(message).catch((err) => this.onError(err, name));
    }
  }

  /** Runs once per event, on the process that published it. */
  on<K extends DomainEventName>(name: K, listener: (payload: DomainEvents[K]) => unknown): () => void {
    return this.add(this.once, name, listener as Listener);
  }

  /** Runs on every process for each event (caches, this process's sockets). */
  onEverywhere<K extends DomainEventName>(name: K, listener: (payload: DomainEvents[K]) => unknown): () => void {
    return this.add(this.everywhere, name, listener as Listener);
  }

  private add(map: Map<string, Listener[]>, name: string, listener: Listener): () => void {
    map.set(name, [...(map.get(name) ?? []), listener]);
    return () =>
      map.set(
        name,
        (map.get(name) ?? []).filter((l) => l !== listener),
      );
  }

  private run(name: string, listeners: Listener[] | undefined, payload: unknown) {
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        const r = (listener as (p: unknown) => unknown)(payload);
        if (r && typeof (r as Promise<unknown>).catch === "function") (r as Promise<unknown>).catch((e) => this.onError(e, name));
      } catch (err) {
        this.onError(err, name);
      }
    }
  }

  /** An event of another process: its `onEverywhere` listeners run here. */
  private receive(message: string) {
    // this process's own events come back from the transport: dropped before any parsing (publish
    // writes the origin first), one JSON.parse of a message and its ticket saved per event
    if (message.startsWith(this.ownPrefix)) return;
    let e: { o: string; n: string; p: unknown };
    try {
      e = JSON.parse(message);
    } catch (err) {
      this.onError(err, "(undecodable event)");
      return;
    }
    if (e.o === this.origin) return;
    this.run(e.n, this.everywhere.get(e.n), e.p);
  }
}
