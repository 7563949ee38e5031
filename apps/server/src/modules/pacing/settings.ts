import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
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
};

export const paceOf = (s: SettingsRow): DisparoPace => ({
  intervalMinMs: s.interval_min_ms,
  intervalMaxMs: s.interval_max_ms,
  pauseEvery: s.pause_every,
  pauseMinMs: s.pause_min_ms,
  pauseMaxMs: s.pause_max_ms,
  dailyCap: s.daily_cap,
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
  const { rows } = await tx.execute<SettingsRow>(sql`select * from disparo_settings where whatsapp_id = ${whatsappId} for update`);
  if (!rows[0]) throw new AppError("ERR_NO_WAPP_FOUND");
  return rows[0];
}
