import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { contacts } from "./contacts.js";
import { messages } from "./messages.js";
import { whatsapps } from "./whatsapps.js";

/**
 * Disparos: bulk messages, one row per recipient. A row waits as 'a enviar' until the connection's
 * disparo job takes it (in one transaction with its message stored in the outbox: 'enviando'),
 * then becomes 'enviado' when the channel took the message, or 'com erro' with the reason.
 * 'cancelado' rows were cancelled by an admin or by the contact's opt-out.
 */
export const disparos = pgTable(
  "disparos",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    /** digits with country code */
    number: text("number").notNull(),
    /** the contact of the number, when known (at creation, or once sent) */
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    /** the recipient's name from the CSV's `nome` column (or a JSON row's `name`): {nome} and {primeiro_nome} when set */
    name: text("name").notNull().default(""),
    /** the message as written: variables and spintax are rendered when the row is sent */
    message: text("message").notNull().default(""),
    /** the text sent (rendered once, seeded by the row's id) */
    rendered: text("rendered"),
    url: text("url").notNull().default(""),
    mimetype: text("mimetype").notNull().default(""),
    /** the stored media sent with the message (an uploaded file, or one of our /media/ URLs) */
    mediaKey: text("media_key"),
    status: text("status", { enum: ["a enviar", "enviando", "enviado", "com erro", "cancelado"] })
      .notNull()
      .default("a enviar"),
    reason: text("reason").notNull().default(""),
    /** the message stored for it in the contact's history (set when taken) */
    messageId: bigint("message_id", { mode: "number" }).references(() => messages.id, { onDelete: "set null" }),
    /** when it may go: the start time chosen, or the creation time */
    datetime: timestamp("datetime", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** the request that created it (rows of one campaign share it) */
    batchId: text("batch_id").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    /** GET /disparos: newest first, all rows or one status, with a date range */
    index("disparos_datetime_idx").on(t.datetime.desc(), t.id.desc()),
    index("disparos_status_datetime_idx").on(t.status, t.datetime.desc(), t.id.desc()),
    /** the job's take: a connection's oldest due row */
    index("disparos_due_idx").on(t.whatsappId, t.datetime, t.id).where(sql`${t.status} = 'a enviar'`),
    /** rows waiting for their message's outcome (the outbox events and the reconcile) */
    index("disparos_sending_idx").on(t.messageId).where(sql`${t.status} = 'enviando'`),
    /** an opt-out cancels the contact's waiting rows */
    index("disparos_number_idx").on(t.number).where(sql`${t.status} = 'a enviar'`),
  ],
);

/**
 * Rows per connection and status, kept by statement triggers on `disparos` (hand-written SQL in the
 * migration): GET /disparos/stats and the screen's cards read a handful of rows, not 100 000.
 */
export const disparoCounts = pgTable(
  "disparo_counts",
  {
    whatsappId: integer("whatsapp_id").notNull(),
    status: text("status").notNull(),
    n: bigint("n", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.status] })],
);

/**
 * A connection's disparo pace (safe defaults: one every 8–15 s, a longer pause every 20, 500 a
 * day, sending hours off until set), its pause, and the pace's state: when the next row may go,
 * how many went today (local day) and since the last long pause, the failures in a row.
 * The job of the connection locks this row for each decision.
 */
export const disparoSettings = pgTable("disparo_settings", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: "cascade" }),
  intervalMinMs: integer("interval_min_ms").notNull().default(8_000),
  intervalMaxMs: integer("interval_max_ms").notNull().default(15_000),
  pauseEvery: integer("pause_every").notNull().default(20),
  pauseMinMs: integer("pause_min_ms").notNull().default(180_000),
  pauseMaxMs: integer("pause_max_ms").notNull().default(360_000),
  dailyCap: integer("daily_cap").notNull().default(500),
  /** "HH:MM" in the product's time zone; empty: any time */
  windowStart: text("window_start").notNull().default(""),
  windowEnd: text("window_end").notNull().default(""),
  paused: boolean("paused").notNull().default(false),
  /** "manual" or "falhas" */
  pausedReason: text("paused_reason").notNull().default(""),
  failStreak: integer("fail_streak").notNull().default(0),
  nextAt: timestamp("next_at", { withTimezone: true }),
  /** local date (YYYY-MM-DD) the day count is of */
  day: text("day").notNull().default(""),
  dayCount: integer("day_count").notNull().default(0),
  /** rows taken since the last long pause */
  streak: integer("streak").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Contacts who answered an opt-out word: no disparo reaches them (rows for them are created cancelled). */
export const contactOptOuts = pgTable("contact_opt_outs", {
  contactId: integer("contact_id")
    .primaryKey()
    .references(() => contacts.id, { onDelete: "cascade" }),
  /** what the customer wrote */
  word: text("word").notNull().default(""),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
