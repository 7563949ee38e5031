import { PREVIEW_LENGTH, type Ticket, type TicketStatus } from "@balcao/contract";

/** What one list asks the server for; the same rules decide whether a live ticket belongs in it. */
export interface TicketFilter {
  status?: TicketStatus;
  isGroup?: boolean;
  searchParam: string;
  showAll: boolean;
  queueIds: number[];
  userId?: number;
  /** the tickets linked to an incident (outage mode) */
  incidentId?: number;
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
  if (f.incidentId && !(t.incidentIds ?? []).includes(f.incidentId)) return false;
  if (!f.showAll && !f.searchParam && t.userId !== me && t.status !== "pending") return false;
  return true;
}

export const byUpdatedDesc = (a: Ticket, b: Ticket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/**
 * A live ticket (a socket event carries no list fields) keeps what the list last said of it: its
 * queue position while it still waits in the same queue, and its incidents.
 */
export function withListFields(t: Ticket, cached: Ticket | undefined): Ticket {
  if (!cached) return t;
  const stillWaiting = t.status === "pending" && t.userId === null && t.queueId !== null && t.queueId === cached.queueId;
  return {
    ...t,
    queuePosition: t.queuePosition !== undefined ? t.queuePosition : stillWaiting ? (cached.queuePosition ?? null) : null,
    incidentIds: t.incidentIds ?? cached.incidentIds,
  };
}
