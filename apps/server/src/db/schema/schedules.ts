import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { contacts } from "./contacts.js";
import { messages } from "./messages.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

/**
 * Scheduled messages. A row is 'pending' with a job (`schedules.send`, run at `when`) queued in
 * the same transaction; the job stores its message in the ticket and queues it in the outbox in
 * one transaction with the row turning 'sent' (so it is sent once, whoever runs the job). A
 * message the outbox gives up on turns it 'failed' with the reason; 'canceled' rows are kept.
 */
export const schedules = pgTable(
  "schedules",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "cascade" }),
    /** the connection it goes out through: the ticket's at creation */
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** digits with country code, as the ticket's contact had it */
    customerNumber: text("customer_number").notNull().default(""),
    message: text("message").notNull(),
    when: timestamp("when", { withTimezone: true }).notNull(),
    status: text("status", { enum: ["pending", "sent", "canceled", "failed"] })
      .notNull()
      .default("pending"),
    reason: text("reason").notNull().default(""),
    cancelOnReply: boolean("cancel_on_reply").notNull().default(false),
    /** signed with the author's name when sent (the chat's 'Assinar') */
    sign: boolean("sign").notNull().default(true),
    /** the message stored for it (once sent) */
    messageId: bigint("message_id", { mode: "number" }).references(() => messages.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    /** the screen: by time, with a status */
    index("schedules_when_idx").on(t.when.desc(), t.id.desc()),
    /** the dialog */
    index("schedules_ticket_idx").on(t.ticketId),
    /** due ones (the sweep) and the customer's reply cancelling them */
    index("schedules_pending_idx").on(t.when).where(sql`${t.status} = 'pending'`),
    index("schedules_pending_contact_idx").on(t.contactId).where(sql`${t.status} = 'pending'`),
    /** the outbox's outcome finds its schedule */
    index("schedules_message_idx").on(t.messageId),
  ],
);
