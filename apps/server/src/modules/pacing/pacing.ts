import { addLocalDays, localDate, wallTime, zonedToUtc } from "../../lib/zoned-time.js";

/**
 * Whether a connection's next disparo may go now, and when otherwise. Pure: the job passes the
 * pace, the stored state, the time and the product's time zone; randomness comes in as a function
 * so the jitter can be pinned in tests. The outbox still sends at the number's own pace on top.
 *
 * Order of the checks: sending hours (when set), the daily cap (rows taken on the local day), then
 * the interval decided when the previous row was taken (8–15 s jittered by default, a longer pause
 * after every `pauseEvery` rows).
 */

export interface DisparoPace {
  intervalMinMs: number;
  intervalMaxMs: number;
  /** a longer pause after this many rows (0: never) */
  pauseEvery: number;
  pauseMinMs: number;
  pauseMaxMs: number;
  /** rows a local day (0: none) */
  dailyCap: number;
  /** "HH:MM" each; both empty: any time. A window may cross midnight (22:00–06:00). */
  windowStart: string;
  windowEnd: string;
}

export interface PaceState {
  /** when the next row may go (decided when the previous one was taken) */
  nextAt: number | null;
  /** the local day (YYYY-MM-DD) dayCount counts */
  day: string;
  dayCount: number;
  /** rows since the last long pause */
  streak: number;
}

export type Waiting = "pace" | "window" | "cap";

export type PaceDecision = { go: true; state: PaceState } | { go: false; at: number; why: Waiting };

const minutesOf = (hhmm: string): number | undefined => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
};

/** The instant of local "HH:MM" on the local day `days` after now's. */
function atLocal(now: number, days: number, minutes: number, zone: string): number {
  const midnight = addLocalDays(new Date(now), days, zone);
  const w = wallTime(midnight, zone);
  return zonedToUtc({ year: w.year, month: w.month, day: w.day, hour: Math.floor(minutes / 60), minute: minutes % 60 }, zone).getTime();
}

/** Whether `now` is inside the sending hours; when not, the next time they open. */
export function windowCheck(
  pace: Pick<DisparoPace, "windowStart" | "windowEnd">,
  now: number,
  zone: string,
): { open: true } | { open: false; opensAt: number } {
  const start = minutesOf(pace.windowStart);
  const end = minutesOf(pace.windowEnd);
  if (start === undefined || end === undefined || start === end) return { open: true };
  const w = wallTime(new Date(now), zone);
  const m = w.hour * 60 + w.minute;
  const inside = start < end ? m >= start && m < end : m >= start || m < end;
  if (inside) return { open: true };
  // before today's start (or, for a window crossing midnight, between its end and its start): today; else tomorrow
  const today = m < start;
  return { open: false, opensAt: atLocal(now, today ? 0 : 1, start, zone) };
}

const between = (min: number, max: number, random: () => number) =>
  Math.round(Math.min(min, max) + Math.min(1, Math.max(0, random())) * Math.abs(max - min));

export function decidePace(pace: DisparoPace, state: PaceState, now: number, zone: string, random: () => number): PaceDecision {
  const win = windowCheck(pace, now, zone);
  if (!win.open) return { go: false, at: win.opensAt, why: "window" };
  const day = localDate(now, zone);
  const dayCount = state.day === day ? state.dayCount : 0;
  if (pace.dailyCap > 0 && dayCount >= pace.dailyCap) {
    const tomorrow = addLocalDays(new Date(now), 1, zone).getTime();
    const opens = windowCheck(pace, tomorrow, zone);
    return { go: false, at: opens.open ? tomorrow : opens.opensAt, why: "cap" };
  }
  if (state.nextAt !== null && state.nextAt > now) return { go: false, at: state.nextAt, why: "pace" };
  const streak = state.streak + 1;
  const longPause = pace.pauseEvery > 0 && streak >= pace.pauseEvery;
  const gap = longPause ? between(pace.pauseMinMs, pace.pauseMaxMs, random) : between(pace.intervalMinMs, pace.intervalMaxMs, random);
  return { go: true, state: { nextAt: now + gap, day, dayCount: dayCount + 1, streak: longPause ? 0 : streak } };
}

/**
 * When `remaining` rows should be done at this pace (average jitter), from `now`: day by day (the
 * time zone is asked a few times a day, not once a row), each day's open hours filled at the
 * average interval and pauses up to the cap. Past `maxDays` the rest is extrapolated at the rate
 * simulated so far (100 000 rows at 500 a day is a matter of months, not of the minute).
 */
export function estimateFinish(pace: DisparoPace, state: PaceState, remaining: number, now: number, zone: string, maxDays = 30): number {
  if (remaining <= 0) return now;
  const total = remaining;
  let days = 0;
  const gap = (pace.intervalMinMs + pace.intervalMaxMs) / 2;
  const pause = (pace.pauseMinMs + pace.pauseMaxMs) / 2;
  const start = minutesOf(pace.windowStart);
  const end = minutesOf(pace.windowEnd);
  const windowed = start !== undefined && end !== undefined && start !== end;
  let t = Math.max(now, state.nextAt ?? now);
  let streak = state.streak;
  let day = state.day;
  let count = state.dayCount;
  let last = now;
  for (let guard = 0; remaining > 0 && guard < 20_000; guard++) {
    const w = wallTime(new Date(t), zone);
    const at = (minutes: number) =>
      zonedToUtc({ year: w.year, month: w.month, day: w.day, hour: Math.floor(minutes / 60), minute: minutes % 60 }, zone).getTime();
    const dayStart = at(0);
    const nextDay = addLocalDays(new Date(t), 1, zone).getTime();
    const key = localDate(t, zone);
    if (key !== day) {
      day = key;
      count = 0;
      if (++days > maxDays) break;
    }
    // the span of the day t is in: the whole day, the window, or (a window crossing midnight) its morning or evening part
    let open = dayStart;
    let close = nextDay;
    if (windowed && start < end) [open, close] = [at(start), at(end)];
    else if (windowed) [open, close] = t < at(end) ? [dayStart, at(end)] : [at(start), nextDay];
    if (t < open) t = open;
    if (t >= close) {
      t = nextDay;
      continue;
    }
    while (remaining > 0 && t < close && (pace.dailyCap <= 0 || count < pace.dailyCap)) {
      last = t;
      remaining--;
      count++;
      streak++;
      const long = pace.pauseEvery > 0 && streak >= pace.pauseEvery;
      if (long) streak = 0;
      t += long ? pause : gap;
    }
    if (remaining > 0 && pace.dailyCap > 0 && count >= pace.dailyCap) t = Math.max(t, nextDay);
  }
  const done = total - remaining;
  // what is left goes at the days' rate seen so far (a day's rows come in a burst, then the day ends)
  if (remaining > 0 && done > 0) return Math.round(last + (remaining / (done / maxDays)) * 86_400_000);
  return last;
}
