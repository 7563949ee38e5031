import { EventEmitter } from "node:events";
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
} from "@balcao/contract";

/**
 * Domain events. Services publish them after their writes commit; `realtime/` turns them into
 * socket emits, and bots, notifications and jobs listen the same way. No route emits to sockets.
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
  "whatsapp.session": { id: number; status: ConnectionStatus; qrcode: string; retries: number; number: string; updatedAt: string };
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
  /** an internal note named these users (`@Name`); each may see the ticket (modules/messages/notes.ts checked) */
  "note.mentioned": { userIds: number[]; ticketId: number; messageId: number; byUserId: number; byName: string; body: string };
  "audiobot.changed": { action: "create" | "update"; audioEntry: AudioEntry } | { action: "delete"; id: number };
}

export type DomainEventName = keyof DomainEvents;

export class EventBus {
  private readonly emitter = new EventEmitter({ captureRejections: false });
  private onError: (err: unknown, name: string) => void = () => {};

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  setErrorHandler(fn: (err: unknown, name: string) => void) {
    this.onError = fn;
  }

  publish<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    for (const listener of this.emitter.listeners(name)) {
      try {
        const r = (listener as (p: DomainEvents[K]) => unknown)(payload);
        if (r && typeof (r as Promise<unknown>).catch === "function") (r as Promise<unknown>).catch((e) => this.onError(e, name));
      } catch (err) {
        this.onError(err, name);
      }
    }
  }

  on<K extends DomainEventName>(name: K, listener: (payload: DomainEvents[K]) => unknown): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
