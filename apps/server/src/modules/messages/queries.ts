import type { Message } from "@balcao/contract";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { messages } from "../../db/schema/index.js";
import { mediaUrl } from "../../lib/media.js";
import { idArray, iso } from "../../lib/sql.js";
import { loadTicket } from "../tickets/queries.js";

/** How messages are read: one query joins the author and the quoted message. */

type RawMessageRow = {
  id: number | string;
  wid: string | null;
  whatsapp_id: number | null;
  body: string;
  from_me: boolean;
  read: boolean;
  ack: number;
  is_deleted: boolean;
  is_edited: boolean;
  media_type: string;
  media_key: string | null;
  mimetype: string | null;
  file_name: string | null;
  ticket_id: number;
  contact_id: number | null;
  quoted_msg_id: number | string | null;
  source: string;
  user_id: number | null;
  send_error: string | null;
  transcription: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  c_id: number | null;
  c_name: string | null;
  c_pic: string | null;
  q_id: number | string | null;
  q_body: string | null;
  q_from_me: boolean | null;
  q_media_type: string | null;
  q_media_key: string | null;
  q_is_deleted: boolean | null;
  qc_id: number | null;
  qc_name: string | null;
};

/**
 * The columns a Message is made of, read by hand (no query builder: building a three-join select
 * with Drizzle cost more CPU than the rest of GET /messages): the message as `m`, its author `c`,
 * the quoted message `q` and its author `qc`.
 */
const RAW_COLUMNS =
  sql.raw(`m.id, m.wid, m.whatsapp_id, m.body, m.from_me, m.read, m.ack, m.is_deleted, m.is_edited, m.media_type, m.media_key,
       m.mimetype, m.file_name, m.ticket_id, m.contact_id, m.quoted_msg_id, m.source, m.user_id, m.send_error, m.transcription, m.created_at, m.updated_at,
       c.id as c_id, c.name as c_name, c.profile_pic_url as c_pic,
       q.id as q_id, q.body as q_body, q.from_me as q_from_me, q.media_type as q_media_type, q.media_key as q_media_key,
       q.is_deleted as q_is_deleted, qc.id as qc_id, qc.name as qc_name`);
const RAW_JOINS = sql.raw(`left join contacts c on c.id = m.contact_id
    left join messages q on q.id = m.quoted_msg_id
    left join contacts qc on qc.id = q.contact_id`);

/** A row of RAW_COLUMNS as the answer's Message (a deleted message, or a deleted quote, shows no body and no media). */
function fromRaw(r: RawMessageRow): Message {
  return {
    id: Number(r.id),
    wid: r.wid,
    body: r.is_deleted ? "" : r.body,
    fromMe: r.from_me,
    read: r.read,
    ack: Number(r.ack),
    isDeleted: r.is_deleted,
    isEdited: r.is_edited,
    mediaType: r.media_type as Message["mediaType"],
    mediaUrl: r.is_deleted ? null : mediaUrl(r.media_key),
    mimetype: r.mimetype,
    fileName: r.file_name,
    ticketId: Number(r.ticket_id),
    contactId: r.contact_id === null ? null : Number(r.contact_id),
    contact: r.c_id === null ? null : { id: Number(r.c_id), name: r.c_name ?? "", profilePicUrl: r.c_pic ?? "" },
    quotedMsgId: r.quoted_msg_id === null ? null : Number(r.quoted_msg_id),
    source: r.source as Message["source"],
    userId: r.user_id === null ? null : Number(r.user_id),
    sendError: r.send_error,
    // only once a voice note has one (messages built at send time carry none)
    ...(r.transcription != null && { transcription: r.transcription }),
    // an internal note (never sent): the chat shows it apart
    ...(r.source === "note" && { internal: true }),
    quotedMsg:
      r.q_id === null
        ? null
        : {
            id: Number(r.q_id),
            body: r.q_is_deleted ? "" : (r.q_body ?? ""),
            fromMe: !!r.q_from_me,
            mediaType: (r.q_media_type ?? "chat") as Message["mediaType"],
            mediaUrl: r.q_is_deleted ? null : mediaUrl(r.q_media_key),
            isDeleted: !!r.q_is_deleted,
            contact: r.qc_id === null ? null : { id: Number(r.qc_id), name: r.qc_name ?? "" },
          },
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/**
 * A change to one message and the message as it then reads, in ONE statement: `change` is a CTE
 * named `u` (an update … returning *), `extra` more CTEs after it (a journal step). Answers
 * undefined when the change touched nothing. The channel's acks take this path (two per message).
 */
export async function changeAndLoadMessage(db: DbOrTx, change: SQL, extra: SQL = sql``): Promise<Message | undefined> {
  const { rows } = await db.execute<RawMessageRow>(sql`
    with u as (${change})${extra}
    select ${RAW_COLUMNS}
    from u m
    ${RAW_JOINS}`);
  return rows[0] ? fromRaw(rows[0]) : undefined;
}

/** One message by id, with its author and the quoted message. */
export async function loadMessage(db: DbOrTx, id: number): Promise<Message | undefined> {
  const { rows } = await db.execute<RawMessageRow>(sql`select ${RAW_COLUMNS} from messages m ${RAW_JOINS} where m.id = ${id}`);
  return rows[0] ? fromRaw(rows[0]) : undefined;
}

/** Messages by id, in the order of `ids` (one array parameter: one statement text whatever their number). */
export async function loadMessages(db: DbOrTx, ids: number[]): Promise<Message[]> {
  if (!ids.length) return [];
  const { rows } = await db.execute<RawMessageRow>(
    sql`select ${RAW_COLUMNS} from messages m ${RAW_JOINS} where m.id = any(${idArray(ids)}::bigint[])`,
  );
  const byId = new Map(rows.map((r) => [Number(r.id), fromRaw(r)]));
  return ids.map((id) => byId.get(id)).filter((m): m is Message => !!m);
}

/**
 * A page of a ticket's messages, newest first, and how many the ticket holds, in one statement (one
 * round trip, one snapshot; prepared once per connection on PostgreSQL, db/preparing-client.ts).
 */
export async function loadMessagesPage(
  db: DbOrTx,
  ticketId: number,
  offset: number,
  limit: number,
): Promise<{ messages: Message[]; count: number }> {
  const { rows } = await db.execute<RawMessageRow & { total: number }>(sql`
    select ${RAW_COLUMNS}, (select count(*)::int from messages where ticket_id = ${ticketId}) as total
    from messages m
    ${RAW_JOINS}
    where m.ticket_id = ${ticketId}
    order by m.created_at desc nulls last, m.id desc nulls last
    limit ${limit} offset ${offset}`);
  if (rows.length) return { messages: rows.map(fromRaw), count: Number(rows[0].total) };
  // past the last page (or none at all): the count on its own
  if (offset === 0) return { messages: [], count: 0 };
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.ticketId, ticketId));
  return { messages: [], count: Number(n) };
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
  const message = await loadMessage(ctx.db, messageId);
  if (!message) return undefined;
  const ticket = await loadTicket(ctx.db, message.ticketId);
  ctx.events.publish(action === "created" ? "message.created" : "message.updated", { message, ticket });
  return message;
}
