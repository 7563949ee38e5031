import { AppError } from "./errors.js";

/**
 * Wall-clock time in the product's time zone (a setting, default America/Sao_Paulo), with the
 * platform's Intl data only: what "today", "this week" (from Monday) and "2026-11-23T09:30:00"
 * mean for the people using the inbox, whatever the server's own zone is.
 */

export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 1 = Monday … 7 = Sunday */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** Whether the platform knows this IANA time zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time an instant shows in a time zone. */
export function wallTime(instant: Date, timeZone: string): WallTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday] ?? 1,
  };
}

/** The local date an instant (a Date or epoch ms) falls on, "YYYY-MM-DD" (23:30 in São Paulo is still that day, not UTC's next). */
export function localDate(instant: Date | number, timeZone: string): string {
  const w = wallTime(typeof instant === "number" ? new Date(instant) : instant, timeZone);
  return `${String(w.year).padStart(4, "0")}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/** Minutes the zone is ahead of UTC at that instant (São Paulo: -180). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const w = wallTime(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time names in a zone. A time skipped by a DST jump is read with the
 * offset from before the jump (it lands just after it); a repeated one takes the first.
 */
export function zonedToUtc(
  w: Pick<WallTime, "year" | "month" | "day"> & Partial<Pick<WallTime, "hour" | "minute" | "second">>,
  timeZone: string,
): Date {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour ?? 0, w.minute ?? 0, w.second ?? 0);
  // two passes settle the offset around a transition
  let guess = asUtc - offsetMinutes(new Date(asUtc), timeZone) * 60_000;
  guess = asUtc - offsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?)?$/;
const WITH_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date or date-time as the spec's clients send them: "YYYY-MM-DD", "YYYY-MM-DDTHH:mm[:ss]" in
 * the product's zone, or with an explicit offset ("Z", "-03:00"), which wins. Undefined when it
 * is not one of those or names no real day.
 */
export function parseLocalDateTime(value: string, timeZone: string): Date | undefined {
  const v = value.trim();
  if (WITH_OFFSET.test(v) && /^\d{4}-\d{2}-\d{2}T/.test(v)) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  const m = LOCAL.exec(v);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  // 2026-02-30 does not exist
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1) return undefined;
  return zonedToUtc({ year, month, day, hour, minute, second }, timeZone);
}

/** Local midnight of the day an instant falls on. */
export function startOfLocalDay(instant: Date, timeZone: string): Date {
  const w = wallTime(instant, timeZone);
  return zonedToUtc({ year: w.year, month: w.month, day: w.day }, timeZone);
}

/** Local midnight of the Monday of the week an instant falls in. */
export function startOfLocalWeek(instant: Date, timeZone: string): Date {
  const w = wallTime(instant, timeZone);
  const monday = new Date(Date.UTC(w.year, w.month - 1, w.day - (w.weekday - 1)));
  return zonedToUtc({ year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate() }, timeZone);
}

/** Local midnight of the first day of the month an instant falls in. */
export function startOfLocalMonth(instant: Date, timeZone: string): Date {
  const w = wallTime(instant, timeZone);
  return zonedToUtc({ year: w.year, month: w.month, day: 1 }, timeZone);
}

/** Local midnight `days` days after the local day of an instant (negative: before). */
export function addLocalDays(instant: Date, days: number, timeZone: string): Date {
  const w = wallTime(instant, timeZone);
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return zonedToUtc({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, timeZone);
}

/**
 * A screen's day filter (documents 001 §5): `from` "…T00:00:00" inclusive; `to` "…T23:59:59" through
 * the end of that second (a bare date: through the end of that day). In the product's zone; a bad
 * value is a 400 naming the field.
 */
export function dayBound(value: string | undefined, zone: string, end: boolean): Date | undefined {
  if (!value) return undefined;
  const d = parseLocalDateTime(value, zone);
  if (!d) throw new AppError("ERR_VALIDATION", 400, { [end ? "to" : "from"]: ["Invalid date"] });
  if (!end) return d;
  return new Date(d.getTime() + (/[T ]\d{2}:\d{2}/.test(value) ? 1000 : 86_400_000));
}
