import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every inbound channel event (message, ack, edit, delete, call), written as the channel layer's
 * first step and marked done in the same transaction as its effects. Undone rows are processed
 * again at start, in order per chat. No foreign key: an event outlives a deleted connection only
 * until it is processed (and then does nothing).
 */
export const inboundEvents = pgTable(
  "inbound_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    whatsappId: integer("whatsapp_id").notNull(),
    /** ordering key: events of one chat are processed in id order */
    chat: text("chat").notNull(),
    type: text("type").notNull(),
    event: jsonb("event").notNull(),
    state: text("state", { enum: ["pending", "done", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    index("inbound_events_pending_idx").on(t.id).where(sql`${t.state} = 'pending'`),
    index("inbound_events_done_idx").on(t.doneAt).where(sql`${t.state} = 'done'`),
  ],
);
