import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { DISPARO_PAUSE_REASON } from "../health/service.js";
import { wakeJob } from "./deps.js";
import { publishChange } from "./listing.js";
import { lockSettings } from "../pacing/settings.js";

/**
 * What number health means for disparos, done by disparos (health decides and announces; it does
 * not write these rows): a number paused by health pauses its disparos with the reason "saúde";
 * resumed, those resume and go on; down or paused with a backup up, its waiting rows move to the
 * backup. Each follows an event (`whatsapp.health`, `whatsapp.reroute`) and the minute's sweep
 * sets right what an event missed (a process that died between the two).
 */

/** The connection's disparos paused or resumed as its health is; answers whether anything changed. */
export async function followHealth(ctx: AppContext, whatsappId: number, now: number): Promise<boolean> {
  const changed = await ctx.db.transaction(async (tx) => {
    const cfg = await lockSettings(tx, whatsappId);
    const { rows } = await tx.execute<{ paused: boolean }>(sql`select paused from connection_health where whatsapp_id = ${whatsappId}`);
    const healthPaused = rows[0]?.paused === true;
    if (healthPaused && !cfg.paused) {
      await tx.execute(sql`
        update disparo_settings set paused = true, paused_reason = ${DISPARO_PAUSE_REASON}, updated_at = now() where whatsapp_id = ${whatsappId}`);
      return true;
    }
    if (!healthPaused && cfg.paused && cfg.paused_reason === DISPARO_PAUSE_REASON) {
      await tx.execute(sql`
        update disparo_settings set paused = false, paused_reason = '', fail_streak = 0, updated_at = now() where whatsapp_id = ${whatsappId}`);
      await wakeJob(tx, whatsappId, now);
      return true;
    }
    return false;
  });
  if (changed) await publishChange(ctx, "update");
  return changed;
}

/** The connections whose disparos are not as their health says (the minute's sweep). */
export async function outOfStep(ctx: AppContext): Promise<number[]> {
  const { rows } = await ctx.db.execute<{ whatsapp_id: number }>(sql`
    select h.whatsapp_id from connection_health h left join disparo_settings d on d.whatsapp_id = h.whatsapp_id
    where (h.paused and not coalesce(d.paused, false))
       or (not h.paused and coalesce(d.paused, false) and d.paused_reason = ${DISPARO_PAUSE_REASON})
    order by h.whatsapp_id`);
  return rows.map((r) => Number(r.whatsapp_id));
}

/** The number's waiting rows move to its backup; answers how many. */
export async function moveToBackup(ctx: AppContext, from: number, to: number, now: number): Promise<number> {
  const moved = await ctx.db.transaction(async (tx) => {
    // the two settings rows in id order, as every disparo transaction locks them
    for (const id of [from, to].sort((a, b) => a - b)) await lockSettings(tx, id);
    const { rows } = await tx.execute(sql`
      update disparos set whatsapp_id = ${to}, updated_at = now()
      where whatsapp_id = ${from} and status = 'a enviar' returning id`);
    if (rows.length) await wakeJob(tx, to, now);
    return rows.length;
  });
  if (moved) {
    ctx.log.info({ whatsappId: from, backup: to, moved }, "number health: disparos moved to the backup connection");
    await publishChange(ctx, "update");
  }
  return moved;
}
