import type { Ticket } from "@balcao/contract";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import type { SessionUser } from "../../context.js";
import { ticketHistory, tickets } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import type { ConvDeps } from "../outbox/deps.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import { type Actor, decideTransition, type HistoryReason, type TicketState, type TransitionRequest } from "./state-machine.js";
import { loadTicket } from "./queries.js";

/**
 * Writing a transition: the ticket is locked, `decideTransition` answers, and the new state, its
 * history row and the automatic messages (the farewell) are written in the caller's transaction.
 * `afterTransition` publishes once it is committed.
 */

type LockedRow = {
  id: number;
  status: Ticket["status"];
  user_id: number | null;
  queue_id: number | null;
  transf: boolean;
  whatsapp_id: number | null;
  is_group: boolean;
  c_number: string | null;
  c_lid: string | null;
  c_is_group: boolean;
  farewell: string | null;
};

export interface Transitioned {
  ticketId: number;
  changed: boolean;
  previous: { status: Ticket["status"]; queueId: number | null; userId: number | null };
  /** status, queue and owner after it (the same as `previous` when nothing changed) */
  next: { status: Ticket["status"]; queueId: number | null; userId: number | null };
  /** messages queued by the transition (the farewell), to publish and send */
  queued: { id: number; whatsappId: number }[];
}

const stateOf = (r: LockedRow): TicketState => ({
  status: r.status,
  userId: r.user_id,
  queueId: r.queue_id,
  transf: r.transf,
  whatsappId: r.whatsapp_id,
  isGroup: r.is_group,
});

export function historyActor(actor: Actor): { actor: string; actorUserId: number | null } {
  return { actor: actor.kind, actorUserId: actor.kind === "user" ? actor.id : null };
}

export interface HistoryRow {
  ticketId: number;
  from?: { status: string | null; queueId: number | null; userId: number | null };
  to: { status: string; queueId: number | null; userId: number | null };
  actor: Actor;
  reason: HistoryReason;
}

/** A history row's columns but its ticket (the inbound first message's statement writes them as they are). */
export function historyColumns(row: Omit<HistoryRow, "ticketId">) {
  return {
    fromStatus: row.from?.status ?? null,
    toStatus: row.to.status,
    fromQueueId: row.from?.queueId ?? null,
    queueId: row.to.queueId,
    fromUserId: row.from?.userId ?? null,
    userId: row.to.userId,
    ...historyActor(row.actor),
    reason: row.reason,
  };
}

/** Writes history rows, in their order, in one statement (also used by the inbound pipeline for tickets it creates). */
export async function writeHistory(tx: DbOrTx, ...rows: HistoryRow[]): Promise<void> {
  await tx.insert(ticketHistory).values(rows.map((row) => ({ ticketId: row.ticketId, ...historyColumns(row) })));
}

/** Locks, decides and writes one transition (see the module comment). Refusals throw their ERR_ code. */
/** A signed-in user as the transitions' actor (who history names). */
export function adminActor(user: Pick<SessionUser, "id" | "profile" | "queueIds">): Actor {
  return { kind: "user", id: user.id, profile: user.profile, queueIds: user.queueIds };
}

export async function transitionTicket(tx: DbOrTx, ticketId: number, actor: Actor, req: TransitionRequest): Promise<Transitioned> {
  const { rows } = await tx.execute<LockedRow>(sql`
    select t.id, t.status, t.user_id, t.queue_id, t.transf, t.whatsapp_id, t.is_group,
           c.number as c_number, c.lid as c_lid, c.is_group as c_is_group, w.farewell_message as farewell
    from tickets t join contacts c on c.id = t.contact_id left join whatsapps w on w.id = t.whatsapp_id
    where t.id = ${ticketId}
    for update of t`);
  const row = rows[0];
  if (!row) throw new AppError("ERR_NO_TICKET_FOUND");
  return applyDecision(tx, row, actor, req);
}

async function applyDecision(tx: DbOrTx, row: LockedRow, actor: Actor, req: TransitionRequest): Promise<Transitioned> {
  const before = stateOf(row);
  const outcome = decideTransition(before, actor, req);
  if (!outcome.ok) throw new AppError(outcome.error);
  const previous = { status: before.status, queueId: before.queueId, userId: before.userId };
  const queued: Transitioned["queued"] = [];
  if (!outcome.changed) return { ticketId: row.id, changed: false, previous, next: previous, queued };
  const next = outcome.next;
  const closing = before.status !== "closed" && next.status === "closed";
  await tx
    .update(tickets)
    .set({
      status: next.status,
      userId: next.userId,
      queueId: next.queueId,
      transf: next.transf,
      whatsappId: next.whatsappId,
      ...(closing && { closedAt: new Date(), unreadMessages: 0 }),
      ...(next.status !== "closed" && { closedAt: null }),
      updatedAt: new Date(),
    })
    .where(eq(tickets.id, row.id));
  // the queue menu no longer waits for a choice once the ticket has another queue
  if (next.queueId !== before.queueId) {
    await tx.execute(sql`update bot_sessions set step = null, data = '{}'::jsonb where ticket_id = ${row.id} and step = 'menu'`);
  }
  if (outcome.history) {
    await writeHistory(tx, {
      ticketId: row.id,
      from: previous,
      to: { status: next.status, queueId: next.queueId, userId: next.userId },
      actor,
      reason: outcome.history.reason,
    });
  }
  for (const what of outcome.send) {
    if (what !== "farewell" || !row.farewell?.trim() || next.whatsappId === null) continue;
    const m = await enqueueMessage(tx, {
      ticket: { id: row.id, whatsappId: next.whatsappId, contact: { number: row.c_number, lid: row.c_lid, isGroup: row.c_is_group } },
      source: "bot",
      userId: null,
      body: row.farewell,
      content: { kind: "text", body: row.farewell },
    });
    queued.push({ id: m.id, whatsappId: m.whatsappId });
  }
  return { ticketId: row.id, changed: true, previous, next: { status: next.status, queueId: next.queueId, userId: next.userId }, queued };
}

/** After the commit: the ticket's new state is published, and what it queued is sent and shown. */
export async function afterTransition(conv: ConvDeps, done: Transitioned, ticket?: Ticket): Promise<Ticket> {
  const { ctx } = conv;
  const fresh = ticket ?? (await loadTicket(ctx.db, done.ticketId));
  if (done.changed) ctx.events.publish("ticket.updated", { ticket: fresh, previous: done.previous });
  await conv.outbox.committed(done.queued);
  return fresh;
}
