import { z } from "zod";
import { idSchema } from "./validation.js";

/**
 * A number's health (GET /whatsapp/{id}/health, the panel on its connection card): unsolicited
 * sends today against its daily cap (warm-up included), failures, refusals and disconnects in the
 * last 24 h, when it was paired, and whether its unsolicited sends are paused by a ban signal.
 */

/** A warm-up lasts this many local days, the pairing day being day 1. */
export const WARMUP_DAYS = 14;
/** The cap of the pairing day (the daily cap when that is lower). */
export const WARMUP_FIRST_DAY_CAP = 20;
/** Final send failures within HEALTH_FAILURE_WINDOW_MINUTES that pause the number's unsolicited sends. */
export const HEALTH_FAILURE_BURST = 10;
export const HEALTH_FAILURE_WINDOW_MINUTES = 15;
/** Customers refusing the number (a phone that does not take its messages, an opt-out) in 24 h that pause it. */
export const HEALTH_BLOCK_LIMIT = 10;
export const DEFAULT_DAILY_CAP = 1000;

/**
 * The daily cap of unsolicited sends on `day` (1 = the pairing day) of a warm-up: it grows
 * geometrically from WARMUP_FIRST_DAY_CAP on day 1 to the full cap on day WARMUP_DAYS (with a cap
 * of 1000: 20, 27, 37, 49, 67, 90, 122, 164, 222, 300, 405, 548, 740, 1000); past it, the full cap.
 */
export function warmupCap(dailyCap: number, day: number): number {
  if (day >= WARMUP_DAYS) return dailyCap;
  const first = Math.min(WARMUP_FIRST_DAY_CAP, dailyCap);
  const d = Math.max(1, Math.floor(day));
  return Math.min(dailyCap, Math.round(first * (dailyCap / first) ** ((d - 1) / (WARMUP_DAYS - 1))));
}

/** Why a number's unsolicited sends were paused (a session reason such as loggedOut or forbidden, or one of these). */
export const HEALTH_PAUSE_FAILURES = "falhas";
export const HEALTH_PAUSE_BLOCKS = "bloqueios";

export const connectionEventSchema = z.object({
  at: z.string(),
  /** status | disconnect | failure | block | pause | resume */
  kind: z.string(),
  status: z.string(),
  reason: z.string(),
});
export type ConnectionEvent = z.infer<typeof connectionEventSchema>;

export const connectionHealthSchema = z.object({
  whatsappId: z.number(),
  /** unsolicited sends (to chats quiet for 24 h) this local day */
  sentToday: z.number(),
  /** today's cap of unsolicited sends (the warm-up's while it lasts) */
  dailyCap: z.number(),
  /** the cap once warmed up (the connection's setting) */
  fullDailyCap: z.number(),
  warmupEnabled: z.boolean(),
  /** the day of the warm-up (1 = the pairing day) while it lasts; null when warmed up, off or never paired by QR code */
  warmupDay: z.number().nullable(),
  failures24h: z.number(),
  /** customers refusing the number in 24 h: phones that do not take its messages, opt-outs */
  blocks24h: z.number(),
  disconnects24h: z.number(),
  pairedAt: z.string().nullable(),
  paused: z.boolean(),
  pausedReason: z.string(),
  pausedAt: z.string().nullable(),
  backupWhatsappId: z.number().nullable(),
  backupName: z.string().nullable(),
  /** unsolicited sends go through the backup now (this number is down or paused, the backup is up) */
  backupActive: z.boolean(),
  /** the latest disconnects, pauses and resumes, newest first */
  recent: z.array(connectionEventSchema),
});
export type ConnectionHealth = z.infer<typeof connectionHealthSchema>;

/** The health settings a connection takes (POST/PUT /whatsapp). */
export const healthSettingsFields = {
  /** while this connection is down or paused, its unsolicited sends go through this one (null: none) */
  backupWhatsappId: idSchema.nullable(),
  /** unsolicited sends a local day, once warmed up */
  dailyCap: z.number().int().min(1).max(100_000),
  /** a new number's cap grows over its first two weeks */
  warmupEnabled: z.boolean(),
};

/** The `whatsappHealth` socket event (admins): a number's health changed; `alert` when it was just paused. */
export interface WhatsappHealthEvent {
  whatsappId: number;
  health: ConnectionHealth;
  alert?: { reason: string; name: string };
}
