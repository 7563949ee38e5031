import { integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";
import { tickets } from "./tickets.js";

/**
 * The bots' state of a ticket, one row per ticket: which step holds the conversation ("menu" while
 * the queue menu waits for a choice, "typebot" while a flow runs), the outside session (Typebot's
 * sessionId), what the step needs to read the next answer (the choice items of a Typebot input)
 * and when the session expires. `paused` is set when a human writes in the ticket: no bot answers
 * there any more.
 */
export const botSessions = pgTable("bot_sessions", {
  ticketId: integer("ticket_id")
    .primaryKey()
    .references(() => tickets.id, { onDelete: "cascade" }),
  step: text("step"),
  sessionId: text("session_id"),
  data: jsonb("data").notNull().default({}),
  expiresAt: timestamp("expires_at", { withTimezone: true }),
  paused: timestamp("paused_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Chat entries (/chatbot): a customer's message equal to the shortcut is answered with the text and image. */
export const chatEntries = pgTable("chat_entries", {
  id: serial("id").primaryKey(),
  shortcut: text("shortcut").notNull(),
  message: text("message").notNull().default(""),
  url: text("url").notNull().default(""),
  ...timestamps,
});

/** Audio entries (/audiobot): voice notes agents and flows can send. */
export const audioEntries = pgTable("audio_entries", {
  id: serial("id").primaryKey(),
  titulo: text("titulo").notNull(),
  url: text("url").notNull().default(""),
  ...timestamps,
});
