import { DEFAULT_DAILY_CAP, WARMUP_DAYS, warmupCap } from "@balcao/contract";
import { addLocalDays, localDate } from "../../lib/zoned-time.js";

/** The pure rules of a number's health: today's cap (the warm-up), the local day, ban signals. */

/** When the local day after `now`'s begins. */
export function nextLocalMidnight(now: number, zone: string): number {
  return addLocalDays(new Date(now), 1, zone).getTime();
}

const dayNumber = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000;

/**
 * Today's cap of unsolicited sends and the warm-up day: with the warm-up on and a QR pairing on
 * record, day 1 is the pairing's local day and the cap follows `warmupCap` until day WARMUP_DAYS;
 * otherwise (off, warmed up, never paired by QR code, a simulator: no real number to protect) the
 * full cap. The one figure of a number's daily limit: the sender's gate, the health panel, the
 * disparo pace (modules/pacing) and the connection list all answer it.
 */
export function capToday(
  s: { dailyCap: number | null; warmupEnabled: boolean | null; pairedAt: Date | string | null; type?: string | null },
  now: number,
  zone: string,
): { cap: number; full: number; warmupDay: number | null } {
  const full = s.dailyCap ?? DEFAULT_DAILY_CAP;
  if (s.warmupEnabled === false || !s.pairedAt || s.type === "simulator") return { cap: full, full, warmupDay: null };
  const day = dayNumber(localDate(now, zone)) - dayNumber(localDate(new Date(s.pairedAt), zone)) + 1;
  if (day > WARMUP_DAYS) return { cap: full, full, warmupDay: null };
  return { cap: warmupCap(full, day), full, warmupDay: Math.max(1, day) };
}

/**
 * A session's reason that says WhatsApp refused the number: the phone or WhatsApp removed the
 * device (Baileys' loggedOut, 401), the number is forbidden (403), or a channel's error naming
 * 401/403 or a ban. An admin's own 'Desconectar' ("logged out") is not one.
 */
export function isBanSignal(reason: string | undefined): boolean {
  if (!reason) return false;
  if (reason === "loggedOut" || reason === "forbidden") return true;
  return /\b(401|403)\b|\bbann?ed\b|\bbanid[oa]\b/i.test(reason);
}

/** A final send failure that says the customer's phone does not take the number's messages. */
export function isRefusal(reason: string, permanent: boolean): boolean {
  return permanent && !/media file missing|no address/i.test(reason);
}
