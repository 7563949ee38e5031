import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";
import { contacts, tags } from "./contacts.js";
import { queues } from "./queues.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    status: text("status", { enum: ["pending", "open", "closed"] })
      .notNull()
      .default("pending"),
    lastMessage: text("last_message").notNull().default(""),
    unreadMessages: integer("unread_messages").notNull().default(0),
    isGroup: boolean("is_group").notNull().default(false),
    transf: boolean("transf").notNull().default(false),
    /** True while the customer is being asked to choose a queue from the connection's menu. */
    awaitingQueueChoice: boolean("awaiting_queue_choice").notNull().default(false),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("tickets_status_updated_idx").on(t.status, t.updatedAt.desc(), t.id.desc()),
    /** every status at once (the search tab): searches walk it newest first */
    index("tickets_updated_idx").on(t.updatedAt.desc(), t.id.desc()),
    index("tickets_queue_status_updated_idx").on(t.queueId, t.status, t.updatedAt.desc(), t.id.desc()),
    index("tickets_user_status_updated_idx").on(t.userId, t.status, t.updatedAt.desc(), t.id.desc()),
    index("tickets_contact_idx").on(t.contactId, t.whatsappId, t.updatedAt.desc()),
    /** One live (open or pending) ticket per contact and connection. */
    uniqueIndex("tickets_one_live_per_contact")
      .on(t.contactId, sql`coalesce(${t.whatsappId}, 0)`)
      .where(sql`${t.status} in ('open','pending')`),
  ],
);

export const ticketTags = pgTable(
  "ticket_tags",
  {
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index("ticket_tags_tag_idx").on(t.tagId)],
);

export const messages = pgTable(
  "messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The channel's message id; with the connection it makes redelivery idempotent. */
    wid: text("wid"),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    body: text("body").notNull().default(""),
    fromMe: boolean("from_me").notNull().default(false),
    read: boolean("read").notNull().default(false),
    ack: integer("ack").notNull().default(0),
    isDeleted: boolean("is_deleted").notNull().default(false),
    isEdited: boolean("is_edited").notNull().default(false),
    mediaType: text("media_type").notNull().default("chat"),
    /** Key of the stored media file (served under /media/<key>). */
    mediaKey: text("media_key"),
    mimetype: text("mimetype"),
    fileName: text("file_name"),
    /** Extra data of the message (location, vcard, call details, reaction), JSON. */
    dataJson: text("data_json"),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    /** Set when the message was written by an agent in Balcão. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    quotedMsgId: bigint("quoted_msg_id", { mode: "number" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("messages_wid_key").on(sql`coalesce(${t.whatsappId}, 0)`, t.wid),
    index("messages_ticket_created_idx").on(t.ticketId, t.createdAt.desc(), t.id.desc()),
    index("messages_body_trgm").using("gin", sql`lower(${t.body}) gin_trgm_ops`),
  ],
);

export const quickAnswers = pgTable(
  "quick_answers",
  {
    id: serial("id").primaryKey(),
    shortcut: text("shortcut").notNull(),
    message: text("message").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("quick_answers_shortcut_key").on(sql`lower(${t.shortcut})`),
    index("quick_answers_shortcut_trgm").using("gin", sql`lower(${t.shortcut}) gin_trgm_ops`),
  ],
);

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull().default(""),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
