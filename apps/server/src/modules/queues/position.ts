import { fillIncidentText, QUEUE_POSITION_TEXT, QUEUE_POSITION_TEXT_NO_ESTIMATE } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import type { Clock } from "../../lib/pace.js";
import type { ConvDeps } from "../outbox/deps.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import { waitingIn } from "../tickets/queries.js";
import { queuePositions } from "../tickets/queries.js";

/**
 * Queue position and expected wait (issue 32 §2). A waiting ticket is one pending, without an
 * agent, in a queue, not a group; its position counts the queue's waiting tickets created before
 * it (ties by id), computed in SQL whenever asked — nothing kept in memory, so every process
 * answers the same. The estimate is the queue's median first response time over the last 7 days
 * (the dashboard's figure: ticket_cycles, from the customer's first message to the first human
 * reply) times the position, in whole minutes; none when the queue had no answered cycle.
 */

export const POSITION_JOB = "queues.position";
const WINDOW_DAYS = 7;

/** The queue's median first response time (seconds) over the last 7 days; null when none. */
export async function medianFirstResponse(db: DbOrTx, queueId: number, now: number): Promise<number | null> {
  const since = new Date(now - WINDOW_DAYS * 86_400_000).toISOString();
  const { rows } = await db.execute<{ secs: number | string | null }>(sql`
    select percentile_cont(0.5) within group (order by extract(epoch from (reply_at - customer_at))) as secs
    from ticket_cycles
    where reply_queue_id = ${queueId} and reply_at is not null and customer_at is not null and started_at >= ${since}::timestamptz`);
  const v = rows[0]?.secs;
  return v === null || v === undefined ? null : Number(v);
}

/** Whole minutes (at least 1) for a position, from the queue's median first response; null without one. */
export function expectedMinutes(medianSecs: number | null, position: number): number | null {
  if (medianSecs === null || !Number.isFinite(medianSecs)) return null;
  return Math.max(1, Math.ceil((medianSecs * position) / 60));
}

/** The customer's text. */
export function positionText(position: number, queue: string, minutes: number | null): string {
  return fillIncidentText(minutes === null ? QUEUE_POSITION_TEXT_NO_ESTIMATE : QUEUE_POSITION_TEXT, {
    position,
    queue,
    minutes: minutes ?? "",
  });
}

/**
 * The waiting tickets that should have been told and were not: in a queue that tells positions,
 * changed in the last hour, never told. Their job is queued on a ticket event, after its commit; a
 * process killed in between loses it, so this is looked at every minute and when a number
 * connects (a restart). Tickets that waited before the queue began telling are told when they next
 * write, as the rule says, not all at once.
 */
export async function untoldWaiting(db: DbOrTx, whatsappId?: number): Promise<number[]> {
  const { rows } = await db.execute<{ id: number }>(sql`
    select t.id from tickets t join queues q on q.id = t.queue_id
    where ${waitingIn("t")} and q.position_notice_enabled and t.whatsapp_id is not null
      ${whatsappId === undefined ? sql`` : sql`and t.whatsapp_id = ${whatsappId}`}
      and t.updated_at > now() - interval '1 hour'
      and not exists (select 1 from queue_position_notices n where n.ticket_id = t.id)
    order by t.id
    limit 500`);
  return rows.map((r) => Number(r.id));
}

/** Whether a ticket's queue tells positions (a cheap look before queueing the job). */
export async function noticeEnabled(db: DbOrTx, queueId: number): Promise<boolean> {
  const { rows } = await db.execute<{ on: boolean }>(sql`select position_notice_enabled as on from queues where id = ${queueId}`);
  return rows[0]?.on === true;
}

/**
 * The position notice of one ticket (the job): while it waits in a queue that tells positions,
 * the customer is told their position and the estimate — unless they were told less than the
 * queue's N minutes ago. The conditional upsert of `queue_position_notices` is that rule, for
 * every process at once.
 */
export async function runPositionNotice(conv: ConvDeps, clock: Clock, ticketId: number): Promise<void> {
  const { ctx } = conv;
  const now = clock.now();
  const queued = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{
      queue_id: number;
      whatsapp_id: number | null;
      name: string;
      enabled: boolean;
      minutes: number;
      number: string | null;
      lid: string | null;
      is_waiting: boolean;
    }>(sql`
      select t.queue_id, t.whatsapp_id, q.name, q.position_notice_enabled as enabled, q.position_notice_minutes as minutes,
             c.number, c.lid, (${waitingIn("t")}) as is_waiting
      from tickets t join queues q on q.id = t.queue_id join contacts c on c.id = t.contact_id
      where t.id = ${ticketId}
      for update of t`);
    const r = rows[0];
    if (!r?.is_waiting || !r.enabled || r.whatsapp_id === null) return undefined;
    const at = new Date(now).toISOString();
    const { rows: claimed } = await tx.execute(sql`
      insert into queue_position_notices (ticket_id, told_at) values (${ticketId}, ${at}::timestamptz)
      on conflict (ticket_id) do update set told_at = excluded.told_at
        where queue_position_notices.told_at <= excluded.told_at - make_interval(mins => ${Number(r.minutes)})
      returning ticket_id`);
    if (!claimed.length) return undefined;
    const position = (await queuePositions(tx, [ticketId])).get(ticketId);
    if (position === undefined) return undefined;
    const minutes = expectedMinutes(await medianFirstResponse(tx, Number(r.queue_id), now), position);
    const body = positionText(position, r.name, minutes);
    const q = await enqueueMessage(tx, {
      ticket: { id: ticketId, whatsappId: Number(r.whatsapp_id), contact: { number: r.number, lid: r.lid, isGroup: false } },
      source: "bot",
      userId: null,
      body,
      content: { kind: "text", body },
    });
    return [{ id: q.id, whatsappId: q.whatsappId }];
  });
  if (queued) await conv.outbox.committed(queued);
}
