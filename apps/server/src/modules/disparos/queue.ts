import { type AuditActor, recordAudit } from "../audit/service.js";
import type { DisparoStatus } from "@balcao/contract";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { disparos } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { claimKey, saveResult } from "../outbox/idempotency.js";
import { type DisparoDeps, wakeJob } from "./deps.js";
import { publishChange } from "./listing.js";
import { lockSettings } from "../pacing/settings.js";
import { lockAllSettings } from "./pace-settings.js";
import type { CheckedRow } from "./rows.js";

/** Rows into the queue (POST /disparos) and the screen's bulk actions on them (§4). */

const INSERT_CHUNK = 1000;

/**
 * Stores checked rows for a connection; rows for contacts who opted out are stored 'cancelado'.
 * With an Idempotency-Key (scope: who asked), a retry answers the first result.
 */
export async function createDisparos(
  deps: DisparoDeps,
  input: { whatsappId: number; rows: CheckedRow[]; startAt?: Date; idempotency?: { scope: string; key: string }; actor?: AuditActor },
): Promise<{ created: number; cancelled: number }> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const at = new Date(Math.max(now, input.startAt?.getTime() ?? now));
  const batchId = randomUUID();
  const result = await ctx.db.transaction(async (tx) => {
    if (input.idempotency) {
      const claim = await claimKey<{ created: number; cancelled: number }>(tx, input.idempotency.scope, input.idempotency.key);
      if (!claim.fresh) return claim.result;
    }
    const { rows: conn } = await tx.execute(sql`select id from whatsapps where id = ${input.whatsappId}`);
    if (!conn.length) throw new AppError("ERR_NO_WAPP_FOUND");
    await lockSettings(tx, input.whatsappId);
    const numbers = [...new Set(input.rows.map((r) => r.number))];
    const found = new Map<string, { id: number; optedOut: boolean }>();
    for (let i = 0; i < numbers.length; i += INSERT_CHUNK) {
      const chunk = numbers.slice(i, i + INSERT_CHUNK);
      const { rows } = await tx.execute<{ id: number; number: string; opted: boolean }>(sql`
        select c.id, c.number, (o.contact_id is not null) as opted
        from contacts c left join contact_opt_outs o on o.contact_id = c.id
        where c.number in (${sql.join(
          chunk.map((n) => sql`${n}`),
          sql`, `,
        )})`);
      for (const r of rows) found.set(r.number, { id: r.id, optedOut: !!r.opted });
    }
    let cancelled = 0;
    const values = input.rows.map((r) => {
      const c = found.get(r.number);
      if (c?.optedOut) cancelled++;
      return {
        whatsappId: input.whatsappId,
        number: r.number,
        name: r.name,
        contactId: c?.id ?? null,
        message: r.message,
        url: r.url,
        mimetype: r.mimetype,
        mediaKey: r.mediaKey,
        status: (c?.optedOut ? "cancelado" : "a enviar") as DisparoStatus,
        reason: c?.optedOut ? "descadastrado" : "",
        datetime: at,
        batchId,
      };
    });
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(disparos).values(values.slice(i, i + INSERT_CHUNK));
    const out = { created: values.length, cancelled };
    if (input.actor) {
      await recordAudit(tx, {
        actor: input.actor,
        action: "disparo.start",
        target: `disparos:${batchId}`,
        after: { whatsappId: input.whatsappId, rows: values.length, cancelled, startAt: at.toISOString() },
      });
    }
    if (values.length > cancelled) await wakeJob(tx, input.whatsappId, at.getTime());
    if (input.idempotency) await saveResult(tx, input.idempotency.scope, input.idempotency.key, out);
    return out;
  });
  deps.wakeRunner();
  await publishChange(ctx, "create");
  return result;
}

/** POST /disparos/restart-errors: every 'com erro' goes back to 'a enviar' (a new message each). */
export async function restartErrors(deps: DisparoDeps): Promise<number> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const changed = await ctx.db.transaction(async (tx) => {
    await lockAllSettings(tx);
    const { rows } = await tx.execute<{ whatsapp_id: number; n: number | string }>(sql`
      with u as (
        update disparos set status = 'a enviar', reason = '', message_id = null, rendered = null, sent_at = null,
               datetime = greatest(datetime, ${new Date(now).toISOString()}::timestamptz), updated_at = now()
        where status = 'com erro' returning whatsapp_id
      )
      select whatsapp_id, count(*) as n from u group by whatsapp_id`);
    for (const r of rows) await wakeJob(tx, r.whatsapp_id, now);
    return rows.reduce((s, r) => s + Number(r.n), 0);
  });
  deps.wakeRunner();
  await publishChange(ctx, "update");
  return changed;
}

/** POST /disparos/cancel-pending: every 'a enviar' becomes 'cancelado' (rows already in the outbox go on). */
export async function cancelPending(ctx: AppContext, actor?: AuditActor): Promise<number> {
  const changed = await ctx.db.transaction(async (tx) => {
    await lockAllSettings(tx);
    const { rows } = await tx.execute(sql`
      update disparos set status = 'cancelado', reason = 'cancelado pelo administrador', updated_at = now()
      where status = 'a enviar' returning id`);
    if (actor) await recordAudit(tx, { actor, action: "disparo.cancel", target: "disparos", after: { cancelled: rows.length } });
    return rows.length;
  });
  await publishChange(ctx, "update");
  return changed;
}

/** DELETE /disparos: every disparo removed (messages already stored stay in the contacts' history). */
export async function deleteAllDisparos(ctx: AppContext): Promise<number> {
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockAllSettings(tx);
    const { rows } = await tx.execute<{ n: number | string }>(sql`select coalesce(sum(n), 0) as n from disparo_counts`);
    // one TRUNCATE instead of 100 000 row deletes; the counters go with it
    await tx.execute(sql`truncate disparos`);
    await tx.execute(sql`delete from disparo_counts`);
    return Number(rows[0]?.n ?? 0);
  });
  await publishChange(ctx, "delete");
  return deleted;
}
