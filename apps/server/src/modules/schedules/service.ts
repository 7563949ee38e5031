import {
  type Message,
  type Schedule,
  SCHEDULE_IN_PAST,
  SCHEDULE_PAST_TOLERANCE_MS,
  SCHEDULE_REPLIED_REASON,
  type ScheduleStatus,
  type ScheduleUpdate,
  type Ticket,
} from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { cancelQueued, enqueueJob } from "../../jobs/runner.js";
import { AppError } from "../../lib/errors.js";
import { dayBound, parseLocalDateTime } from "../../lib/zoned-time.js";
import { claimKey, saveResult } from "../outbox/idempotency.js";
import { timeZoneOf } from "../settings/service.js";
import { canSee, loadTicket } from "../tickets/queries.js";
import { keyOf, loadRows, publish, SEND_JOB, type ScheduleDeps, toSchedule, visible } from "./rows.js";

/**
 * Scheduled messages: creating, listing, deleting and cancel-on-reply here; sending and the
 * outbox-fed life cycle in send.ts; what both share in rows.ts.
 *
 * Creating one stores the row 'pending' and queues its job
 * (`schedules.send`, run at `when`, singleton per schedule) in ONE transaction. The job takes the
 * row FOR UPDATE; only a row still 'pending' goes on: within the grace (setting
 * `scheduleGraceMinutes`, default 60) its message is stored in the ticket, signed with the
 * author's name like an agent's, and queued in the outbox at the schedule priority, and the row
 * turns 'sent' — all in that transaction, so a second runner, a retried job or a crash never
 * sends it twice; past the grace (the server was down) it turns 'failed' ('atrasado'). The
 * outbox's `message.failed` turns a sent one 'failed' with the reason. A customer's message
 * cancels the contact's pending schedules that asked for it.
 */

export { reconcile, runSchedule, scheduleWork, sweep } from "./send.js";
export { SEND_JOB, type ScheduleDeps, SWEEP_JOB } from "./rows.js";

// ---------- creating, reading, deleting ----------

/** POST /schedules: on a ticket the user may open; `when` local (the product's zone) or with an offset, not in the past. */
export async function createSchedule(
  deps: ScheduleDeps,
  user: SessionUser,
  input: { ticketId: number; message: string; when: string; cancelOnReply?: boolean; sign?: boolean; idempotencyKey?: string },
): Promise<Schedule> {
  const { ctx } = deps.conv;
  const message = input.message.trim();
  if (!message) throw new AppError("ERR_VALIDATION", 400, { message: ["Required"] });
  const at = parseLocalDateTime(input.when, await timeZoneOf(ctx.db));
  if (!at) throw new AppError("ERR_VALIDATION", 400, { when: ["Invalid date"] });
  if (at.getTime() < deps.clock.now() - SCHEDULE_PAST_TOLERANCE_MS) throw new AppError("ERR_VALIDATION", 400, { when: [SCHEDULE_IN_PAST] });
  const ticket = await loadTicket(ctx.db, input.ticketId);
  assertMaySchedule(user, ticket);
  if (ticket.whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
  if (ticket.isGroup) throw new AppError("ERR_VALIDATION", 400, { ticketId: ["Group chats are not scheduled"] });
  const scope = `user:${user.id}`;
  const outcome = await ctx.db.transaction(async (tx) => {
    if (input.idempotencyKey) {
      const claim = await claimKey<{ id: number }>(tx, scope, input.idempotencyKey);
      if (!claim.fresh) return { id: claim.result.id, replay: true };
    }
    const { rows } = await tx.execute<{ id: number | string }>(sql`
      insert into schedules (ticket_id, contact_id, whatsapp_id, user_id, customer_number, message, "when", cancel_on_reply, sign)
      values (${ticket.id}, ${ticket.contactId}, ${ticket.whatsappId}, ${user.id}, ${ticket.contact.number ?? ""}, ${message},
              ${at.toISOString()}::timestamptz, ${input.cancelOnReply ?? false}, ${input.sign ?? true})
      returning id`);
    const sid = Number(rows[0].id);
    await enqueueJob(tx, SEND_JOB, { id: sid }, { runAt: at, singletonKey: keyOf(sid), maxAttempts: 5 });
    if (input.idempotencyKey) await saveResult(tx, scope, input.idempotencyKey, { id: sid });
    return { id: sid, replay: false };
  });
  const id = outcome.id;
  if (!outcome.replay) {
    deps.wakeRunner();
    await publish(ctx, [id], "create");
  }
  const [row] = await loadRows(ctx.db, sql`s.id = ${id}`);
  if (!row) throw new AppError("ERR_NOT_FOUND");
  return toSchedule(row);
}

/**
 * Who may schedule on a ticket: who may see it; on a closed ticket only its own agent (or an
 * admin) — 'a missing or closed-and-foreign ticket' is refused.
 */
function assertMaySchedule(user: SessionUser, ticket: Ticket) {
  if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  if (ticket.status === "closed" && user.profile !== "admin" && ticket.userId !== user.id) throw new AppError("ERR_TICKET_NOT_OPEN");
}

/** `visible` as SQL over the joined ticket t (so the list's cap counts only what the user may see). */
function visibleSql(user: SessionUser) {
  if (user.profile === "admin") return undefined;
  const queues = user.queueIds.length
    ? sql` or t.queue_id in (${sql.join(
        user.queueIds.map((q) => sql`${q}`),
        sql`, `,
      )})`
    : sql``;
  return sql`(s.ticket_id is not null and (t.user_id = ${user.id} or t.queue_id is null${queues}))`;
}

/** GET /schedules: the ticket's (the dialog), or by status and day range (the screen); only what the user may see. */
export async function listSchedules(
  db: DbOrTx,
  user: SessionUser,
  q: { ticketId?: number; status?: ScheduleStatus | ""; from?: string; to?: string },
): Promise<Schedule[]> {
  if (q.ticketId !== undefined) {
    const ticket = await loadTicket(db, q.ticketId);
    if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  }
  const zone = await timeZoneOf(db);
  const from = dayBound(q.from, zone, false);
  const to = dayBound(q.to, zone, true);
  const conds = [
    visibleSql(user),
    q.ticketId !== undefined ? sql`s.ticket_id = ${q.ticketId}` : undefined,
    q.status ? sql`s.status = ${q.status}` : undefined,
    from ? sql`s."when" >= ${from.toISOString()}::timestamptz` : undefined,
    to ? sql`s."when" < ${to.toISOString()}::timestamptz` : undefined,
  ].filter((c) => c !== undefined);
  const rows = await loadRows(db, conds.length ? sql.join(conds, sql` and `) : sql`true`);
  return rows.filter((r) => visible(user, r)).map(toSchedule);
}

/** DELETE /schedules/:id: a pending one is canceled (kept, never sent); a sent, failed or canceled one is removed. */
export async function deleteSchedule(deps: ScheduleDeps, user: SessionUser, id: number): Promise<{ removed: boolean }> {
  const { ctx } = deps.conv;
  const [row] = await loadRows(ctx.db, sql`s.id = ${id}`);
  if (!row || !visible(user, row)) throw new AppError("ERR_NOT_FOUND");
  const outcome = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ status: ScheduleStatus }>(sql`select status from schedules where id = ${id} for update`);
    if (!rows[0]) return "gone" as const;
    if (rows[0].status === "pending") {
      await tx.execute(sql`update schedules set status = 'canceled', reason = '', updated_at = now() where id = ${id}`);
      await cancelQueued(tx, [keyOf(id)]);
      return "canceled" as const;
    }
    await tx.execute(sql`delete from schedules where id = ${id}`);
    return "removed" as const;
  });
  if (outcome === "gone") throw new AppError("ERR_NOT_FOUND");
  if (outcome === "canceled") await publish(ctx, [id]);
  else
    ctx.events.publish("schedule.changed", {
      update: { action: "delete", scheduleId: id },
      routing: { ticketId: row.ticket_id, queueId: row.queue_id, userId: row.owner_id },
    });
  return { removed: outcome === "removed" };
}

/** Whether any pending schedule waits for a customer's reply (cancel-on-reply); most customer messages find none. */
export async function anyWaitingForReply(db: DbOrTx): Promise<boolean> {
  const { rows } = await db.execute<{ any: boolean }>(
    sql`select exists (select 1 from schedules where status = 'pending' and cancel_on_reply) as any`,
  );
  return rows[0]?.any === true;
}

/**
 * Cancel-on-reply: the customer wrote, so the contact's pending schedules that asked for it are
 * moot. One small function of (message, ticket) — a bot step can call it the same way.
 */
export async function cancelOnCustomerReply(deps: ScheduleDeps, message: Message, ticket: Ticket): Promise<number> {
  if (message.fromMe || ticket.isGroup) return 0;
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute<{ id: number | string }>(sql`
    update schedules set status = 'canceled', reason = ${SCHEDULE_REPLIED_REASON}, updated_at = now()
    where status = 'pending' and cancel_on_reply
      and (contact_id = ${ticket.contactId} or ticket_id = ${ticket.id})
    returning id`);
  const ids = rows.map((r) => Number(r.id));
  if (ids.length) {
    await cancelQueued(ctx.db, ids.map(keyOf));
    await publish(ctx, ids);
  }
  return ids.length;
}

export type { ScheduleUpdate };
