import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import { capToday } from "../health/rules.js";
import type { DisparoPace, PaceState } from "./pacing.js";

/**
 * A connection's unsolicited pace (the `disparo_settings` row: intervals, pauses, daily cap,
 * sending hours, the state of its pace): read by whatever sends unsolicited messages (disparos,
 * the incidents' notices) and locked first by every transaction that changes the connection's
 * unsolicited rows (a send run, an outcome, a bulk action), so they never cross.
 */

export type SettingsRow = {
  whatsapp_id: number;
  interval_min_ms: number;
  interval_max_ms: number;
  pause_every: number;
  pause_min_ms: number;
  pause_max_ms: number;
  daily_cap: number;
  window_start: string;
  window_end: string;
  paused: boolean;
  paused_reason: string;
  fail_streak: number;
  next_at: Date | string | null;
  day: string;
  day_count: number;
  streak: number;
} & HealthCapColumns;

/**
 * The connection's own daily cap, read with the settings row (number health's `connection_health`
 * and the connection's type): the pace's cap is the number's cap today (`capToday`: the
 * connection's `dailyCap`, reduced by the warm-up), the one figure the health panel, the
 * disparos card and the connection form show. `disparo_settings.daily_cap` is no longer read.
 */
export type HealthCapColumns = {
  health_daily_cap: number | null;
  warmup_enabled: boolean | null;
  paired_at: Date | string | null;
  connection_type: string | null;
};

/** The columns of HealthCapColumns, for a query over `disparo_settings` (or `whatsapps`) joined by connection. */
export const healthCapSelect = (whatsappId: ReturnType<typeof sql>) => sql`
  (select cap_h.daily_cap from connection_health cap_h where cap_h.whatsapp_id = ${whatsappId}) as health_daily_cap,
  (select cap_h.warmup_enabled from connection_health cap_h where cap_h.whatsapp_id = ${whatsappId}) as warmup_enabled,
  (select cap_h.paired_at from connection_health cap_h where cap_h.whatsapp_id = ${whatsappId}) as paired_at,
  (select cap_w.type from whatsapps cap_w where cap_w.id = ${whatsappId}) as connection_type`;

/** The number's cap today (and the full one, and the warm-up's day): number health's rule. */
export const capOf = (s: HealthCapColumns, now: number, zone: string) =>
  capToday(
    {
      dailyCap: s.health_daily_cap === null ? null : Number(s.health_daily_cap),
      warmupEnabled: s.warmup_enabled,
      pairedAt: s.paired_at,
      type: s.connection_type,
    },
    now,
    zone,
  );

export const paceOf = (s: SettingsRow, now: number, zone: string): DisparoPace => ({
  intervalMinMs: s.interval_min_ms,
  intervalMaxMs: s.interval_max_ms,
  pauseEvery: s.pause_every,
  pauseMinMs: s.pause_min_ms,
  pauseMaxMs: s.pause_max_ms,
  dailyCap: capOf(s, now, zone).cap,
  windowStart: s.window_start,
  windowEnd: s.window_end,
});
export const stateOf = (s: SettingsRow): PaceState => ({
  nextAt: s.next_at ? new Date(s.next_at).getTime() : null,
  day: s.day,
  dayCount: s.day_count,
  streak: s.streak,
});

/** The connection's settings row (created with the defaults), locked for this transaction. */
export async function lockSettings(tx: DbOrTx, whatsappId: number): Promise<SettingsRow> {
  await tx.execute(sql`insert into disparo_settings (whatsapp_id) values (${whatsappId}) on conflict do nothing`);
  const { rows } = await tx.execute<SettingsRow>(
    sql`select s.*, ${healthCapSelect(sql`s.whatsapp_id`)} from disparo_settings s where s.whatsapp_id = ${whatsappId} for update`,
  );
  if (!rows[0]) throw new AppError("ERR_NO_WAPP_FOUND");
  return rows[0];
}
