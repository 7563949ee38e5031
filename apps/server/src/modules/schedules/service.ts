import {
  type Message,
  type Schedule,
  SCHEDULE_LATE_REASON,
  SCHEDULE_PAST_TOLERANCE_MS,
  SCHEDULE_REPLIED_REASON,
  type ScheduleStatus,
  type ScheduleUpdate,
  SETTING_DEFAULTS,
  type Ticket,
} from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { type OutboxFedWork, outboxFedLifeCycle } from "../../jobs/outbox-fed.js";
import { enqueueJob } from "../../jobs/runner.js";
import { AppError } from "../../lib/errors.js";
import type { Clock } from "../../lib/pace.js";
import { iso } from "../../lib/sql.js";
import { parseLocalDateTime } from "../../lib/zoned-time.js";
import type { ConvDeps, Queued } from "../outbox/deps.js";
import { enqueueMessage, PRIORITY } from "../outbox/enqueue.js";
import { claimKey, saveResult } from "../outbox/idempotency.js";
import { getSettingValue, timeZoneOf } from "../settings/service.js";
import { canSee, loadTicket } from "../tickets/queries.js";

/**
 * Scheduled messages. Creating one stores the row 'pending' and queues its job
 * (`schedules.send`, run at `when`, singleton per schedule) in ONE transaction. The job takes the
 * row FOR UPDATE; only a row still 'pending' goes on: within the grace (setting
 * `scheduleGraceMinutes`, default 60) its message is stored in the ticket, signed with the
 * author's name like an agent's, and queued in the outbox at the schedule priority, and the row
 * turns 'sent' — all in that transaction, so a second runner, a retried job or a crash never
 * sends it twice; past the grace (the server was down) it turns 'failed' ('atrasado'). The
 * outbox's `message.failed` turns a sent one 'failed' with the reason. A customer's message
 * cancels the contact's pending schedules that asked for it.
 */

export const SEND_JOB = "schedules.send";
export const SWEEP_JOB = "schedules.sweep";
const keyOf = (id: number) => `schedule:${id}`;
/** a due schedule whose number is disconnected is looked at again after this (or at the reconnect) */
const RETRY_DISCONNECTED_MS = 60_000;

export interface ScheduleDeps {
  conv: ConvDeps;
  clock: Clock;
  /** the job runner looks for due jobs now (after a commit that queued one) */
  wakeRunner: () => void;
}

type Row = {
  id: number | string;
  ticket_id: number | null;
  contact_id: number | null;
  whatsapp_id: number | null;
  user_id: number | null;
  customer_number: string;
  message: string;
  when: Date | string;
  status: ScheduleStatus;
  reason: string;
  cancel_on_reply: boolean;
  sign: boolean;
  message_id: number | string | null;
  sent_at: Date | string | null;
  created_at: Date | string;
  user_name: string | null;
  contact_name: string | null;
  whatsapp_name: string | null;
  queue_id: number | null;
  owner_id: number | null;
};

const SELECT = sql`
  select s.id, s.ticket_id, s.contact_id, s.whatsapp_id, s.user_id, s.customer_number, s.message, s."when", s.status, s.reason,
         s.cancel_on_reply, s.sign, s.message_id, s.sent_at, s.created_at, u.name as user_name, c.name as contact_name, w.name as whatsapp_name,
         t.queue_id, t.user_id as owner_id
  from schedules s
  left join users u on u.id = s.user_id
  left join contacts c on c.id = s.contact_id
  left join whatsapps w on w.id = s.whatsapp_id
  left join tickets t on t.id = s.ticket_id`;

const toSchedule = (r: Row): Schedule => ({
  id: Number(r.id),
  ticketId: r.ticket_id,
  contactId: r.contact_id,
  customerNumber: r.customer_number,
  userId: r.user_id,
  userName: r.user_name,
  contactName: r.contact_name,
  whatsappId: r.whatsapp_id,
  whatsappName: r.whatsapp_name,
  message: r.message,
  when: iso(r.when),
  status: r.status,
  reason: r.reason,
  cancelOnReply: !!r.cancel_on_reply,
  sign: !!r.sign,
  messageId: r.message_id === null ? null : Number(r.message_id),
  sentAt: r.sent_at ? iso(r.sent_at) : null,
  createdAt: iso(r.created_at),
});

async function loadRows(db: DbOrTx, where: ReturnType<typeof sql>): Promise<Row[]> {
  const { rows } = await db.execute<Row>(sql`${SELECT} where ${where} order by s."when" desc, s.id desc limit 5000`);
  return rows;
}

/** Who may see a schedule: who may see its ticket (admins all; a schedule without a ticket, admins only). */
function visible(user: SessionUser, r: Pick<Row, "ticket_id" | "queue_id" | "owner_id">): boolean {
  if (user.profile === "admin") return true;
  if (r.ticket_id === null) return false;
  return canSee(user, { queueId: r.queue_id, userId: r.owner_id });
}

async function publish(ctx: AppContext, ids: number[], action: "create" | "update" = "update") {
  if (!ids.length) return;
  const rows = await loadRows(
    ctx.db,
    sql`s.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  for (const r of rows) {
    ctx.events.publish("schedule.changed", {
      update: { action, schedule: toSchedule(r) },
      routing: { ticketId: r.ticket_id, queueId: r.queue_id, userId: r.owner_id },
    });
  }
}

// ---------- creating, reading, deleting ----------

/** The day bounds of the screen (§5): from "…T00:00:00" inclusive, to "…T23:59:59" through the end of that second. */
function bound(value: string | undefined, zone: string, end: boolean): Date | undefined {
  if (!value) return undefined;
  const d = parseLocalDateTime(value, zone);
  if (!d) throw new AppError("ERR_VALIDATION", 400, { [end ? "to" : "from"]: ["Invalid date"] });
  if (!end) return d;
  return new Date(d.getTime() + (/[T ]\d{2}:\d{2}/.test(value) ? 1000 : 86_400_000));
}

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
  if (at.getTime() < deps.clock.now() - SCHEDULE_PAST_TOLERANCE_MS) throw new AppError("ERR_VALIDATION", 400, { when: ["In the past"] });
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
  const from = bound(q.from, zone, false);
  const to = bound(q.to, zone, true);
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
      await tx.execute(sql`delete from jobs where singleton_key = ${keyOf(id)} and state = 'queued'`);
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

// ---------- sending ----------

async function graceMs(db: DbOrTx): Promise<number> {
  const raw = Number(await getSettingValue(db, "scheduleGraceMinutes"));
  const minutes = Number.isFinite(raw) && raw >= 0 ? raw : Number(SETTING_DEFAULTS.scheduleGraceMinutes);
  return minutes * 60_000;
}

/**
 * The job: a schedule still pending goes out now — stored in its ticket (or the contact's live
 * ticket on that connection, when the ticket was closed and a new one opened since) and queued in
 * the outbox, the row 'sent', one transaction — unless it is later than the grace ('atrasado').
 * Answers what happened (tests and logs).
 */
export async function runSchedule(
  deps: ScheduleDeps,
  id: number,
  /** the job running it (its singleton key is given up when it queues its own retry) */
  jobId?: number,
): Promise<"sent" | "late" | "skipped" | "failed" | "waiting"> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const grace = await graceMs(ctx.db);
  const outcome = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{
      status: ScheduleStatus;
      when: Date | string;
      ticket_id: number | null;
      contact_id: number | null;
      whatsapp_id: number | null;
      message: string;
      user_id: number | null;
      user_name: string | null;
      sign: boolean;
    }>(sql`
      select s.status, s."when", s.ticket_id, s.contact_id, s.whatsapp_id, s.message, s.user_id, u.name as user_name, s.sign
      from schedules s left join users u on u.id = s.user_id where s.id = ${id} for update of s`);
    const s = rows[0];
    if (s?.status !== "pending") return { kind: "skipped" as const };
    const due = new Date(s.when).getTime();
    if (due > now) return { kind: "skipped" as const };
    const fail = async (reason: string) => {
      await tx.execute(sql`update schedules set status = 'failed', reason = ${reason}, updated_at = now() where id = ${id}`);
    };
    if (now - due > grace) {
      await fail(SCHEDULE_LATE_REASON);
      return { kind: "late" as const };
    }
    const ticketId = await targetTicket(tx, s.ticket_id, s.contact_id, s.whatsapp_id);
    if (ticketId === undefined) {
      await fail("ticket removido");
      return { kind: "failed" as const };
    }
    const ticket = await loadTicket(tx, ticketId);
    if (ticket.whatsappId === null) {
      await fail("sem conexão");
      return { kind: "failed" as const };
    }
    // a disconnected number: it stays pending and is tried again (the reconnect brings that forward); the grace still rules
    if (!deps.conv.channels.get(ticket.whatsappId)?.connected) {
      if (jobId !== undefined) await tx.execute(sql`update jobs set singleton_key = null where id = ${jobId}`);
      await enqueueJob(tx, SEND_JOB, { id }, { runAt: new Date(now + RETRY_DISCONNECTED_MS), singletonKey: keyOf(id), maxAttempts: 5 });
      return { kind: "waiting" as const };
    }
    const body = s.sign && s.user_name ? `*${s.user_name}*:\n${s.message}` : s.message;
    let q: { id: number; whatsappId: number };
    try {
      q = await enqueueMessage(tx, { ticket, source: "schedule", userId: s.user_id, body, content: { kind: "text", body } });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await fail(err.code === "ERR_WAPP_INVALID_CONTACT" ? "contato sem número" : err.code);
      return { kind: "failed" as const };
    }
    await tx.execute(sql`
      update schedules set status = 'sent', message_id = ${q.id}, ticket_id = ${ticketId}, reason = '', updated_at = now() where id = ${id}`);
    return { kind: "sent" as const, queued: { id: q.id, whatsappId: q.whatsappId } as Queued };
  });
  if (outcome.kind === "skipped" || outcome.kind === "waiting") return outcome.kind;
  if (outcome.kind === "sent") await deps.conv.outbox.committed([outcome.queued]);
  if (outcome.kind === "late") ctx.log.warn({ scheduleId: id }, "schedule found due past the grace: marked failed (atrasado)");
  await publish(ctx, [id]);
  return outcome.kind;
}

/** The schedule's ticket; when it was closed and the contact has a live ticket on the connection since, that one. */
async function targetTicket(
  tx: DbOrTx,
  ticketId: number | null,
  contactId: number | null,
  whatsappId: number | null,
): Promise<number | undefined> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select id from tickets
    where (id = ${ticketId} and status <> 'closed')
       or (contact_id = ${contactId} and whatsapp_id = ${whatsappId} and status in ('open', 'pending'))
    order by (id = ${ticketId}) desc, updated_at desc limit 1`);
  if (rows[0]) return rows[0].id;
  if (ticketId === null) return undefined;
  const { rows: same } = await tx.execute<{ id: number }>(sql`select id from tickets where id = ${ticketId}`);
  return same[0]?.id;
}

/** The outbox gave up on a schedule's message: the schedule shows 'Com erro' with the reason. */
export async function onMessageFailed(deps: ScheduleDeps, messageId: number, reason: string): Promise<void> {
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute<{ id: number | string }>(sql`
    update schedules set status = 'failed', reason = ${reason.slice(0, 500)}, updated_at = now()
    where message_id = ${messageId} and status = 'sent' returning id`);
  await publish(
    ctx,
    rows.map((r) => Number(r.id)),
  );
}

/** The channel took a schedule's message: its time is kept (a failed one sent again by 'Reenviar' is sent). */
export async function onMessageSent(deps: ScheduleDeps, messageId: number): Promise<void> {
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute<{ id: number | string }>(sql`
    update schedules set status = 'sent', reason = '', sent_at = now(), updated_at = now()
    where message_id = ${messageId} and (status = 'failed' or sent_at is null) returning id`);
  await publish(
    ctx,
    rows.map((r) => Number(r.id)),
  );
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
    await ctx.db.execute(
      sql`delete from jobs where state = 'queued' and singleton_key in (${sql.join(
        ids.map((i) => sql`${keyOf(i)}`),
        sql`, `,
      )})`,
    );
    await publish(ctx, ids);
  }
  return ids.length;
}

/**
 * Pending schedules that are due and have no job queued or running (a job that died) get one
 * again; the job decides (sent, or 'atrasado' past the grace).
 */
async function wakeDue(deps: ScheduleDeps): Promise<boolean> {
  const { ctx } = deps.conv;
  const now = new Date(deps.clock.now()).toISOString();
  const { rows } = await ctx.db.execute<{ id: number | string }>(sql`
    select s.id from schedules s
    where s.status = 'pending' and s."when" <= ${now}::timestamptz
      and not exists (select 1 from jobs j where j.singleton_key = 'schedule:' || s.id::text and j.state in ('queued', 'running'))
    order by s."when" limit 1000`);
  for (const r of rows) await enqueueJob(ctx.db, SEND_JOB, { id: Number(r.id) }, { singletonKey: keyOf(Number(r.id)), maxAttempts: 5 });
  return rows.length > 0;
}

/**
 * Sent schedules set right from their messages (a crash between the channel taking a message and
 * its event): the channel's time copied, a message the outbox gave up on → 'failed' with its reason.
 */
export async function reconcile(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.execute<{ id: number | string }>(sql`
    with fixed as (
      update schedules s set
        status = case when m.sent_at is not null then 'sent' else 'failed' end,
        reason = case when m.sent_at is not null then '' else coalesce(m.send_error, '') end,
        sent_at = m.sent_at, updated_at = now()
      from messages m
      where m.id = s.message_id and s.status = 'sent' and s.sent_at is null and (m.sent_at is not null or m.send_error is not null)
      returning s.id
    )
    select id from fixed`);
  const ids = rows.map((r) => Number(r.id));
  await publish(ctx, ids);
  return ids.length;
}

/** A connection is back: its due schedules waiting for it go now (within the grace; past it, 'atrasado'). */
async function connected(deps: ScheduleDeps, whatsappId: number): Promise<boolean> {
  const { ctx } = deps.conv;
  const now = new Date(deps.clock.now()).toISOString();
  const { rows } = await ctx.db.execute(sql`
    update jobs set run_at = ${now}::timestamptz, updated_at = now()
    where name = ${SEND_JOB} and state = 'queued' and run_at > ${now}::timestamptz
      and singleton_key in (select 'schedule:' || s.id::text from schedules s
                            where s.status = 'pending' and s.whatsapp_id = ${whatsappId} and s."when" <= ${now}::timestamptz)
    returning id`);
  return rows.length > 0;
}

/**
 * Schedules as outbox-fed work (jobs/outbox-fed.ts): one send job per schedule at its `when`, the
 * schedule priority's `message.sent` (API messages share it), every `message.failed`; at start the
 * crashed runs are queued again, sent rows reconciled and due ones given a job.
 */
export function scheduleWork(deps: ScheduleDeps): OutboxFedWork<{ id: number }> {
  return {
    sendJob: SEND_JOB,
    run: async (p, job) => void (await runSchedule(deps, p.id, job.id)),
    sweepJob: SWEEP_JOB,
    priority: PRIORITY.schedule,
    sent: (messageId) => onMessageSent(deps, messageId),
    failed: (messageId, reason) => onMessageFailed(deps, messageId, reason),
    reconcile: () => reconcile(deps.conv.ctx),
    wakeDue: () => wakeDue(deps),
    connected: (whatsappId) => connected(deps, whatsappId),
    wakeDueAtStart: true,
  };
}

/** The minute's sweep, run by hand (tests): reconcile, then due schedules without a job get one. */
export function sweep(deps: ScheduleDeps): Promise<void> {
  return outboxFedLifeCycle({ db: deps.conv.ctx.db, clock: deps.clock, wakeRunner: deps.wakeRunner }, scheduleWork(deps)).sweep();
}

export type { ScheduleUpdate };
