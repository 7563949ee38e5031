import { PREVIEW_LENGTH, type Ticket, type TicketStatus } from "@balcao/contract";

/** What one list asks the server for; the same rules decide whether a live ticket belongs in it. */
export interface TicketFilter {
  status?: TicketStatus;
  isGroup?: boolean;
  searchParam: string;
  showAll: boolean;
  queueIds: number[];
  userId?: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** HH:mm for today, dd/MM/yyyy otherwise. */
export function listTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  if (d.toDateString() === now.toDateString()) return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return dayLabel(d);
}

export function dayLabel(d: Date): string {
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

export function clock(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The last-message preview: one line, cut to 20 characters. */
export function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > PREVIEW_LENGTH ? `${oneLine.slice(0, PREVIEW_LENGTH)}…` : oneLine;
}

/**
 * Whether a ticket belongs in a list (mirrors the server's rules, so a live event can insert,
 * move or drop it without a refetch). Searches only update tickets they already hold.
 */
export function belongsTo(t: Ticket, f: TicketFilter, me: number): boolean {
  if (f.status && t.status !== f.status) return false;
  if (f.isGroup !== undefined && t.isGroup !== f.isGroup) return false;
  if (f.queueIds.length && t.queueId !== null && !f.queueIds.includes(t.queueId)) return false;
  if (f.userId && t.userId !== f.userId) return false;
  if (!f.showAll && !f.searchParam && t.userId !== me && t.status !== "pending") return false;
  return true;
}

export const byUpdatedDesc = (a: Ticket, b: Ticket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;
