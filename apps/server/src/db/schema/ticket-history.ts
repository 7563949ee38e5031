import { bigserial, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tickets } from "./tickets.js";

/**
 * One row per ticket status change (created, accepted, transferred, finished, reopened,
 * auto-closed, routed by a bot or the queue menu): who did it, from what to what. Response and
 * resolution times are computed from it.
 */
export const ticketHistory = pgTable(
  "ticket_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    fromQueueId: integer("from_queue_id"),
    queueId: integer("queue_id"),
    fromUserId: integer("from_user_id"),
    userId: integer("user_id"),
    /** user, customer, system or bot */
    actor: text("actor").notNull(),
    /** the user who acted, when actor = user */
    actorUserId: integer("actor_user_id"),
    /** create, accept, reopen, transfer, finish, customer, autoClose, queue, handover */
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ticket_history_ticket_idx").on(t.ticketId, t.createdAt), index("ticket_history_created_idx").on(t.createdAt)],
);
