import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * How many tickets there are per status, queue, agent and kind (group or not): what the lists'
 * `count` needs, without counting thousands of live tickets on every request (on a busy inbox
 * their rows change all the time, so an index-only count still visits the table).
 *
 * Kept by triggers on tickets (hand-written at the end of the migration): every insert, delete and
 * change of one of these four columns appends its -1 / +1 to `ticket_count_changes` in the writer's
 * transaction (appends never wait on each other), and a recurring job folds the changes into
 * `ticket_counts` (`modules/tickets/counts.ts`). A count is the sum over both, under the request's
 * own conditions on those columns: exact, as of its snapshot.
 */
export const ticketCounts = pgTable(
  "ticket_counts",
  {
    status: text("status").notNull(),
    queueId: integer("queue_id"),
    userId: integer("user_id"),
    isGroup: boolean("is_group").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [uniqueIndex("ticket_counts_key").on(t.status, sql`coalesce(${t.queueId}, 0)`, sql`coalesce(${t.userId}, 0)`, t.isGroup)],
);

/** Changes not yet folded into ticket_counts (see above). */
export const ticketCountChanges = pgTable("ticket_count_changes", {
  status: text("status").notNull(),
  queueId: integer("queue_id"),
  userId: integer("user_id"),
  isGroup: boolean("is_group").notNull(),
  n: integer("n").notNull(),
});
