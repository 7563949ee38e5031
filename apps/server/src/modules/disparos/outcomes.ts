import { DISPARO_FAILURE_BURST } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { enqueueJob } from "../../jobs/runner.js";
import { type DisparoDeps, keyOf, SEND_JOB, wakeJob } from "./deps.js";
import { publishChange } from "./listing.js";
import { lockSettings } from "./pace-settings.js";

/** What became of a row's message: the outbox's events, the reconcile, the minute's sweep, the start and the reconnect. */

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
    const streak = s.fail_streak + 1;
    const pauseNow = !s.paused && streak >= DISPARO_FAILURE_BURST;
    await tx.execute(sql`
      update disparo_settings set fail_streak = ${streak}, updated_at = now()
        ${pauseNow ? sql`, paused = true, paused_reason = 'falhas'` : sql``}
      where whatsapp_id = ${w}`);
    return { whatsappId: w, pauseNow };
  });
  if (paused === undefined) return;
  if (paused.pauseNow) ctx.log.warn({ whatsappId: paused.whatsappId }, "disparos paused after a burst of failed sends");
  await publishChange(ctx, "update", paused.pauseNow ? { whatsappId: paused.whatsappId, reason: "falhas" } : undefined);
}

/**
 * 'enviando' rows set right from their messages: sent (sent_at) → 'enviado', failed (send_error)
 * → 'com erro', message gone or deleted unsent → 'com erro'. At start and every minute.
 */
export async function reconcile(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.execute<{ id: number }>(sql`
    with fixed as (
      update disparos d set
        status = case when m.id is not null and m.sent_at is not null then 'enviado' else 'com erro' end,
        reason = case when m.id is null then 'mensagem excluída'
                      when m.sent_at is not null then ''
                      when m.send_error is not null then m.send_error
                      else 'mensagem apagada antes do envio' end,
        sent_at = m.sent_at, updated_at = now()
      from disparos x left join messages m on m.id = x.message_id
      where d.id = x.id and x.status = 'enviando'
        and (m.id is null or m.sent_at is not null or m.send_error is not null or (m.is_deleted and not exists (select 1 from outbox o where o.message_id = m.id)))
      returning d.id
    )
    select id from fixed`);
  if (rows.length) await publishChange(ctx, "update");
  return rows.length;
}

/** Wakes every connection that has due rows and no queued run (a wake missed, a dead job). */
export async function sweep(deps: DisparoDeps): Promise<void> {
  const { ctx } = deps.conv;
  await reconcile(ctx);
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
  if (woke) deps.wakeRunner();
}

/**
 * At start: runs of the send job this process was doing when it died are queued again at once
 * (they would otherwise wait for their lease; a run decides again under the settings lock, so a
 * second one is harmless), and 'enviando' rows are reconciled.
 */
export async function startDisparos(deps: DisparoDeps): Promise<void> {
  const { ctx } = deps.conv;
  await ctx.db.execute(sql`
    update jobs set state = 'queued', lease_until = null, run_at = ${new Date(deps.clock.now()).toISOString()}::timestamptz, updated_at = now()
    where name = ${SEND_JOB} and state = 'running'`);
  await reconcile(ctx);
}

/** The connection is back: its rows go on. */
export async function onConnected(deps: DisparoDeps, whatsappId: number): Promise<void> {
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute(
    sql`select 1 from disparo_counts where whatsapp_id = ${whatsappId} and status = 'a enviar' and n > 0`,
  );
  if (!rows.length) return;
  await wakeJob(ctx.db, whatsappId, deps.clock.now());
  deps.wakeRunner();
}
