import type { Message, Ticket } from "@balcao/contract";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Address, OutboundContent, QuotedRef } from "../../channels/channel.js";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { type MediaStore, mediaUrl, type StoredMedia } from "../../lib/media.js";
import { iso } from "../../lib/sql.js";
import { loadTicket } from "../tickets/queries.js";

/** What the conversation services need besides the app context: the live channels and the media store. */
export interface ConvDeps {
  ctx: AppContext;
  channels: ChannelManager;
  media: MediaStore;
  /** acks that arrived before their message was stored (wid → ack), applied when it is */
  earlyAcks: Map<string, number>;
}

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

/** Where a ticket's messages go. */
export function addressOf(contact: { number: string | null; lid: string | null; isGroup: boolean }): Address {
  if (contact.isGroup) return { groupId: contact.number ?? undefined };
  return { number: contact.number ?? undefined, lid: contact.lid ?? undefined };
}

/** The preview a ticket list shows for a message. */
export function previewOf(body: string, mediaType: string, fileName?: string | null): string {
  const text = body.trim() || fileName || (mediaType === "chat" ? "" : mediaType);
  return text.length > 255 ? text.slice(0, 255) : text;
}

export interface DeliverInput {
  content: OutboundContent;
  /** what the message row shows */
  body: string;
  /** the agent who wrote it; null for the connection's own messages (greeting, menu, farewell) */
  userId: number | null;
  quotedMsgId?: number | null;
  stored?: StoredMedia;
  fileName?: string;
}

/**
 * Sends through the ticket's connection, then stores the message and the ticket's last message
 * in one transaction, then publishes it. The channel's id makes a later echo of the same message
 * (engines report our own sends) land on the same row.
 */
export async function deliver(conv: ConvDeps, ticket: Ticket, input: DeliverInput): Promise<Message> {
  const { ctx } = conv;
  const session = ticket.whatsappId !== null ? conv.channels.get(ticket.whatsappId) : undefined;
  if (!session || ticket.whatsappId === null) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  let quotedRef: QuotedRef | undefined;
  if (input.quotedMsgId) {
    const [q] = await ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, input.quotedMsgId), eq(messages.ticketId, ticket.id)));
    if (!q) throw new AppError("ERR_NO_MESSAGE_FOUND");
    if (q.wid) quotedRef = { id: q.wid, fromMe: q.fromMe, body: q.body, author: q.fromMe ? undefined : addressOf(ticket.contact) };
  }
  let sent: { id: string; timestamp: Date };
  try {
    sent = await session.send(addressOf(ticket.contact), input.content, quotedRef);
  } catch (err) {
    ctx.log.warn({ err, ticketId: ticket.id }, "sending a message failed");
    throw new AppError("ERR_SENDING_WAPP_MSG");
  }
  const whatsappId = ticket.whatsappId;
  const ackKey = `${whatsappId}:${sent.id}`;
  const messageId = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({
        wid: sent.id,
        whatsappId,
        body: input.body,
        fromMe: true,
        read: true,
        ack: conv.earlyAcks.get(ackKey) ?? 0,
        mediaType: input.stored?.mediaType ?? (input.content.kind === "text" ? "chat" : input.content.kind),
        mediaKey: input.stored?.key,
        mimetype: input.stored?.mimetype,
        fileName: input.fileName,
        ticketId: ticket.id,
        userId: input.userId,
        quotedMsgId: input.quotedMsgId ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: messages.id });
    let id = row?.id;
    if (id === undefined) {
      // the engine's echo of this send was stored first: it becomes ours
      const [echo] = await tx
        .update(messages)
        .set({ userId: input.userId, mediaKey: input.stored?.key, quotedMsgId: input.quotedMsgId ?? null, updatedAt: new Date() })
        .where(and(sql`coalesce(${messages.whatsappId}, 0) = ${whatsappId}`, eq(messages.wid, sent.id)))
        .returning({ id: messages.id });
      id = echo.id;
    }
    await tx
      .update(tickets)
      .set({ lastMessage: previewOf(input.body, input.stored?.mediaType ?? "chat", input.fileName), updatedAt: new Date() })
      .where(eq(tickets.id, ticket.id));
    return id;
  });
  conv.earlyAcks.delete(ackKey);
  const [message, fresh] = await Promise.all([loadMessage(ctx.db, eq(messages.id, messageId)), loadTicket(ctx.db, ticket.id)]);
  if (!message) throw new AppError("ERR_CREATING_MESSAGE");
  ctx.events.publish("message.created", { message, ticket: fresh });
  return message;
}

/** A text the connection itself sends (greeting, queue menu, farewell); failures are logged, not thrown. */
export async function sendBotText(conv: ConvDeps, ticket: Ticket, text: string): Promise<Message | undefined> {
  if (!text.trim()) return undefined;
  try {
    return await deliver(conv, ticket, { content: { kind: "text", body: text }, body: text, userId: null });
  } catch (err) {
    conv.ctx.log.warn({ err, ticketId: ticket.id }, "the connection's automatic message was not sent");
    return undefined;
  }
}

/** The body of a stored message by its channel id (engines ask for it to retry a send). */
export async function messageWidLookup(db: DbOrTx, whatsappId: number, wid: string): Promise<{ body: string } | undefined> {
  const [row] = await db
    .select({ body: messages.body })
    .from(messages)
    .where(and(sql`coalesce(${messages.whatsappId}, 0) = ${whatsappId}`, eq(messages.wid, wid)));
  return row;
}
