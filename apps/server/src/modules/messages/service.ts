import type { Message, MessagesAnswer, Ticket } from "@balcao/contract";
import type { DbOrTx } from "../../db/client.js";
import { and, eq, sql } from "drizzle-orm";
import type { SessionUser } from "../../context.js";
import { messages, tickets } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import type { StoredMedia } from "../../lib/media.js";
import type { ReceivedFile } from "../../lib/uploads.js";
import type { ConvDeps } from "../outbox/deps.js";
import { templateContent } from "../cloud/service.js";
import { addressOf, type Enqueued, enqueueMessage, enqueueOnce, mediaContent, type OutboxContent } from "../outbox/enqueue.js";
import { claimKey, saveResult, storedResult } from "../outbox/idempotency.js";
import { canSee, loadTicket, ticketFor } from "../tickets/queries.js";
import { recordAudit } from "../audit/service.js";
import { createNote } from "./notes.js";
import { refreshPreview } from "./preview.js";
import { loadMessage, loadMessages, loadMessagesPage } from "./queries.js";

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
  let ticket = await ticketFor(db, user, ticketId, conv.ctx.waitingLines);
  const offset = (q.pageNumber - 1) * q.rowsPerPage;
  const { messages: rows, count } = await loadMessagesPage(db, ticketId, offset, q.rowsPerPage + 1);
  const hasMore = rows.length > q.rowsPerPage;
  const page = rows.slice(0, q.rowsPerPage).reverse();
  if (ticket.unreadMessages > 0) ticket = await markRead(conv, ticketId);
  return { messages: page, ticket, count, hasMore };
}

/** POST /messages/:ticketId/read — the agent reads the open chat: what arrived in it is read. */
export async function readTicket(conv: ConvDeps, user: SessionUser, ticketId: number): Promise<Ticket> {
  const ticket = await ticketFor(conv.ctx.db, user, ticketId);
  return ticket.unreadMessages > 0 ? markRead(conv, ticketId) : ticket;
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
  const session = ticket.whatsappId !== null ? conv.channels.session(ticket.whatsappId) : undefined;
  const ids = unread.filter((u) => u.wid).map((u) => ({ id: u.wid as string, fromMe: false }));
  if (session && ids.length) {
    session.markRead(addressOf(ticket.contact), ids).catch((err) => ctx.log.debug({ err }, "read receipt not sent"));
  }
  return ticket;
}

/**
 * Who may write in a ticket (send, delete, resend): it must be open, and an open ticket is its
 * owner's — supervisors and admins may act on any they see.
 */
function assertCanWrite(user: SessionUser, ticket: Ticket) {
  if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
  const privileged = user.profile === "admin" || user.profile === "superv";
  if (!privileged && ticket.userId !== user.id) throw new AppError("ERR_NO_PERMISSION");
}

export interface Upload {
  /** the received temp file (lib/uploads.ts), moved into the media store */
  file: ReceivedFile;
  fileName: string;
}

/**
 * POST /messages/:ticketId — text (with an optional quoted message) or media. Every message is
 * stored first, with the clock (ack 0), and queued in the outbox: the answer and the appMessage
 * event come from that commit; the connection's sender sends it, and the channel's acks move it
 * on. Media are checked by content before anything is stored; each file is one message, the text
 * goes as the caption of the first. With an `Idempotency-Key`, a retried request answers the
 * messages of the first and creates nothing.
 */
export async function sendMessage(
  conv: ConvDeps,
  user: SessionUser,
  ticketId: number,
  input: {
    body: string;
    quotedMsgId?: number | null;
    files?: Upload[];
    idempotencyKey?: string;
    /** an internal note: stored, never sent (notes.ts) */
    internal?: boolean;
    /** a Cloud API template (outside the customer's 24 h window): its rendered text is the message's body */
    template?: { name: string; language: string; variables: string[] };
  },
): Promise<Message[]> {
  const { ctx } = conv;
  // an internal note: stored, never queued (notes.ts)
  if (input.internal) {
    if (input.files?.length) throw new AppError("ERR_VALIDATION", 400, { medias: ["A note carries text only"] });
    return [await createNote(conv, user, ticketId, input.body)];
  }
  const ticket = await loadTicket(ctx.db, ticketId);
  assertCanWrite(user, ticket);
  const files = input.files ?? [];
  const template = input.template && !files.length ? await templateContent(ctx, ticket.whatsappId, input.template) : undefined;
  if (template) input = { ...input, body: template.body };
  if (!files.length && !input.body.trim()) throw new AppError("ERR_VALIDATION", 400, { body: ["Required"] });

  // files are checked and stored before the transaction that queues them
  const stored: { file: Upload; media: StoredMedia }[] = [];
  try {
    for (const file of files) stored.push({ file, media: await conv.media.adoptUpload(file.file) });
  } catch (err) {
    for (const s of stored) await conv.media.remove(s.media.key);
    throw err;
  }

  const scope = `user:${user.id}`;
  const outcome =
    !stored.length && input.idempotencyKey
      ? await textOnce(ctx.db, user, ticket, input.body, input.quotedMsgId, { scope, key: input.idempotencyKey }, template)
      : await ctx.db.transaction(async (tx) => {
          if (input.idempotencyKey) {
            const claim = await claimKey<{ messageIds: number[] }>(tx, scope, input.idempotencyKey);
            if (!claim.fresh) return { replay: claim.result.messageIds };
          }
          const queued: Enqueued[] = [];
          if (!stored.length) {
            queued.push(
              await enqueueMessage(tx, {
                ticket,
                source: "agent",
                userId: user.id,
                body: input.body,
                content: template ?? { kind: "text", body: input.body },
                quotedMsgId: input.quotedMsgId,
              }),
            );
          }
          for (const [i, { file, media }] of stored.entries()) {
            const caption = i === 0 ? input.body : "";
            // an agent's recorded audio goes as a voice note
            const content = mediaContent(media, file.fileName, caption, true);
            queued.push(
              await enqueueMessage(tx, {
                ticket,
                source: "agent",
                userId: user.id,
                body: caption || (media.mediaType === "audio" ? "" : file.fileName),
                content,
                media,
                fileName: file.fileName,
                quotedMsgId: i === 0 ? input.quotedMsgId : null,
              }),
            );
          }
          if (input.idempotencyKey) await saveResult(tx, scope, input.idempotencyKey, { messageIds: queued.map((q) => q.id) });
          return { queued };
        });

  if ("replay" in outcome) {
    // the first request's messages; what this one uploaded is not kept
    for (const s of stored) await conv.media.remove(s.media.key);
    return loadMessages(conv.ctx.db, outcome.replay ?? []);
  }
  // the answer and the appMessage events come from the commit: the messages as the write stored
  // them, the ticket as it left it (read again only if it moved to another queue or owner meanwhile)
  const sent = outcome.queued.map((q) => q.message);
  const last = outcome.queued.at(-1)?.ticketRow;
  const fresh =
    last && last.status === ticket.status && last.queueId === ticket.queueId && last.userId === ticket.userId
      ? { ...ticket, lastMessage: last.lastMessage, lastMessageFailed: false, updatedAt: last.updatedAt }
      : await loadTicket(ctx.db, ticketId);
  for (const w of new Set(outcome.queued.map((q) => q.whatsappId))) conv.outbox.wake(w);
  for (const message of sent) ctx.events.publish("message.created", { message, ticket: fresh });
  return sent;
}

/** An agent's text reply with its key: one statement stores it, queues it and takes the key (see enqueueOnce). */
async function textOnce(
  db: DbOrTx,
  user: SessionUser,
  ticket: Ticket,
  body: string,
  quotedMsgId: number | null | undefined,
  claim: { scope: string; key: string },
  template?: OutboxContent,
): Promise<{ queued: Enqueued[] } | { replay: number[] }> {
  const queued = await enqueueOnce(
    db,
    { ticket, source: "agent", userId: user.id, body, content: template ?? { kind: "text", body }, quotedMsgId },
    claim,
  );
  if (queued) return { queued: [queued] };
  return { replay: (await storedResult<{ messageIds: number[] }>(db, claim.scope, claim.key)).messageIds };
}

/**
 * POST /messages/:id/resend — 'Reenviar' on a message that could not be sent: it is queued again,
 * with the same channel id (a send that did reach WhatsApp is not repeated), and shows the clock.
 */
export async function resendMessage(conv: ConvDeps, user: SessionUser, id: number): Promise<Message> {
  const { ctx } = conv;
  const [row] = await ctx.db.select().from(messages).where(eq(messages.id, id));
  if (!row) throw new AppError("ERR_NO_MESSAGE_FOUND");
  const ticket = await loadTicket(ctx.db, row.ticketId);
  assertCanWrite(user, ticket);
  const requeued = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ whatsapp_id: number }>(sql`
      with m as (update messages set send_error = null, ack = 0, updated_at = now() where id = ${id} and send_error is not null returning id)
      update outbox set failed_at = null, attempts = 0, next_attempt_at = null, lease_until = null, last_error = null
      where message_id = (select id from m) and failed_at is not null
      returning whatsapp_id`);
    return rows[0];
  });
  if (!requeued) throw new AppError("ERR_MESSAGE_NOT_FAILED");
  conv.outbox.wake(requeued.whatsapp_id);
  const message = await loadMessage(ctx.db, id);
  if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
  ctx.events.publish("message.updated", { message, ticket: await loadTicket(ctx.db, row.ticketId) });
  return message;
}

/**
 * DELETE /messages/:id — an agent's own (fromMe) message is deleted for everyone and marked
 * isDeleted; the ticket's preview moves to the message before it. A message still waiting in the
 * outbox (or failed) is simply never sent.
 */
export async function deleteMessage(conv: ConvDeps, user: SessionUser, id: number): Promise<Message> {
  const { ctx } = conv;
  const [row] = await ctx.db.select().from(messages).where(eq(messages.id, id));
  if (!row) throw new AppError("ERR_NO_MESSAGE_FOUND");
  const ticket = await loadTicket(ctx.db, row.ticketId);
  if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  if (!row.fromMe) throw new AppError("ERR_NO_PERMISSION");
  const privileged = user.profile === "admin" || user.profile === "superv";
  // a note is its author's (and supervisors'); a sent message the ticket owner's
  const mine = row.source === "note" ? row.userId === user.id : ticket.userId === user.id;
  if (!privileged && !mine) throw new AppError("ERR_NO_PERMISSION");
  if (!row.isDeleted) {
    // not sent yet: taken out of the outbox, nothing to delete on WhatsApp; being sent this very moment: try again
    const { rows: pending } = await ctx.db.execute<{ id: number; sending: boolean }>(sql`
      select id, (failed_at is null and lease_until is not null) as sending from outbox where message_id = ${id}`);
    if (pending[0]?.sending) throw new AppError("ERR_DELETE_WAPP_MSG");
    if (pending.length) await ctx.db.execute(sql`delete from outbox where message_id = ${id}`);
    else if (row.wid) {
      const session = row.whatsappId !== null ? conv.channels.session(row.whatsappId) : undefined;
      if (!session) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      try {
        await session.deleteForEveryone(addressOf(ticket.contact), row.wid, true);
      } catch (err) {
        ctx.log.warn({ err, messageId: id }, "deleting a message failed");
        throw new AppError("ERR_DELETE_WAPP_MSG");
      }
    }
    await ctx.db.transaction(async (tx) => {
      await tx.update(messages).set({ isDeleted: true, updatedAt: new Date() }).where(eq(messages.id, id));
      await refreshPreview(tx, row.ticketId, id);
      await recordAudit(tx, {
        actor: user,
        action: "message.delete",
        target: `message:${id}`,
        contactId: ticket.contactId,
        // by reference: the message's id, kind and source, never its text (the row keeps it, where the erasure reaches it)
        before: { ticketId: row.ticketId, source: row.source, mediaType: row.mediaType },
      });
    });
  }
  const message = await loadMessage(ctx.db, id);
  if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
  const fresh = await loadTicket(ctx.db, row.ticketId);
  ctx.events.publish("message.updated", { message, ticket: fresh });
  if (fresh.lastMessage !== ticket.lastMessage) ctx.events.publish("ticket.updated", { ticket: fresh });
  return message;
}

/**
 * POST /digitando/:ticketId and /digitando/stop/:ticketId — the customer sees "typing…" (and the
 * other agents watching the ticket). Best effort: a disconnected connection answers
 * delivered: false rather than an error toast.
 */
export async function setTyping(conv: ConvDeps, user: SessionUser, ticketId: number, typing: boolean) {
  const ticket = await ticketFor(conv.ctx.db, user, ticketId);
  const session = ticket.whatsappId !== null ? conv.channels.session(ticket.whatsappId) : undefined;
  let delivered = false;
  if (session) {
    delivered = await session.setTyping(addressOf(ticket.contact), typing).then(
      () => true,
      () => false,
    );
  }
  conv.ctx.events.publish("ticket.typing", { ticketId, typing, userId: user.id, name: user.name });
  return { typing, delivered };
}
