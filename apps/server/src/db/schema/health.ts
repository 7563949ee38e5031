import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { whatsapps } from "./whatsapps.js";

/**
 * A number's health (modules/health): its send settings (backup connection, daily cap of
 * unsolicited sends, warm-up), when it was paired, and the pause of its unsolicited sends after a
 * ban signal. One row per connection, written on first need (a connection without one has the
 * defaults and no pairing date: no warm-up).
 */
export const connectionHealth = pgTable("connection_health", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: "cascade" }),
  /** while this connection is down or paused, its unsolicited sends go through this one */
  backupWhatsappId: integer("backup_whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
  /** unsolicited sends a local day, once warmed up */
  dailyCap: integer("daily_cap").notNull().default(1000),
  /** a newly paired number's cap grows over its first two weeks (packages/contract warmupCap) */
  warmupEnabled: boolean("warmup_enabled").notNull().default(true),
  /** when a session first connected after a QR code was scanned */
  pairedAt: timestamp("paired_at", { withTimezone: true }),
  paused: boolean("paused").notNull().default(false),
  pausedReason: text("paused_reason").notNull().default(""),
  pausedAt: timestamp("paused_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What happened to a number: status changes (with the session's reason), final send failures,
 * refusals (a customer's phone that does not take messages), pauses and resumes. Kept 30 days.
 */
export const connectionEvents = pgTable(
  "connection_events",
  {
    id: serial("id").primaryKey(),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** status | disconnect | failure | block | pause | resume */
    kind: text("kind").notNull(),
    status: text("status").notNull().default(""),
    reason: text("reason").notNull().default(""),
  },
  (t) => [index("connection_events_kind_idx").on(t.whatsappId, t.kind, t.at)],
);

/** Unsolicited sends of a number per local day (what the daily cap counts). */
export const connectionDailySends = pgTable(
  "connection_daily_sends",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    /** YYYY-MM-DD in the product's time zone */
    day: text("day").notNull(),
    unsolicited: integer("unsolicited").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.day] })],
);
