import { bigint, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { tickets } from "./tickets.js";
import { users } from "./users.js";

/**
 * Every call to the AI server (suggestions, summaries, transcriptions, the settings' test): who,
 * which ticket, which kind, how many characters left, how long it took and how it ended. Never
 * what was sent or answered.
 */
export const aiCalls = pgTable(
  "ai_calls",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    /** null: the server itself (a transcription job) */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull().default(""),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    messageId: bigint("message_id", { mode: "number" }),
    charsOut: integer("chars_out").notNull().default(0),
    latencyMs: integer("latency_ms").notNull().default(0),
    /** "ok" or the ERR_AI_* code */
    status: text("status").notNull(),
    host: text("host").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ai_calls_created_idx").on(t.createdAt.desc()), index("ai_calls_ticket_idx").on(t.ticketId)],
);
