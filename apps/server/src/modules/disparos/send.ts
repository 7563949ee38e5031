import { renderDisparo } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { mediaTypeOf, type StoredMedia } from "../../lib/media.js";
import { contactOf } from "../contacts/service.js";
import type { Queued } from "../outbox/deps.js";
import { enqueueMessage, mediaContent, type OutboxContent } from "../outbox/enqueue.js";
import { timeZoneOf } from "../settings/service.js";
import { releaseOwnKey } from "../../jobs/runner.js";
import { contactFor } from "../contacts/for-number.js";
import { historyTicket } from "../tickets/history-ticket.js";
import { type DisparoDeps, wakeJob } from "./deps.js";
import { publishChange } from "./listing.js";
import { lockSettings, paceOf, stateOf } from "../pacing/settings.js";
import { decidePace } from "../pacing/pacing.js";
import { mimeOfKey } from "./rows.js";

/** The send run: one row of a connection taken, paced, rendered and stored in the outbox. */

type TakenRow = {
  id: number | string;
  number: string;
  name: string;
  message: string;
  url: string;
  mimetype: string;
  media_key: string | null;
  contact_id: number | null;
};

/**
 * One run of a connection's send job. Everything in one transaction: the settings row locked (runs
 * of a connection and bulk actions never cross), the run's own singleton key released (so the next
 * run can be queued in it), the pace decides, one due row is taken and queued in the outbox,
 * and the next run is queued. A paused or disconnected connection queues no next run: Retomar and
 * the reconnect wake it (and the minute's sweep, for a wake that was missed).
 */
export async function runSend(deps: DisparoDeps, whatsappId: number, jobId: number): Promise<void> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const zone = await timeZoneOf(ctx.db);
  const outcome = await ctx.db.transaction(async (tx) => {
    const { rows: conn } = await tx.execute<{ status: string }>(sql`select status from whatsapps where id = ${whatsappId}`);
    if (!conn[0]) return undefined;
    // the settings row first: a campaign and every bulk action lock it before they queue this job
    const cfg = await lockSettings(tx, whatsappId);
    await releaseOwnKey(tx, jobId);
    // a disconnected or logged-out number takes no rows (the stored status, and this process's live session)
    if (cfg.paused || conn[0].status !== "CONNECTED" || !(await deps.conv.channels.isConnected(whatsappId))) return undefined;
    const decision = decidePace(paceOf(cfg, now, zone), stateOf(cfg), now, zone, deps.random);
    const nowIso = new Date(now).toISOString();
    if (!decision.go) {
      const { rows } = await tx.execute(sql`select 1 from disparos where whatsapp_id = ${whatsappId} and status = 'a enviar' limit 1`);
      if (!rows.length) return undefined;
      await wakeJob(tx, whatsappId, decision.at);
      return { next: decision.at };
    }
    const { rows: taken } = await tx.execute<TakenRow>(sql`
      select id, number, name, message, url, mimetype, media_key, contact_id from disparos
      where whatsapp_id = ${whatsappId} and status = 'a enviar' and datetime <= ${nowIso}::timestamptz
      order by datetime, id limit 1 for update skip locked`);
    const row = taken[0];
    if (!row) {
      // nothing due now: rows starting later wake the job at their time
      const { rows: later } = await tx.execute<{ at: Date | string | null }>(
        sql`select min(datetime) as at from disparos where whatsapp_id = ${whatsappId} and status = 'a enviar'`,
      );
      if (!later[0]?.at) return undefined;
      const at = new Date(later[0].at).getTime();
      await wakeJob(tx, whatsappId, at);
      return { next: at };
    }
    const id = Number(row.id);
    const { contact, created } = await contactFor(tx, row.number, row.name);
    const ticket = await historyTicket(tx, contact.id, whatsappId);
    // the row's name (the CSV's `nome`) first, else the contact's own (not its number)
    const text = renderDisparo(row.message, row.name ? { name: row.name } : contact.name === contact.number ? null : contact, id);
    const linkOnly = row.url && !row.media_key;
    const body = linkOnly ? [text, row.url].filter(Boolean).join("\n") : text;
    let content: OutboxContent = { kind: "text", body };
    let media: StoredMedia | undefined;
    if (row.media_key) {
      const mimetype = row.mimetype || mimeOfKey(row.media_key);
      media = { key: row.media_key, mimetype, mediaType: mediaTypeOf(mimetype), size: 0 };
      content = mediaContent(media, row.media_key, body, false);
    }
    const q = await enqueueMessage(tx, {
      ticket: { id: ticket.id, whatsappId, contact: { number: contact.number, lid: contact.lid, isGroup: false } },
      source: "disparo",
      userId: null,
      body,
      content,
      media,
    });
    await tx.execute(sql`
      update disparos set status = 'enviando', message_id = ${q.id}, rendered = ${body}, contact_id = ${contact.id}, updated_at = now()
      where id = ${id}`);
    const s = decision.state;
    await tx.execute(sql`
      update disparo_settings set next_at = ${s.nextAt === null ? null : new Date(s.nextAt).toISOString()}::timestamptz,
             day = ${s.day}, day_count = ${s.dayCount}, streak = ${s.streak}, updated_at = now()
      where whatsapp_id = ${whatsappId}`);
    const { rows: more } = await tx.execute(sql`select 1 from disparos where whatsapp_id = ${whatsappId} and status = 'a enviar' limit 1`);
    const next = more.length ? (s.nextAt ?? now) : undefined;
    if (next !== undefined) await wakeJob(tx, whatsappId, next);
    return { queued: { id: q.id, whatsappId } as Queued, created, next };
  });
  if (!outcome) return;
  // the next run, at its pace (the runner would otherwise look only at its next poll)
  if (outcome.next !== undefined) deps.wakeRunner(outcome.next);
  if (!("queued" in outcome) || !outcome.queued) return;
  if (outcome.created) ctx.events.publish("contact.saved", { action: "create", contact: contactOf(outcome.created) });
  await deps.conv.outbox.committed([outcome.queued]);
  await publishChange(ctx, "update");
}
