import type { Message, MessagesAnswer } from "@balcao/contract";
import { and, eq, sql } from "drizzle-orm";
import type { OutboundContent } from "../../channels/channel.js";
import type { SessionUser } from "../../context.js";
import { messages, tickets } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import type { StoredMedia } from "../../lib/media.js";
import { canSee, loadTicket, ticketFor } from "../tickets/queries.js";
import { addressOf, type ConvDeps, deliver, loadMessage, loadMessagesPage } from "./outbound.js";

/**
 * GET /messages/:ticketId — pages counted from the newest message (page 1 = the newest
 * rowsPerPage), each page in chronological order, so the client prepends older pages. Opening a
 * ticket's messages marks it read (and tells the customer's phone).
 */
export async function listMessages(
  conv: ConvDeps,
  user: SessionUser,
  ticketId: number,
  q: { pageNumber: number; rowsPerPage: number },
): Promise<MessagesAnswer> {
  const db = conv.ctx.db;
  let ticket = await ticketFor(db, user, ticketId);
  const offset = (q.pageNumber - 1) * q.rowsPerPage;
  const [rows, [{ n }]] = await Promise.all([
    loadMessagesPage(db, ticketId, offset, q.rowsPerPage + 1),
    db.select({ n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.ticketId, ticketId)),
  ]);
  const hasMore = rows.length > q.rowsPerPage;
  const page = rows.slice(0, q.rowsPerPage).reverse();
  if (ticket.unreadMessages > 0) ticket = await markRead(conv, ticketId);
  return { messages: page, ticket, count: n, hasMore };
}

async function markRead(conv: ConvDeps, ticketId: number) {
  const { ctx } = conv;
  const unread = await ctx.db.transaction(async (tx) => {
    await tx.update(tickets).set({ unreadMessages: 0 }).where(eq(tickets.id, ticketId));
    return tx
      .update(messages)
      .set({ read: true })
      .where(and(eq(messages.ticketId, ticketId), eq(messages.read, false), eq(messages.fromMe, false)))
      .returning({ wid: messages.wid });
  });
  const ticket = await loadTicket(ctx.db, ticketId);
  ctx.events.publish("ticket.unreadCleared", { ticket });
  const session = ticket.whatsappId !== null ? conv.channels.get(ticket.whatsappId) : undefined;
  const ids = unread.filter((u) => u.wid).map((u) => ({ id: u.wid as string, fromMe: false }));
  if (session && ids.length) {
    session.markRead(addressOf(ticket.contact), ids).catch((err) => ctx.log.debug({ err }, "read receipt not sent"));
  }
  return ticket;
}

export interface Upload {
  data: Buffer;
  fileName: string;
}

/**
 * POST /messages/:ticketId — text (with an optional quoted message) or media. The ticket must be
 * open; media are checked by content before anything is sent; each file is one message, the
 * text goes as the caption of the first.
 */
export async function sendMessage(
  conv: ConvDeps,
  user: SessionUser,
  ticketId: number,
  input: { body: string; quotedMsgId?: number | null; files?: Upload[] },
): Promise<Message[]> {
  const ticket = await ticketFor(conv.ctx.db, user, ticketId);
  if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
  const files = input.files ?? [];
  if (!files.length) {
    if (!input.body.trim()) throw new AppError("ERR_VALIDATION", 400, { body: ["Required"] });
    const message = await deliver(conv, ticket, {
      content: { kind: "text", body: input.body },
      body: input.body,
      userId: user.id,
      quotedMsgId: input.quotedMsgId,
    });
    return [message];
  }
  // all files checked and stored before the first is sent
  const stored: { file: Upload; media: StoredMedia }[] = [];
  try {
    for (const file of files) stored.push({ file, media: await conv.media.storeUpload(file.data) });
  } catch (err) {
    for (const s of stored) await conv.media.remove(s.media.key);
    throw err;
  }
  const sent: Message[] = [];
  for (const [i, { file, media }] of stored.entries()) {
    const caption = i === 0 ? input.body : "";
    const kind = media.mediaType === "image" || media.mediaType === "audio" || media.mediaType === "video" || media.mediaType === "sticker";
    const content: OutboundContent = {
      kind: "media",
      mediaType: kind ? (media.mediaType as "image" | "audio" | "video" | "sticker") : "document",
      data: file.data,
      mimetype: media.mimetype,
      fileName: file.fileName,
      caption: media.mediaType === "audio" ? undefined : caption || undefined,
      ptt: media.mediaType === "audio",
    };
    sent.push(
      await deliver(conv, ticket, {
        content,
        body: caption || (media.mediaType === "audio" ? "" : file.fileName),
        userId: user.id,
        quotedMsgId: i === 0 ? input.quotedMsgId : null,
        stored: media,
        fileName: file.fileName,
      }),
    );
  }
  return sent;
}

/** DELETE /messages/:id — an agent's own (fromMe) message is deleted for everyone and marked isDeleted. */
export async function deleteMessage(conv: ConvDeps, user: SessionUser, id: number): Promise<Message> {
  const { ctx } = conv;
  const [row] = await ctx.db.select().from(messages).where(eq(messages.id, id));
  if (!row) throw new AppError("ERR_NO_MESSAGE_FOUND");
  const ticket = await loadTicket(ctx.db, row.ticketId);
  if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  if (!row.fromMe) throw new AppError("ERR_NO_PERMISSION");
  if (!row.isDeleted) {
    const session = row.whatsappId !== null ? conv.channels.get(row.whatsappId) : undefined;
    if (!session) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    try {
      if (row.wid) await session.deleteForEveryone(addressOf(ticket.contact), row.wid, true);
    } catch (err) {
      ctx.log.warn({ err, messageId: id }, "deleting a message failed");
      throw new AppError("ERR_DELETE_WAPP_MSG");
    }
    await ctx.db.update(messages).set({ isDeleted: true, updatedAt: new Date() }).where(eq(messages.id, id));
  }
  const message = await loadMessage(ctx.db, eq(messages.id, id));
  if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
  ctx.events.publish("message.updated", { message, ticket });
  return message;
}

/**
 * POST /digitando/:ticketId and /digitando/stop/:ticketId — the customer sees "typing…". Best
 * effort: a disconnected connection answers delivered: false rather than an error toast.
 */
export async function setTyping(conv: ConvDeps, user: SessionUser, ticketId: number, typing: boolean) {
  const ticket = await ticketFor(conv.ctx.db, user, ticketId);
  const session = ticket.whatsappId !== null ? conv.channels.get(ticket.whatsappId) : undefined;
  let delivered = false;
  if (session) {
    delivered = await session.setTyping(addressOf(ticket.contact), typing).then(
      () => true,
      () => false,
    );
  }
  return { typing, delivered };
}
