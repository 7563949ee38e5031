import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tickets } from "./tickets.js";
import { users } from "./users.js";

/**
 * One row per ticket "cycle", for the dashboard's response and resolution times: a cycle starts
 * when a ticket is created or the customer reopens it by writing to it closed, and ends at its
 * first close after that. Kept by triggers on ticket_history and messages (hand-written at the end
 * of the migration), so every writer — inbound pipeline, agents, bots, imports — feeds it:
 * - `customerAt`: the cycle's first customer message;
 * - `replyAt` / `replyUserId` / `replyQueueId`: the first human reply after it (an agent in
 *   Balcão or someone on the paired phone; bot texts do not count), who wrote it, the ticket's queue then;
 * - `endedAt` / `endUserId` / `endQueueId`: the close, with the ticket's agent and queue then.
 */
export const ticketCycles = pgTable(
  "ticket_cycles",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    /** the history row that started it */
    historyId: bigint("history_id", { mode: "number" }).notNull(),
    /** create or customer (the customer reopened it) */
    reason: text("reason").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    queueId: integer("queue_id"),
    customerAt: timestamp("customer_at", { withTimezone: true }),
    replyAt: timestamp("reply_at", { withTimezone: true }),
    replyUserId: integer("reply_user_id"),
    replyQueueId: integer("reply_queue_id"),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endUserId: integer("end_user_id"),
    endQueueId: integer("end_queue_id"),
  },
  (t) => [
    index("ticket_cycles_started_idx").on(t.startedAt),
    /** the cycle a new message or close belongs to */
    index("ticket_cycles_open_idx").on(t.ticketId).where(sql`${t.endedAt} is null`),
  ],
);

/**
 * Who handled which ticket, and when last: the dashboard's "Top atendentes". One row per (agent,
 * ticket), kept by a trigger on ticket_history (hand-written at the end of its migration): the
 * agent a ticket went to (accepted, reopened, transferred or handed over to them), the agent it was
 * closed with (Finalizar, or auto-closed while theirs) and the agent who passed it on (a transfer,
 * back to waiting). A period's count is a range on `handledAt`: every period ends now.
 */
export const ticketAgents = pgTable(
  "ticket_agents",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    handledAt: timestamp("handled_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.ticketId] })],
);
