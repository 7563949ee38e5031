import { eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import type { SessionUser } from "../../context.js";
import { tickets } from "../../db/schema/index.js";

/**
 * Who sees what, below the modules that need it: tickets (lists, actions), contacts (a contact is
 * visible through its tickets), messages, the realtime rooms. Imports no module.
 */

/**
 * Who may see (and act on) a ticket: admins all; others their own tickets, the tickets of their
 * queues, and tickets not yet routed to a queue (as the original client shows them).
 */
export function canSee(
  user: Pick<SessionUser, "id" | "profile" | "queueIds">,
  t: { queueId: number | null; userId: number | null },
): boolean {
  if (user.profile === "admin") return true;
  if (t.userId === user.id) return true;
  if (t.queueId === null) return true;
  return user.queueIds.includes(t.queueId);
}

/** The same rule as SQL, for lists. */
export function visibleTo(user: SessionUser): SQL | undefined {
  if (user.profile === "admin") return undefined;
  return or(
    eq(tickets.userId, user.id),
    isNull(tickets.queueId),
    user.queueIds.length ? inArray(tickets.queueId, user.queueIds) : undefined,
  );
}
