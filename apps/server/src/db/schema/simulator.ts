import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The simulator's own state, as a real phone and WhatsApp's servers would keep it: its customers'
 * chats and every message they sent and received, by id. It survives the server's restart, so a
 * customer message not yet journaled by the product is redelivered, and a test can count what
 * each customer really received. Not tied to the product's tables on purpose.
 */
export const simulatorChats = pgTable(
  "simulator_chats",
  {
    whatsappId: integer("whatsapp_id").notNull(),
    number: text("number").notNull(),
    name: text("name").notNull().default(""),
    /** the customer's phone refuses messages (as a number without WhatsApp would) */
    refused: boolean("refused").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.number] })],
);

export const simulatorMessages = pgTable(
  "simulator_messages",
  {
    whatsappId: integer("whatsapp_id").notNull(),
    /** the channel message id: one message per id */
    id: text("id").notNull(),
    chat: text("chat").notNull(),
    fromMe: boolean("from_me").notNull(),
    body: text("body").notNull().default(""),
    mediaType: text("media_type").notNull().default("chat"),
    mimetype: text("mimetype"),
    fileName: text("file_name"),
    /** the media file, in the simulator's own folder */
    mediaFile: text("media_file"),
    ack: smallint("ack").notNull().default(0),
    isDeleted: boolean("is_deleted").notNull().default(false),
    quotedId: text("quoted_id"),
    /** a customer's message: the product's channel layer has journaled it (WhatsApp's delivery) */
    delivered: boolean("delivered").notNull().default(false),
    /** group id when the customer wrote in a group */
    groupId: text("group_id"),
    /** in a group: the customer who wrote */
    senderNumber: text("sender_number"),
    senderName: text("sender_name"),
    seq: integer("seq").generatedAlwaysAsIdentity(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.id] }),
    index("simulator_messages_chat_idx").on(t.whatsappId, t.chat, t.seq),
    index("simulator_messages_undelivered_idx").on(t.whatsappId, t.seq).where(sql`not ${t.fromMe} and not ${t.delivered}`),
  ],
);
