import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { contacts } from "./contacts.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";

/**
 * A ticket's customer in the billing system (SGP / MK-AUTH): set when the customer identified in
 * the self-service bot or the agent looked them up, so the agent's panel shows that contract and
 * the next ticket of the same contact starts from it.
 */
export const billingLinks = pgTable(
  "billing_links",
  {
    ticketId: integer("ticket_id")
      .primaryKey()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    system: text("system").notNull(),
    document: text("document").notNull(),
    contractId: text("contract_id").notNull(),
    /** where the contract is, as the billing system said when it was linked (an incident's area places the customer by them) */
    city: text("city").notNull().default(""),
    pop: text("pop").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("billing_links_contact_idx").on(t.contactId, t.createdAt)],
);

/**
 * What was done in the billing system from Balcão (unlocks, tickets opened there): who, on which
 * contract, with the system's answer and protocol. The ticket's record of a 'Desbloquear'.
 */
export const billingActions = pgTable(
  "billing_actions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    /** null when the customer did it in the self-service bot */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    system: text("system").notNull(),
    contractId: text("contract_id").notNull(),
    /** unlock | ticket */
    action: text("action").notNull(),
    ok: boolean("ok").notNull(),
    message: text("message").notNull().default(""),
    protocol: text("protocol"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("billing_actions_ticket_idx").on(t.ticketId, t.createdAt)],
);
