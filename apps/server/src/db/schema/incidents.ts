import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { contacts } from "./contacts.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";

/**
 * Outage mode (issue 32 §1). An incident is opened by an admin or supervisor and closed once;
 * every rule that must hold with several processes is a row here, never memory:
 * - `incident_contacts`: one row per (incident, customer) — its primary key is what makes "the
 *   notice once" true whatever process handles the message; after the close the same row carries
 *   the customer's "normalizado" notice (`normalState`: none → pending → sent | skipped);
 * - `incident_tickets`: the tickets grouped under the incident (the list's filter and count).
 */
export const incidents = pgTable(
  "incidents",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    area: text("area").notNull().default(""),
    /** all (todos os clientes) | area (only customers placed in its cities, POPs or tags) */
    audience: text("audience").notNull().default("all"),
    cities: jsonb("cities").notNull().default([]),
    pops: jsonb("pops").notNull().default([]),
    /** contact tags that place a customer in the area */
    tags: jsonb("tags").notNull().default([]),
    expectedAt: timestamp("expected_at", { withTimezone: true }),
    /** open | closed */
    status: text("status").notNull().default("open"),
    closeMessage: text("close_message").notNull().default(""),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    closedBy: integer("closed_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [index("incidents_open_idx").on(t.createdAt).where(sql`${t.status} = 'open'`)],
);

export const incidentContacts = pgTable(
  "incident_contacts",
  {
    incidentId: integer("incident_id")
      .notNull()
      .references(() => incidents.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    /** the connection and ticket the customer wrote to (where the "normalizado" notice goes) */
    whatsappId: integer("whatsapp_id"),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    /** the incident notice (the outbox message) */
    noticeMessageId: bigint("notice_message_id", { mode: "number" }),
    /** none (open) → pending (closed, to send at the unsolicited pace) → sent | skipped (opted out, no connection) */
    normalState: text("normal_state").notNull().default("none"),
    normalMessageId: bigint("normal_message_id", { mode: "number" }),
    /** linked by: message (the customer wrote) or sgp (the billing system said maintenance) */
    via: text("via").notNull().default("message"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.incidentId, t.contactId] }),
    index("incident_contacts_pending_idx").on(t.whatsappId).where(sql`${t.normalState} = 'pending'`),
  ],
);

export const incidentTickets = pgTable(
  "incident_tickets",
  {
    incidentId: integer("incident_id")
      .notNull()
      .references(() => incidents.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.incidentId, t.ticketId] }), index("incident_tickets_ticket_idx").on(t.ticketId)],
);

/**
 * The queue position notice (issue 32 §2): when a waiting ticket was last told its position. The
 * conditional upsert on this row is the "never more than once every N minutes" of every process.
 */
export const queuePositionNotices = pgTable("queue_position_notices", {
  ticketId: integer("ticket_id")
    .primaryKey()
    .references(() => tickets.id, { onDelete: "cascade" }),
  toldAt: timestamp("told_at", { withTimezone: true }).notNull(),
});
