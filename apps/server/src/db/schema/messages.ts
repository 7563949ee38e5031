import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";
import { contacts } from "./contacts.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

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
    /** Who wrote it: customer, agent, bot (greeting, menu, farewell, flows), phone (sent from the paired phone), schedule, api, disparo. */
    source: text("source").notNull().default("customer"),
    /** Why an outgoing message could not be sent (it shows an error mark and 'Reenviar'); null otherwise. */
    sendError: text("send_error"),
    /** When the channel took an outgoing message (set with the removal of its outbox row, in one statement). */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** A customer's voice note as text (the AI transcription job); null until there is one. */
    transcription: text("transcription"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("messages_wid_key").on(sql`coalesce(${t.whatsappId}, 0)`, t.wid),
    index("messages_ticket_created_idx").on(t.ticketId, t.createdAt.desc(), t.id.desc()),
    index("messages_body_trgm").using("gin", sql`lower(${t.body}) gin_trgm_ops`),
    /** the few messages that could not be sent: the lists' "last message failed" mark looks here, not through every message */
    index("messages_send_error_idx").on(t.id).where(sql`${t.sendError} is not null`),
  ],
);
