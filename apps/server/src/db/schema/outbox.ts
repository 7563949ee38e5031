import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { messages } from "./messages.js";
import { whatsapps } from "./whatsapps.js";

/**
 * Messages waiting to go out. A row is written in the same transaction as its message (stored
 * first, with the channel id chosen then) and removed once the channel took it. A message that
 * could not be sent keeps its row, marked failed (its reason is on the message), until an agent
 * sends it again ('Reenviar') or it is deleted. The sender of the connection claims rows in order
 * per chat, by priority: a live chat's rows at once, a quiet chat's at the number's pace.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    /** The chat the message goes to (number, LID or group id): rows of one chat go out in order. */
    chat: text("chat").notNull(),
    /** 0 agent, 1 bot and automatic texts, 2 schedules and the API, 3 disparos: lower goes first. */
    priority: smallint("priority").notNull(),
    /** The channel message id the message was stored with; every attempt sends with it. */
    wid: text("wid").notNull(),
    /** The address and what to send (media by stored key), so a send never depends on later edits. */
    payload: jsonb("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** after a failed attempt: not before this time (null: due at once) */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /** Set while a sender holds the row; an expired lease (a crashed sender) makes it claimable again. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    /** set when the message could not be sent: the row waits for 'Reenviar' and holds nothing back */
    failedAt: timestamp("failed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("outbox_message_key").on(t.messageId),
    index("outbox_next_idx").on(t.whatsappId, t.priority, t.id).where(sql`${t.failedAt} is null`),
    index("outbox_chat_idx").on(t.whatsappId, t.chat, t.id).where(sql`${t.failedAt} is null`),
  ],
);

/** Answers of requests that carried an Idempotency-Key: the same key within 24 h answers the first result. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** whose key: "user:<id>" or "token:<whatsappId>" */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** what the first request produced (e.g. its message ids) */
    result: jsonb("result"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("idempotency_keys_pkey_idx").on(t.scope, t.key), index("idempotency_keys_created_idx").on(t.createdAt)],
);
