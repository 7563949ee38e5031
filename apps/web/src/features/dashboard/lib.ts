import type { DurationStats, Times } from "@balcao/contract";
import { DASHBOARD_COLORS, P90_MIN_SAMPLES } from "@balcao/contract";

/** §2: the charts cycle six colours. */
export const colorAt = (i: number) => DASHBOARD_COLORS[i % DASHBOARD_COLORS.length];

/** A duration in seconds as people read it: "45 s", "12 min", "1 h 05 min", "2 d 3 h"; "—" when there is none. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || Number.isNaN(seconds)) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${String(min % 60).padStart(2, "0")} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** The p90 is shown only from P90_MIN_SAMPLES samples on (below that it is noise). */
export const p90Of = (s: DurationStats) => (s.count >= P90_MIN_SAMPLES ? s.p90 : null);

export interface TimesRow {
  key: string;
  name: string;
  firstResponse: DurationStats;
  resolution: DurationStats;
}

const NONE: DurationStats = { median: null, p90: null, count: 0 };

/** One row per agent (or queue) with both figures, busiest first. */
export function mergeTimes(frt: Times, res: Times, by: "agent" | "queue", noQueue: string): TimesRow[] {
  const rows = new Map<string, TimesRow>();
  const add = (key: string, name: string, which: "firstResponse" | "resolution", s: DurationStats) => {
    const row = rows.get(key) ?? { key, name, firstResponse: NONE, resolution: NONE };
    row[which] = { median: s.median, p90: s.p90, count: s.count };
    rows.set(key, row);
  };
  if (by === "agent") {
    for (const a of frt.byAgent) add(String(a.userId), a.name, "firstResponse", a);
    for (const a of res.byAgent) add(String(a.userId), a.name, "resolution", a);
  } else {
    for (const q of frt.byQueue) add(String(q.queueId), q.queueId === null ? noQueue : q.name, "firstResponse", q);
    for (const q of res.byQueue) add(String(q.queueId), q.queueId === null ? noQueue : q.name, "resolution", q);
  }
  return [...rows.values()].sort(
    (a, b) => b.firstResponse.count + b.resolution.count - (a.firstResponse.count + a.resolution.count) || a.name.localeCompare(b.name),
  );
}

const csvCell = (v: string | number | null) => {
  const s = v == null ? "" : String(v);
  // a text starting with =, +, -, @, tab or carriage return would be read as a formula by spreadsheets (OWASP)
  const safe = typeof v === "string" && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",;\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The per-agent table as CSV (seconds, so a spreadsheet can compute with them). */
export function timesCsv(rows: TimesRow[], headers: string[]): string {
  const lines = [headers.map(csvCell).join(",")];
  for (const r of rows) {
    lines.push(
      [
        r.name,
        r.firstResponse.median,
        r.firstResponse.p90,
        r.firstResponse.count,
        r.resolution.median,
        r.resolution.p90,
        r.resolution.count,
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** Short weekday names, Monday first, in the screen's language. */
export function weekdayNames(language: string): string[] {
  // 2024-01-01 was a Monday
  return Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(language, { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1 + i))),
  );
}

/** Bytes as GB (or MB below one GB). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  return `${Math.round(bytes / 1024 ** 2)} MB`;
}
