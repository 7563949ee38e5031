import type { ErrorCode, Profile, TicketStatus } from "@balcao/contract";
import { canSee } from "../access/visibility.js";

/**
 * Every ticket status change, decided in one place by a pure function: from the ticket as it is,
 * who acts and what is asked, the new state, the automatic messages to send and the history row
 * to write. The services only load, write what this answers, and publish.
 */

export interface TicketState {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  transf: boolean;
  whatsappId: number | null;
  isGroup: boolean;
}

export type Actor =
  | { kind: "user"; id: number; profile: Profile; queueIds: number[] }
  /** the customer's own message (reopening a closed ticket) */
  | { kind: "customer" }
  /** the server itself (auto-close) */
  | { kind: "system" }
  /** a bot step (the queue menu, Typebot, self-service) */
  | { kind: "bot" };

export type TransitionRequest =
  /** Atender (pending → open) or reopen (closed → open): the actor's, or the named user's (admins and supervisors) */
  | { type: "accept"; userId?: number; queueId?: number | null }
  /** to a user (theirs, open), to a queue (pending there, nobody's), or both (that user, that queue, open) */
  | { type: "transfer"; userId?: number | null; queueId?: number | null }
  | { type: "finish" }
  /** back to the waiting list, nobody's */
  | { type: "return"; queueId?: number | null }
  /** changes that are not a status change: the queue as it is shown, the connection (admins), the transfer flag */
  | { type: "update"; queueId?: number | null; whatsappId?: number; transf?: boolean }
  /** idle too long (the server's timer) */
  | { type: "autoClose" }
  /** a customer writes to a closed ticket within the reopen window */
  | { type: "customerMessage" }
  /** the queue menu or a bot hands the ticket over to a queue (and maybe an agent) */
  | { type: "handover"; queueId: number | null; userId?: number | null }
  /** its agent's account is deleted (an admin): an open ticket goes back to the waiting list, nobody's */
  | { type: "ownerDeleted" }
  /** its queue is deleted (an admin): the ticket stays as it is, without a queue */
  | { type: "queueDeleted" };

export type HistoryReason =
  | "create"
  | "accept"
  | "reopen"
  | "transfer"
  | "finish"
  | "return"
  | "autoClose"
  | "customer"
  | "queue"
  | "handover"
  | "userDeleted"
  | "queueDeleted";

export type Outcome =
  | { ok: false; error: ErrorCode }
  | {
      ok: true;
      next: TicketState;
      /** the status, owner, queue or connection changed */
      changed: boolean;
      /** the history row (absent when nothing that history records changed) */
      history?: { reason: HistoryReason };
      /** automatic messages the connection sends because of it */
      send: "farewell"[];
    };

const privileged = (a: Actor) => a.kind === "user" && (a.profile === "admin" || a.profile === "superv");

/**
 * Decides a transition. Visibility (may the user see this ticket at all) is checked before, with
 * the same rule the lists use; this adds the rules of acting on it.
 */
export function decideTransition(t: TicketState, actor: Actor, req: TransitionRequest): Outcome {
  const deny = (error: ErrorCode = "ERR_NO_PERMISSION"): Outcome => ({ ok: false, error });
  // visibility again, on the locked row: a caller acting on many tickets at once (an incident's close)
  // meets the rule a single ticket's route checks first
  if (actor.kind === "user" && !canSee(actor, t)) return deny();
  if (actor.kind === "user" && !privileged(actor)) {
    // an open ticket is its owner's: others (but admins and supervisors) may not act on it
    if (t.status === "open" && t.userId !== null && t.userId !== actor.id) return deny();
    if (req.type === "update" && req.whatsappId !== undefined) return deny();
  }
  if (actor.kind === "user" && req.type === "update" && req.whatsappId !== undefined && actor.profile !== "admin") return deny();

  const next: TicketState = { ...t };
  let reason: HistoryReason | undefined;
  const send: "farewell"[] = [];
  switch (req.type) {
    case "accept": {
      if (actor.kind !== "user") return deny();
      if (t.status === "open" && t.userId === (req.userId ?? actor.id) && req.queueId === undefined) {
        return { ok: true, next, changed: false, send };
      }
      if (req.userId !== undefined && req.userId !== actor.id && !privileged(actor)) return deny();
      reason = t.status === "closed" ? "reopen" : "accept";
      next.status = "open";
      next.userId = req.userId ?? actor.id;
      if (req.queueId !== undefined) next.queueId = req.queueId;
      break;
    }
    case "transfer": {
      if (actor.kind !== "user") return deny();
      if (req.userId != null) {
        next.userId = req.userId;
        next.status = "open";
      } else {
        next.userId = null;
        next.status = "pending";
      }
      if (req.queueId !== undefined) next.queueId = req.queueId;
      next.transf = true;
      reason = "transfer";
      break;
    }
    case "finish": {
      if (t.status === "closed") return { ok: true, next, changed: false, send };
      next.status = "closed";
      reason = "finish";
      if (!t.isGroup) send.push("farewell");
      break;
    }
    case "return": {
      next.status = "pending";
      next.userId = null;
      if (req.queueId !== undefined) next.queueId = req.queueId;
      reason = "return";
      break;
    }
    case "update": {
      if (req.queueId !== undefined) next.queueId = req.queueId;
      if (req.whatsappId !== undefined) next.whatsappId = req.whatsappId;
      if (req.transf !== undefined) next.transf = req.transf;
      if (next.queueId !== t.queueId) reason = "queue";
      break;
    }
    case "autoClose": {
      if (actor.kind !== "system") return deny();
      if (t.status !== "open") return { ok: true, next, changed: false, send };
      next.status = "closed";
      reason = "autoClose";
      if (!t.isGroup) send.push("farewell");
      break;
    }
    case "customerMessage": {
      if (actor.kind !== "customer") return deny();
      if (t.status !== "closed") return { ok: true, next, changed: false, send };
      // back in its queue, waiting, nobody's
      next.status = "pending";
      next.userId = null;
      next.transf = false;
      reason = "customer";
      break;
    }
    case "ownerDeleted": {
      if (actor.kind === "user" && actor.profile !== "admin") return deny();
      if (t.status !== "open") return { ok: true, next, changed: false, send };
      next.status = "pending";
      next.userId = null;
      reason = "userDeleted";
      break;
    }
    case "queueDeleted": {
      if (actor.kind === "user" && actor.profile !== "admin") return deny();
      next.queueId = null;
      reason = "queueDeleted";
      break;
    }
    case "handover": {
      if (actor.kind !== "bot") return deny();
      next.queueId = req.queueId;
      if (req.userId != null) {
        next.userId = req.userId;
        next.status = "open";
      } else if (t.status === "closed") {
        next.status = "pending";
      }
      reason = req.userId != null ? "handover" : "queue";
      break;
    }
  }
  const changed =
    next.status !== t.status ||
    next.userId !== t.userId ||
    next.queueId !== t.queueId ||
    next.whatsappId !== t.whatsappId ||
    next.transf !== t.transf;
  return { ok: true, next, changed, ...(reason && changed && { history: { reason } }), send };
}

/**
 * The request a PUT /tickets/{id} body means (the original client sends { status, userId,
 * queueId, transf } for accept, reopen, finish and transfers alike).
 */
export function requestFromUpdate(
  t: Pick<TicketState, "status" | "userId" | "queueId">,
  input: { status?: TicketStatus; userId?: number | null; queueId?: number | null; whatsappId?: number; transf?: boolean },
): TransitionRequest {
  if (input.status === "closed") return { type: "finish" };
  const opening = input.status === "open" && t.status !== "open";
  const toUser = input.userId != null && input.userId !== t.userId;
  const toQueue = input.queueId != null && input.queueId !== t.queueId;
  const transfer = input.transf === true || (toUser && !opening) || (toQueue && (input.status === "pending" || input.userId === null));
  if (transfer) {
    if (input.userId != null) return { type: "transfer", userId: input.userId, queueId: input.queueId ?? undefined };
    return { type: "transfer", userId: null, queueId: input.queueId ?? undefined };
  }
  if (opening) return { type: "accept", userId: input.userId ?? undefined, queueId: input.queueId };
  if (input.status === "pending" && t.status !== "pending") return { type: "return", queueId: input.queueId };
  return { type: "update", queueId: input.queueId, whatsappId: input.whatsappId, transf: input.transf };
}
