import { DISPARO_FAILURE_BURST } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { idArray } from "../../lib/sql.js";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import type { OutboxFedWork } from "../../jobs/outbox-fed.js";
import { enqueueJob } from "../../jobs/runner.js";
import { PRIORITY } from "../outbox/enqueue.js";
import { type DisparoDeps, keyOf, SEND_JOB, SWEEP_JOB, wakeJob } from "./deps.js";
import { publishChange } from "./listing.js";
import { lockSettings } from "../pacing/settings.js";
import { runSend } from "./send.js";

/** What became of a row's message (the outbox's events, the reconcile), and disparos as outbox-fed work. */

/** The channel took a disparo's message: 'enviado' (also a 'com erro' row whose message an agent sent again). */
export async function onMessageSent(deps: DisparoDeps, messageId: number): Promise<void> {
  const { ctx } = deps.conv;
  // the connection's settings row is locked first, as every disparo transaction does (a send run,
  // a failure): taken in another order, a success and a failure landing together deadlocked
  const changed = await ctx.db.transaction(async (tx) => {
    const w = await connectionOfMessage(tx, messageId, ["enviando", "com erro"]);
    if (w === undefined) return false;
    const s = await lockSettings(tx, w);
    const { rows } = await tx.execute(sql`
      update disparos set status = 'enviado', reason = '', sent_at = now(), updated_at = now()
      where message_id = ${messageId} and status in ('enviando', 'com erro') returning id`);
    if (!rows.length) return false;
    if (s.fail_streak !== 0) await tx.execute(sql`update disparo_settings set fail_streak = 0 where whatsapp_id = ${w}`);
    return true;
  });
  if (changed) await publishChange(ctx, "update");
}

/** The connection of the disparo row a message belongs to, while the row is in one of `statuses`. */
async function connectionOfMessage(tx: DbOrTx, messageId: number, statuses: string[]): Promise<number | undefined> {
  const { rows } = await tx.execute<{ whatsapp_id: number }>(sql`
    select whatsapp_id from disparos where message_id = ${messageId} and status in (${sql.join(
      statuses.map((st) => sql`${st}`),
      sql`, `,
    )})`);
  return rows[0] ? Number(rows[0].whatsapp_id) : undefined;
}

/**
 * A disparo's message could not be sent: 'com erro' with the reason (never 'enviado'). After
 * DISPARO_FAILURE_BURST failures in a row the connection's disparos pause and admins are told.
 */
export async function onMessageFailed(deps: DisparoDeps, messageId: number, reason: string): Promise<void> {
  const { ctx } = deps.conv;
  const paused = await ctx.db.transaction(async (tx) => {
    // settings first (see onMessageSent), then the row
    const w = await connectionOfMessage(tx, messageId, ["enviando"]);
    if (w === undefined) return undefined;
    const s = await lockSettings(tx, w);
    const { rows } = await tx.execute(sql`
      update disparos set status = 'com erro', reason = ${reason.slice(0, 500)}, updated_at = now()
      where message_id = ${messageId} and status = 'enviando' returning id`);
    if (!rows.length) return undefined;
    return { whatsappId: w, pauseNow: await setFailStreak(tx, w, s, s.fail_streak + 1) };
  });
  if (paused === undefined) return;
  if (paused.pauseNow) await tellPaused(ctx, paused.whatsappId);
  else await publishChange(ctx, "update");
}

/**
 * The connection's failures in a row (its settings row locked by the caller): at
 * DISPARO_FAILURE_BURST its disparos pause ('falhas'). Answers whether they paused now.
 */
async function setFailStreak(tx: DbOrTx, whatsappId: number, s: { paused: boolean }, streak: number): Promise<boolean> {
  const pauseNow = !s.paused && streak >= DISPARO_FAILURE_BURST;
  await tx.execute(sql`
    update disparo_settings set fail_streak = ${streak}, updated_at = now()
      ${pauseNow ? sql`, paused = true, paused_reason = 'falhas'` : sql``}
    where whatsapp_id = ${whatsappId}`);
  return pauseNow;
}

/** After the commit: the admins' screens hear the pause, with the counts. */
async function tellPaused(ctx: AppContext, whatsappId: number) {
  ctx.log.warn({ whatsappId }, "disparos paused after a burst of failed sends");
  await publishChange(ctx, "update", { whatsappId, reason: "falhas" });
}

/** Which 'enviando' rows have a settled message (sent, failed, gone, or deleted before it left), over `x` and `m`. */
const SETTLED = sql.raw(
  "x.status = 'enviando' and (m.id is null or m.sent_at is not null or m.send_error is not null or (m.is_deleted and not exists (select 1 from outbox o where o.message_id = m.id)))",
);

/**
 * 'enviando' rows set right from their messages: sent (sent_at) → 'enviado', failed (send_error)
 * → 'com erro', message gone or deleted unsent → 'com erro'. At start and every minute.
 *
 * The sweep can land between the outbox's failure and its event (the event's handler then finds
 * no 'enviando' row), so the failed sends it settles count toward the connection's burst as the
 * event would have, in the rows' order: a success in between starts the count again. Like every
 * disparo transaction, the connections' settings rows are locked first, in order.
 */
export async function reconcile(ctx: AppContext): Promise<number> {
  const settled = await ctx.db.transaction(async (tx) => {
    const { rows: found } = await tx.execute<{ whatsapp_id: number }>(sql`
      select distinct x.whatsapp_id from disparos x left join messages m on m.id = x.message_id
      where ${SETTLED} order by x.whatsapp_id`);
    const connections = found.map((r) => Number(r.whatsapp_id));
    if (!connections.length) return { fixed: 0, paused: [] as number[] };
    const settings = new Map<number, { streak: number; paused: boolean }>();
    for (const w of connections) {
      const s = await lockSettings(tx, w);
      settings.set(w, { streak: s.fail_streak, paused: s.paused });
    }
    const { rows } = await tx.execute<{ id: number; whatsapp_id: number; status: string; failed_send: boolean }>(sql`
      update disparos d set
        status = case when m.id is not null and m.sent_at is not null then 'enviado' else 'com erro' end,
        reason = case when m.id is null then 'mensagem excluída'
                      when m.sent_at is not null then ''
                      when m.send_error is not null then m.send_error
                      else 'mensagem apagada antes do envio' end,
        sent_at = m.sent_at, updated_at = now()
      from disparos x left join messages m on m.id = x.message_id
      where d.id = x.id and x.whatsapp_id = any(${idArray(connections)}::int[]) and ${SETTLED}
      returning d.id, d.whatsapp_id, d.status, (m.id is not null and m.sent_at is null and m.send_error is not null) as failed_send`);
    const paused: number[] = [];
    const touched = new Set<number>();
    for (const r of [...rows].sort((a, b) => Number(a.id) - Number(b.id))) {
      const c = settings.get(Number(r.whatsapp_id));
      if (!c) continue;
      if (r.status === "enviado") c.streak = 0;
      else if (r.failed_send) c.streak++;
      else continue;
      touched.add(Number(r.whatsapp_id));
    }
    for (const w of touched) {
      const c = settings.get(w) as { streak: number; paused: boolean };
      if (await setFailStreak(tx, w, c, c.streak)) paused.push(w);
    }
    return { fixed: rows.length, paused };
  });
  // each pause's event carries the counts too; without one, a single event tells the screens
  for (const w of settled.paused) await tellPaused(ctx, w);
  if (!settled.paused.length && settled.fixed) await publishChange(ctx, "update");
  return settled.fixed;
}

/** Queues a run for every connection that has due rows and none queued (a wake missed, a dead job). */
async function wakeDue(deps: DisparoDeps): Promise<boolean> {
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute<{ whatsapp_id: number }>(sql`
    select c.whatsapp_id from disparo_counts c
    join whatsapps w on w.id = c.whatsapp_id and w.status = 'CONNECTED'
    left join disparo_settings s on s.whatsapp_id = c.whatsapp_id
    where c.status = 'a enviar' and c.n > 0 and not coalesce(s.paused, false)`);
  let woke = false;
  for (const r of rows) {
    const id = await enqueueJob(ctx.db, SEND_JOB, { whatsappId: r.whatsapp_id }, { singletonKey: keyOf(r.whatsapp_id), maxAttempts: 5 });
    if (id !== undefined) woke = true;
  }
  return woke;
}

/** The connection is back: its rows go on. */
async function connected(deps: DisparoDeps, whatsappId: number): Promise<boolean> {
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute(
    sql`select 1 from disparo_counts where whatsapp_id = ${whatsappId} and status = 'a enviar' and n > 0`,
  );
  if (!rows.length) return false;
  await wakeJob(ctx.db, whatsappId, deps.clock.now());
  return true;
}

/**
 * Disparos as outbox-fed work (jobs/outbox-fed.ts): one send job per connection, the bulk
 * priority's `message.sent`, every `message.failed`; at start the crashed runs are queued again
 * and 'enviando' rows reconciled (due rows wait for the reconnect or the minute's sweep).
 */
export function disparoWork(deps: DisparoDeps): OutboxFedWork<{ whatsappId: number }> {
  return {
    sendJob: SEND_JOB,
    run: (p, job) => runSend(deps, p.whatsappId, job.id),
    sweepJob: SWEEP_JOB,
    priority: PRIORITY.disparo,
    sent: (messageId) => onMessageSent(deps, messageId),
    failed: (messageId, reason) => onMessageFailed(deps, messageId, reason),
    reconcile: () => reconcile(deps.conv.ctx),
    wakeDue: () => wakeDue(deps),
    connected: (whatsappId) => connected(deps, whatsappId),
    wakeDueAtStart: false,
  };
}
