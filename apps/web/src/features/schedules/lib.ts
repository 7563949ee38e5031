import type { Schedule } from "@balcao/contract";
import { SCHEDULE_TRUNCATE } from "@balcao/contract";

/** §9: list texts cut at 45 characters. */
export function cut(text: string, max = SCHEDULE_TRUNCATE): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** §2: the search of the screen, on the loaded rows: message, contact number or name, attendant. */
export function searchSchedules(rows: Schedule[], term: string): Schedule[] {
  const q = term.trim().toLowerCase();
  if (!q) return rows;
  const digits = q.replace(/\D/g, "");
  return rows.filter(
    (r) =>
      r.message.toLowerCase().includes(q) ||
      (r.contactName ?? "").toLowerCase().includes(q) ||
      (r.userName ?? "").toLowerCase().includes(q) ||
      (digits.length > 0 && r.customerNumber.includes(digits)),
  );
}

/** §2: Atendente shows the user's name, or 'ID {userId}', or 'ID -'. */
export function attendantOf(r: Pick<Schedule, "userName" | "userId">, idLabel: (id: string) => string): string {
  if (r.userName) return r.userName;
  return idLabel(r.userId === null ? "-" : String(r.userId));
}

/** The date and time a local "YYYY-MM-DD" / "HH:mm" pair means in a time zone, as the dialog's defaults. */
export function localParts(instant: Date, timeZone: string): { date: string; time: string } {
  const f = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** Quando: pt-BR short date and time in the product's time zone. */
export function formatWhen(iso: string, timeZone: string | undefined, locale = "pt-BR"): string {
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "short", timeZone: timeZone || undefined }).format(
      new Date(iso),
    );
  } catch {
    return new Date(iso).toLocaleString(locale);
  }
}
