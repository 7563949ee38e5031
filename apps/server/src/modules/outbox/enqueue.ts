import type { Message, MessageSource } from "@balcao/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Address, OutboundContent, QuotedRef } from "../../channels/channel.js";
import { newMessageId } from "../../channels/ids.js";
import type { DbOrTx } from "../../db/client.js";
import { contacts, messages } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { mediaUrl, type StoredMedia } from "../../lib/media.js";
import { previewOf } from "../../lib/preview.js";
import { IDEMPOTENCY_WINDOW_HOURS } from "./idempotency.js";

/**
 * The outbox: every outgoing message is first stored — a message row (fromMe, ack 0: the clock)
 * with the channel id it will be sent with, and an outbox row saying what to send — in the
 * caller's transaction. The connection's sender (sender.ts) sends it afterwards. The preview of
 * the ticket follows in the same statement.
 */

/** Lower goes first: an agent's reply never waits behind automatic or bulk sends. */
export const PRIORITY: Record<Exclude<MessageSource, "customer" | "phone" | "note">, number> = {
  agent: 0,
  bot: 1,
  schedule: 2,
  api: 2,
  disparo: 3,
};

/** What to send, without bytes: media go by their stored key. */
export type OutboxContent =
  | Exclude<OutboundContent, { kind: "media" }>
  | (Omit<Extract<OutboundContent, { kind: "media" }>, "data"> & { mediaKey: string });

export interface OutboxPayload {
  to: Address;
  content: OutboxContent;
  quoted?: QuotedRef;
}

export interface OutgoingMessage {
  ticket: { id: number; whatsappId: number | null; contact: { number: string | null; lid: string | null; isGroup: boolean } };
  source: keyof typeof PRIORITY;
  /** the agent who wrote it (agent messages, schedules); null for automatic messages */
  userId: number | null;
  /** what the message row shows */
  body: string;
  content: OutboxContent;
  media?: StoredMedia;
  fileName?: string | null;
  quotedMsgId?: number | null;
  /** extra data shown with the message (location, contact card), JSON */
  dataJson?: string | null;
}

/**
 * What to send for a stored file: images, audio, video and stickers as themselves, anything else
 * as a document; audio carries no caption (WhatsApp shows none) and goes as a voice note when
 * `voiceNote` says so.
 */
export function mediaContent(media: StoredMedia, fileName: string, caption: string, voiceNote: boolean): OutboxContent {
  const visual = media.mediaType === "image" || media.mediaType === "audio" || media.mediaType === "video" || media.mediaType === "sticker";
  return {
    kind: "media",
    mediaType: visual ? (media.mediaType as "image" | "audio" | "video" | "sticker") : "document",
    mediaKey: media.key,
    mimetype: media.mimetype,
    fileName,
    caption: media.mediaType === "audio" ? undefined : caption || undefined,
    ptt: voiceNote && media.mediaType === "audio",
  };
}

/** Where a ticket's messages go. */
export function addressOf(contact: { number: string | null; lid: string | null; isGroup: boolean }): Address {
  if (contact.isGroup) return { groupId: contact.number ?? undefined };
  return { number: contact.number ?? undefined, lid: contact.lid ?? undefined };
}

/** The chat key outbox rows of one conversation share (their order is kept). */
export function chatOf(to: Address): string {
  return to.groupId ?? to.number ?? to.lid ?? "";
}

function mediaTypeOf(msg: OutgoingMessage): Message["mediaType"] | string {
  if (msg.media) return msg.media.mediaType;
  const c = msg.content;
  if (c.kind === "text") return "chat";
  if (c.kind === "contact") return "vcard";
  if (c.kind === "media") return c.mediaType;
  return c.kind;
}

/** A stored and queued message, with its ticket's row as the same statement left it. */
export interface Enqueued {
  id: number;
  whatsappId: number;
  wid: string;
  /** the message as the write stored it (what a read of it would answer) */
  message: Message;
  /** the ticket after the preview update (status, queue and owner as they were at the write) */
  ticketRow?: { status: string; queueId: number | null; userId: number | null; lastMessage: string; updatedAt: string };
}

/**
 * Stores an outgoing message and queues it for its connection's sender, in the caller's
 * transaction; answers the message id. The caller wakes the sender after the commit.
 */
export async function enqueueMessage(tx: DbOrTx, msg: OutgoingMessage): Promise<Enqueued> {
  const queued = await enqueueStatement(tx, msg);
  if (!queued) throw new Error("enqueue wrote nothing");
  return queued;
}

/**
 * One message with its `Idempotency-Key` in ONE statement (atomic without a transaction): the key
 * is taken with the result it will answer (the message id, drawn from the sequence first), and the
 * message, its outbox row and the ticket's preview are written only when the key was free. A
 * retried request (the key already taken) writes nothing and gets undefined: the caller answers
 * the first request's result. A concurrent twin waits on the key's unique index, then finds it
 * taken. The agent's text reply takes this path: two statements in all instead of six.
 */
export function enqueueOnce(db: DbOrTx, msg: OutgoingMessage, claim: { scope: string; key: string }): Promise<Enqueued | undefined> {
  return enqueueStatement(db, msg, claim);
}

async function enqueueStatement(tx: DbOrTx, msg: OutgoingMessage, claim?: { scope: string; key: string }): Promise<Enqueued | undefined> {
  const whatsappId = msg.ticket.whatsappId;
  if (whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
  const to = addressOf(msg.ticket.contact);
  if (!to.number && !to.lid && !to.groupId) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  let quoted: QuotedRef | undefined;
  let quotedMsg: Message["quotedMsg"] = null;
  if (msg.quotedMsgId) {
    const [q] = await tx
      .select({
        id: messages.id,
        wid: messages.wid,
        fromMe: messages.fromMe,
        body: messages.body,
        mediaType: messages.mediaType,
        mediaKey: messages.mediaKey,
        isDeleted: messages.isDeleted,
        source: messages.source,
        contact: { id: contacts.id, name: contacts.name },
      })
      .from(messages)
      .leftJoin(contacts, eq(contacts.id, messages.contactId))
      .where(and(eq(messages.id, msg.quotedMsgId), eq(messages.ticketId, msg.ticket.id)));
    if (!q) throw new AppError("ERR_NO_MESSAGE_FOUND");
    // the quote travels with the message: a deleted message's text is not sent again inside it, and an
    // internal note (never on the phone) is not quoted to the customer at all
    if (q.wid && q.source !== "note")
      quoted = { id: q.wid, fromMe: q.fromMe, body: q.isDeleted ? "" : q.body, author: q.fromMe ? undefined : to };
    quotedMsg = {
      id: q.id,
      body: q.isDeleted ? "" : q.body,
      fromMe: q.fromMe,
      mediaType: q.mediaType as Message["mediaType"],
      mediaUrl: q.isDeleted ? null : mediaUrl(q.mediaKey),
      isDeleted: q.isDeleted,
      contact: q.contact,
    };
  }
  const wid = newMessageId();
  const mediaType = mediaTypeOf(msg);
  const payload: OutboxPayload = { to, content: msg.content, ...(quoted && { quoted }) };
  const automatic = msg.source === "bot";
  // the message, its outbox row and the ticket's preview in one statement
  const { rows } = await tx.execute<{
    id: number | string;
    created_at: string | Date;
    updated_at_m: string | Date;
    status: string | null;
    queue_id: number | string | null;
    user_id: number | string | null;
    last_message: string | null;
    updated_at: string | Date | null;
  }>(sql`
    with ${
      claim
        ? sql`ids as (select nextval('messages_id_seq') as id), k as (
      insert into idempotency_keys (scope, key, result)
      values (${claim.scope}, ${claim.key}, jsonb_build_object('messageIds', jsonb_build_array((select id from ids))))
      on conflict (scope, key) do update set created_at = now(), result = excluded.result
        where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})
      returning 1
    ), m as (
      insert into messages (id, wid, whatsapp_id, body, from_me, read, ack, media_type, media_key, mimetype, file_name, data_json,
                            ticket_id, user_id, quoted_msg_id, source)
      select (select id from ids), ${wid}, ${whatsappId}, ${msg.body}, true, true, 0, ${mediaType}, ${msg.media?.key ?? null},
             ${msg.media?.mimetype ?? null}, ${msg.fileName ?? null}, ${msg.dataJson ?? null}, ${msg.ticket.id}, ${msg.userId},
             ${msg.quotedMsgId ?? null}, ${msg.source}
      where exists (select 1 from k)
      returning id, created_at, updated_at
    ),`
        : sql`m as (
      insert into messages (wid, whatsapp_id, body, from_me, read, ack, media_type, media_key, mimetype, file_name, data_json,
                            ticket_id, user_id, quoted_msg_id, source)
      values (${wid}, ${whatsappId}, ${msg.body}, true, true, 0, ${mediaType}, ${msg.media?.key ?? null}, ${msg.media?.mimetype ?? null},
              ${msg.fileName ?? null}, ${msg.dataJson ?? null}, ${msg.ticket.id}, ${msg.userId}, ${msg.quotedMsgId ?? null}, ${msg.source})
      returning id, created_at, updated_at
    ),`
    } o as (
      insert into outbox (message_id, whatsapp_id, chat, priority, wid, payload)
      select m.id, ${whatsappId}, ${chatOf(to)}, ${PRIORITY[msg.source]}, ${wid}, ${JSON.stringify(payload)}::jsonb from m
    ), t as (
      -- an automatic message does not replace the customer's words in the preview
      update tickets set
        last_message = case when ${automatic} and last_message <> '' then last_message else ${previewOf(msg.body, mediaType, msg.fileName)} end,
        last_message_id = case when ${automatic} and last_message <> '' then last_message_id else (select id from m) end,
        updated_at = now()
      where id = ${msg.ticket.id} and exists (select 1 from m)
      returning status, queue_id, user_id, last_message, updated_at
    )
    select m.id, m.created_at, m.updated_at as updated_at_m, t.status, t.queue_id, t.user_id, t.last_message, t.updated_at
    from m left join t on true`);
  const r = rows[0];
  if (!r) return undefined;
  const ticketRow =
    r.status === null || r.status === undefined
      ? undefined
      : {
          status: String(r.status),
          queueId: r.queue_id === null ? null : Number(r.queue_id),
          userId: r.user_id === null ? null : Number(r.user_id),
          lastMessage: String(r.last_message),
          updatedAt: new Date(r.updated_at as string | Date).toISOString(),
        };
  const id = Number(r.id);
  const message: Message = {
    id,
    wid,
    body: msg.body,
    fromMe: true,
    read: true,
    ack: 0,
    isDeleted: false,
    isEdited: false,
    mediaType: mediaType as Message["mediaType"],
    mediaUrl: mediaUrl(msg.media?.key ?? null),
    mimetype: msg.media?.mimetype ?? null,
    fileName: msg.fileName ?? null,
    ticketId: msg.ticket.id,
    contactId: null,
    contact: null,
    quotedMsgId: msg.quotedMsgId ?? null,
    source: msg.source,
    userId: msg.userId,
    sendError: null,
    quotedMsg,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at_m).toISOString(),
  };
  return { id, whatsappId, wid, message, ticketRow };
}
