import type { AudioEntry, ChatEntry, Contact, Message, Queue, QuickAnswer, Setting, Ticket, User, Whatsapp } from "./entities.js";
import type { TicketStatus, ConnectionStatus } from "./entities.js";
import type { DisparosUpdate } from "./disparos.js";
import type { ContractEvent } from "./contracts.js";
import type { ScheduleUpdate } from "./schedules.js";
import type { WhatsappHealthEvent } from "./health.js";
import type { IncidentUpdate } from "./incidents.js";
import type { MentionEvent } from "./audit.js";

/** Socket events the server emits and their payloads (core §4, document 001 §4). */
export interface ServerToClientEvents {
  contact: (
    p:
      | { action: "create" | "update"; contact: Contact }
      | { action: "delete"; contactId: number }
      | { action: "deleteAll" }
      | { action: "import"; created: number },
  ) => void;
  user: (p: { action: "create" | "update"; user: User } | { action: "delete"; userId: number }) => void;
  queue: (p: { action: "create" | "update"; queue: Queue } | { action: "delete"; queueId: number }) => void;
  quickAnswer: (p: { action: "create" | "update"; quickAnswer: QuickAnswer } | { action: "delete"; quickAnswerId: number }) => void;
  settings: (p: { action: "update"; setting: Setting }) => void;
  ticket: (
    p:
      | { action: "update"; ticket: Ticket }
      /** `moved`: not deleted, only out of this user's reach now (transferred to a queue they do not serve) */
      | { action: "delete"; ticketId: number; moved?: boolean }
      | { action: "updateUnread"; ticketId: number },
  ) => void;
  appMessage: (p: { action: "create" | "update"; message: Message; ticket: Ticket; contact: Ticket["contact"] }) => void;
  whatsapp: (p: { action: "update"; whatsapp: Whatsapp } | { action: "delete"; whatsappId: number }) => void;
  whatsappSession: (p: {
    action: "update";
    session: { id: number; status: ConnectionStatus; qrcode: string; retries: number; number: string; updatedAt: string };
  }) => void;
  /** someone types in a ticket the socket watches: the customer (no name), or another agent (their name) */
  typing: (p: { ticketId: number; typing: boolean; name?: string }) => void;
  /** admins: disparos were created, changed status or were deleted (the screen reloads its page) */
  "disparos:update": (p: DisparosUpdate) => void;
  /** a contract the socket's user may see was created, generated, signed or deleted */
  contract: (p: ContractEvent) => void;
  /** a schedule was created, changed status or was deleted (the dialog and the screen update) */
  schedule: (p: ScheduleUpdate) => void;
  /** admins: a number's health changed (sends, failures, a pause after a ban signal: `alert`) */
  whatsappHealth: (p: WhatsappHealthEvent) => void;
  /** an incident was opened, changed or closed (every signed-in user: the outage banner) */
  incident: (p: IncidentUpdate) => void;
  /** chat entries changed (every signed-in user: agents' tickets are answered from them) */
  "chatbot:update": (p: { action: "create" | "update"; chatEntry: ChatEntry } | { action: "delete"; id: number }) => void;
  /** audio entries changed (every signed-in user: agents send them from the message input) */
  "audiobot:update": (p: { action: "create" | "update"; audioEntry: AudioEntry } | { action: "delete"; id: number }) => void;
  /** the server's event path to the other processes came back after an outage: read every screen again (as after a reconnect) */
  resync: (p: Record<string, never>) => void;
  /** an internal note named this user (`@Name`); only to users who may see the ticket */
  mention: (p: MentionEvent) => void;
}

/** Answer of a room join, when the client passes a callback: refused joins say why. */
export type JoinAck = (result: { ok: boolean; error?: string }) => void;

export interface ClientToServerEvents {
  joinTickets: (status: TicketStatus | "notification", ack?: JoinAck) => void;
  joinNotification: (ack?: JoinAck) => void;
  joinChatBox: (ticketId: number | string, ack?: JoinAck) => void;
  leaveChatBox: (ticketId: number | string) => void;
}
