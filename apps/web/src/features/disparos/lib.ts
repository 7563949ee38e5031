import {
  DISPARO_STATUS_COLORS,
  DISPARO_UNKNOWN_COLOR,
  type DisparoConnection,
  type DisparoStats,
  TEXT_TRUNCATE_LIST,
} from "@balcao/contract";

/** §2: the message cut at 45 characters (the tooltip shows all), a dash when empty. */
export function cut(text: string | null | undefined, max = TEXT_TRUNCATE_LIST): string {
  const t = (text ?? "").trim();
  if (!t) return "-";
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** §2: URLs ending in png, jpg, jpeg, webp or gif are previewed as images. */
export function isImageUrl(url: string): boolean {
  return /\.(png|jpe?g|webp|gif)(\?.*)?$/i.test(url.trim());
}

/** §2: relative URLs are prefixed with the backend address. */
export function absoluteUrl(url: string, origin: string): string {
  const u = url.trim();
  if (/^https?:\/\//i.test(u)) return u;
  return `${origin.replace(/\/$/, "")}/${u.replace(/^\//, "")}`;
}

/** §4: cancelado black, a enviar yellow, com erro red, enviado green, anything else grey. */
export function statusColor(status: string): string {
  return DISPARO_STATUS_COLORS[status] ?? DISPARO_UNKNOWN_COLOR;
}

/** Text on a pill of that colour. */
export function statusTextColor(status: string): string {
  return status === "a enviar" ? "#1a1a1a" : "#ffffff";
}

/** How far the disparos are: done (sent, errors, cancelled) out of all, and what is still to go. */
export function progressOf(s: DisparoStats) {
  const done = s.enviado + s["com erro"] + s.cancelado;
  const total = done + s["a enviar"] + s.enviando;
  return { done, total, percent: total ? Math.round((done / total) * 100) : 0, remaining: s["a enviar"] + s.enviando };
}

/** When the last waiting row should go: the latest of the connections' estimates. */
export function expectedFinish(connections: DisparoConnection[] | undefined): string | null {
  const all = (connections ?? []).map((c) => c.expectedFinishAt).filter((x): x is string => !!x);
  if (!all.length) return null;
  return all.reduce((a, b) => (new Date(a) > new Date(b) ? a : b));
}

/** The loaded page filtered by the search box (§2: message, number, URL; client-side). */
export function searchRows<T extends { message: string; number: string; url: string; rendered?: string | null }>(
  rows: T[],
  term: string,
): T[] {
  const q = term.trim().toLowerCase();
  if (!q) return rows;
  return rows.filter((r) => [r.message, r.rendered ?? "", r.number, r.url].some((v) => v.toLowerCase().includes(q)));
}
