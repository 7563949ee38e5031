import { SCHEDULE_LATE_REASON, SETTING_DEFAULTS, type ScheduleStatus } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { type OutboxFedWork, outboxFedLifeCycle } from "../../jobs/outbox-fed.js";
import { enqueueJob, moveQueuedEarlier, releaseOwnKey } from "../../jobs/runner.js";
import { AppError } from "../../lib/errors.js";
import type { Queued } from "../outbox/deps.js";
import { enqueueMessage, PRIORITY } from "../outbox/enqueue.js";
import { historyTicket } from "../tickets/history-ticket.js";
import { routeOf } from "../health/service.js";
import { getSettingValue } from "../settings/service.js";
import { loadTicket } from "../tickets/queries.js";
import { dueScheduleKeys, keyOf, publish, SEND_JOB, type ScheduleDeps, SWEEP_JOB } from "./rows.js";

/** Sending a due schedule, what became of its message, and schedules as outbox-fed work. */

/** a due schedule whose number is disconnected is looked at again after this (or at the reconnect) */
const RETRY_DISCONNECTED_MS = 60_000;

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
    let ticketId = await targetTicket(tx, s.ticket_id, s.contact_id, s.whatsapp_id);
    if (ticketId === undefined) {
      await fail("ticket removido");
      return { kind: "failed" as const };
    }
    let ticket = await loadTicket(tx, ticketId);
    if (ticket.whatsappId === null) {
      await fail("sem conexão");
      return { kind: "failed" as const };
    }
    // its number down or paused: the backup connection sends it, in the contact's conversation there (number health)
    const route = await routeOf(tx, ticket.whatsappId);
    const contactId: number | null = ticket.contactId ?? s.contact_id;
    let sendVia: number = ticket.whatsappId;
    if (route.viaBackup && contactId !== null) {
      sendVia = route.whatsappId;
      ticketId = (await historyTicket(tx, contactId, sendVia)).id;
      ticket = await loadTicket(tx, ticketId);
    }
    // a disconnected number: it stays pending and is tried again (the reconnect brings that forward); the grace still rules
    if (!(await deps.conv.channels.isConnected(sendVia))) {
      if (jobId !== undefined) await releaseOwnKey(tx, jobId);
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
      update schedules set status = 'sent', message_id = ${q.id}, ticket_id = ${ticketId}, whatsapp_id = ${q.whatsappId}, reason = '', updated_at = now() where id = ${id}`);
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
  return (await moveQueuedEarlier(ctx.db, SEND_JOB, dueScheduleKeys(whatsappId, now), new Date(now))) > 0;
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
