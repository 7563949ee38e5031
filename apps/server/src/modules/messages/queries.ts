import type { Message } from "@balcao/contract";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { contacts, messages } from "../../db/schema/index.js";
import { mediaUrl } from "../../lib/media.js";
import { iso } from "../../lib/sql.js";
import { loadTicket } from "../tickets/queries.js";

/** How messages are read: one query joins the author and the quoted message. */

export type MessageRow = typeof messages.$inferSelect;

const quoted = alias(messages, "quoted");
const quotedContact = alias(contacts, "quoted_contact");

const messageFields = {
  m: messages,
  contact: { id: contacts.id, name: contacts.name, profilePicUrl: contacts.profilePicUrl },
  q: {
    id: quoted.id,
    body: quoted.body,
    fromMe: quoted.fromMe,
    mediaType: quoted.mediaType,
    mediaKey: quoted.mediaKey,
    isDeleted: quoted.isDeleted,
  },
  qContact: { id: quotedContact.id, name: quotedContact.name },
};

type MessageJoinRow = {
  m: MessageRow;
  contact: { id: number; name: string; profilePicUrl: string } | null;
  q: { id: number; body: string; fromMe: boolean; mediaType: string; mediaKey: string | null; isDeleted: boolean } | null;
  qContact: { id: number; name: string } | null;
};

export function selectMessages(db: DbOrTx) {
  return db
    .select(messageFields)
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId));
}

export function toMessage(r: MessageJoinRow): Message {
  const m = r.m;
  return {
    id: m.id,
    wid: m.wid,
    body: m.isDeleted ? "" : m.body,
    fromMe: m.fromMe,
    read: m.read,
    ack: m.ack,
    isDeleted: m.isDeleted,
    isEdited: m.isEdited,
    mediaType: m.mediaType as Message["mediaType"],
    mediaUrl: m.isDeleted ? null : mediaUrl(m.mediaKey),
    mimetype: m.mimetype,
    fileName: m.fileName,
    ticketId: m.ticketId,
    contactId: m.contactId,
    contact: r.contact,
    quotedMsgId: m.quotedMsgId,
    source: m.source as Message["source"],
    userId: m.userId,
    sendError: m.sendError,
    quotedMsg: r.q
      ? {
          id: r.q.id,
          body: r.q.isDeleted ? "" : r.q.body,
          fromMe: r.q.fromMe,
          mediaType: r.q.mediaType as Message["mediaType"],
          mediaUrl: r.q.isDeleted ? null : mediaUrl(r.q.mediaKey),
          isDeleted: r.q.isDeleted,
          contact: r.qContact,
        }
      : null,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  };
}

export async function loadMessage(db: DbOrTx, where: SQL): Promise<Message | undefined> {
  const [row] = await selectMessages(db).where(where);
  return row ? toMessage(row as MessageJoinRow) : undefined;
}

export async function loadMessagesPage(db: DbOrTx, ticketId: number, offset: number, limit: number): Promise<Message[]> {
  const rows = await selectMessages(db)
    .where(eq(messages.ticketId, ticketId))
    .orderBy(sql`${messages.createdAt} desc nulls last`, sql`${messages.id} desc nulls last`)
    .limit(limit)
    .offset(offset);
  return rows.map((r) => toMessage(r as MessageJoinRow));
}

/** The body of a stored message by its channel id (engines ask for it to retry a send). */
export async function messageWidLookup(db: DbOrTx, whatsappId: number, wid: string): Promise<{ body: string } | undefined> {
  const [row] = await db
    .select({ body: messages.body })
    .from(messages)
    .where(and(sql`coalesce(${messages.whatsappId}, 0) = ${whatsappId}`, eq(messages.wid, wid)));
  return row;
}

/** Loads a message and its ticket and tells everyone watching the ticket (created or updated). */
export async function publishMessage(ctx: AppContext, messageId: number, action: "created" | "updated"): Promise<Message | undefined> {
  const message = await loadMessage(ctx.db, eq(messages.id, messageId));
  if (!message) return undefined;
  const ticket = await loadTicket(ctx.db, message.ticketId);
  ctx.events.publish(action === "created" ? "message.created" : "message.updated", { message, ticket });
  return message;
}
