import { DISPARO_PACE_DEFAULTS, type DisparoConnection, type DisparoConnectionUpdateBody } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import { timeZoneOf } from "../settings/service.js";
import { type DisparoDeps, wakeJob } from "./deps.js";
import { publishChange } from "./listing.js";
import { localDate } from "../../lib/zoned-time.js";
import { decidePace, estimateFinish } from "../pacing/pacing.js";
import { capOf, type HealthCapColumns, healthCapSelect, lockSettings, paceOf, type SettingsRow, stateOf } from "../pacing/settings.js";
import { publishHealth, saveHealthSettings } from "../health/service.js";

/**
 * Each connection's pace, sending hours and pause (the `disparo_settings` row, modules/pacing):
 * read for the screen, changed by PUT /disparos/connections/:id.
 */

/** Bulk actions lock every connection's row, in one order, so they never cross a send run. */
export async function lockAllSettings(tx: DbOrTx) {
  await tx.execute(sql`select whatsapp_id from disparo_settings order by whatsapp_id for update`);
}

export async function listConnections(deps: DisparoDeps): Promise<DisparoConnection[]> {
  const db = deps.conv.ctx.db;
  const now = deps.clock.now();
  const zone = await timeZoneOf(db);
  const { rows } = await db.execute<SettingsRow & { id: number; name: string; status: DisparoConnection["connectionStatus"] }>(sql`
    select w.id, w.name, w.status, s.*, ${healthCapSelect(sql`w.id`)}
    from whatsapps w left join disparo_settings s on s.whatsapp_id = w.id
    order by w.id`);
  const { rows: counts } = await db.execute<{ whatsapp_id: number; status: string; n: number | string }>(
    sql`select whatsapp_id, status, n from disparo_counts where status in ('a enviar', 'enviando') and n > 0`,
  );
  return rows.map((r) => {
    const s: SettingsRow = r.whatsapp_id === null ? { ...defaultSettings(r.id), ...healthColumns(r) } : r;
    const pace = paceOf(s, now, zone);
    const cap = capOf(s, now, zone);
    const state = stateOf(s);
    const pending = Number(counts.find((c) => c.whatsapp_id === r.id && c.status === "a enviar")?.n ?? 0);
    const sending = Number(counts.find((c) => c.whatsapp_id === r.id && c.status === "enviando")?.n ?? 0);
    const d = decidePace(pace, state, now, zone, () => 0.5);
    const waiting =
      r.status !== "CONNECTED"
        ? "desconectado"
        : s.paused
          ? "pausado"
          : !d.go && d.why === "window"
            ? "fora do horário"
            : !d.go && d.why === "cap"
              ? "limite diário"
              : "";
    const nextAt = d.go ? now : d.at;
    return {
      whatsappId: r.id,
      name: r.name,
      connectionStatus: r.status,
      ...pace,
      fullDailyCap: cap.full,
      warmupDay: cap.warmupDay,
      paused: s.paused,
      pausedReason: s.paused_reason,
      sentToday: state.day === localDate(now, zone) ? state.dayCount : 0,
      pending,
      sending,
      waiting,
      nextAt: pending ? new Date(nextAt).toISOString() : null,
      expectedFinishAt: pending ? new Date(estimateFinish(pace, state, pending, now, zone)).toISOString() : null,
    };
  });
}

const healthColumns = (r: HealthCapColumns): HealthCapColumns => ({
  health_daily_cap: r.health_daily_cap,
  warmup_enabled: r.warmup_enabled,
  paired_at: r.paired_at,
  connection_type: r.connection_type,
});

function defaultSettings(whatsappId: number): Omit<SettingsRow, keyof HealthCapColumns> {
  return {
    whatsapp_id: whatsappId,
    interval_min_ms: 8000,
    interval_max_ms: 15000,
    pause_every: 20,
    pause_min_ms: 180000,
    pause_max_ms: 360000,
    daily_cap: DISPARO_PACE_DEFAULTS.dailyCap,
    window_start: "",
    window_end: "",
    paused: false,
    paused_reason: "",
    fail_streak: 0,
    next_at: null,
    day: "",
    day_count: 0,
    streak: 0,
  };
}

/** PUT /disparos/connections/:id: the pace, the sending hours, Pausar / Retomar (which also clears a failure pause). */
export async function updateConnection(
  deps: DisparoDeps,
  whatsappId: number,
  body: DisparoConnectionUpdateBody,
): Promise<DisparoConnection> {
  const { ctx } = deps.conv;
  if ((body.windowStart === undefined) !== (body.windowEnd === undefined) || !!body.windowStart !== !!body.windowEnd) {
    throw new AppError("ERR_VALIDATION", 400, { windowEnd: ["Set both or neither"] });
  }
  await ctx.db.transaction(async (tx) => {
    const { rows: conn } = await tx.execute(sql`select id from whatsapps where id = ${whatsappId}`);
    if (!conn.length) throw new AppError("ERR_NO_WAPP_FOUND");
    const cur = await lockSettings(tx, whatsappId);
    const min = body.intervalMinMs ?? cur.interval_min_ms;
    const max = body.intervalMaxMs ?? cur.interval_max_ms;
    if (min > max) throw new AppError("ERR_VALIDATION", 400, { intervalMaxMs: ["Must be at least the minimum"] });
    const pmin = body.pauseMinMs ?? cur.pause_min_ms;
    const pmax = body.pauseMaxMs ?? cur.pause_max_ms;
    if (pmin > pmax) throw new AppError("ERR_VALIDATION", 400, { pauseMaxMs: ["Must be at least the minimum"] });
    const resume = body.paused === false;
    // the daily cap is the connection's own (number health): one setting, whichever screen changes it
    if (body.dailyCap !== undefined) await saveHealthSettings(tx, whatsappId, { dailyCap: body.dailyCap });
    await tx.execute(sql`
      update disparo_settings set
        interval_min_ms = ${min}, interval_max_ms = ${max}, pause_every = ${body.pauseEvery ?? cur.pause_every},
        pause_min_ms = ${pmin}, pause_max_ms = ${pmax},
        window_start = ${body.windowStart ?? cur.window_start}, window_end = ${body.windowEnd ?? cur.window_end},
        paused = ${body.paused ?? cur.paused},
        paused_reason = ${body.paused === true ? "manual" : resume ? "" : cur.paused_reason},
        fail_streak = ${resume ? 0 : cur.fail_streak},
        -- a shorter pace applies at once: the wait decided with the old one is cut to the new maximum
        next_at = case when next_at is null then null
                       else least(next_at, ${new Date(deps.clock.now() + max).toISOString()}::timestamptz) end,
        updated_at = now()
      where whatsapp_id = ${whatsappId}`);
    await wakeJob(tx, whatsappId, deps.clock.now());
  });
  deps.wakeRunner();
  // the health panel and the sender's gate hear the cap at once
  if (body.dailyCap !== undefined) await publishHealth(ctx, whatsappId);
  await publishChange(ctx, "settings");
  const found = (await listConnections(deps)).find((c) => c.whatsappId === whatsappId);
  if (!found) throw new AppError("ERR_NO_WAPP_FOUND");
  return found;
}
