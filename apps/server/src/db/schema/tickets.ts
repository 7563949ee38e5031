import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
    /** The message the preview shows (a deleted or failed one changes it). */
    lastMessageId: bigint("last_message_id", { mode: "number" }),
    unreadMessages: integer("unread_messages").notNull().default(0),
    isGroup: boolean("is_group").notNull().default(false),
    transf: boolean("transf").notNull().default(false),
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
    /** the waiting line of each queue (pending, no agent, not a group), oldest first: queue positions */
    index("tickets_waiting_idx")
      .on(t.queueId, t.createdAt, t.id)
      .where(sql`${t.status} = 'pending' and ${t.userId} is null and ${t.queueId} is not null and not ${t.isGroup}`),
    /** the dashboard's cards and hour heat map: tickets created in a period */
    index("tickets_created_idx").on(t.createdAt),
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
