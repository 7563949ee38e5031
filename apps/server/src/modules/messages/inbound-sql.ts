import { type Placeholder, type SQL, sql } from "drizzle-orm";
import { Compiled } from "../../db/compiled.js";
import type { TicketSqlRow } from "../tickets/queries.js";
import { doneStep, type Journal } from "./journal.js";

/**
 * The message builder's SQL (inbound.ts keeps the receiving and the choice of path): the one
 * statement that stores a message in its ticket (`messageStatement`) and the one that stores
 * someone unknown's first message with its contact and ticket (`firstMessageStatement`), each
 * compiled once per shape (`db/compiled.ts`), and the pieces they share.
 */

/**
 * The safety net of the bot steps: a job stored with each customer message, due a minute later,
 * removed once the steps ran after the commit. A crash in between leaves it: the job runner runs
 * the steps then (modules/bots: `runMissedSteps`).
 */
export const BOTS_INBOUND_JOB = "bots.inbound";
const BOTS_SAFETY_DELAY_S = 60;

/** A statement's answer: the ticket as the lists show it, with the message's id and times. */
export type StoredRow = TicketSqlRow & { m_id: number | string; m_created: Date | string; m_updated: Date | string };

/** The shapes of the message's statement: guarded (run on its own), journaled, with the bots' safety-net job. */
export type WriteShape = `${"g" | "-"}${"j" | "-"}${"b" | "-"}`;

/**
 * The message, the ticket's preview and unread count, the journal's done mark and the bot steps'
 * safety net in one statement (`writeMessage`), compiled once per shape (`db/compiled.ts`).
 */
export function messageStatement(journal: Journal) {
  const v = (name: string) => sql.placeholder(name);
  return new Compiled<WriteShape, Record<string, unknown>>((shape) => {
    const guarded = shape[0] === "g";
    const journaled = shape[1] === "j";
    const botJob = shape[2] === "b";
    // the guard: the ticket as it was seen, locked before the insert reads it
    const guard = guarded
      ? sql`t as (
        select id from tickets
        where id = ${v("ticketId")} and status = ${v("status")} and status in ('open', 'pending')
          and queue_id is not distinct from ${v("queueId")}::int and user_id is not distinct from ${v("userId")}::int
        for update
      ), `
      : sql``;
    return sql`
      with ${guard}m as (
        ${messageInsert({ ticketId: sql`${v("ticketId")}::int`, contactId: sql`${v("contactId")}::int`, from: guarded ? sql`from t` : sql`` })}
        on conflict do nothing
        returning id, created_at, updated_at
      )${journaled ? doneStep(journal, v("journalId"), guarded ? sql`exists (select 1 from m)` : undefined) : sql``}${
        botJob ? botJobStep(v("ticketId")) : sql``
      }, u as (
        update tickets set
          last_message = ${v("preview")}::text,
          last_message_id = (select id from m),
          unread_messages = unread_messages + ${v("unread")}::int,
          updated_at = now()
        where id = ${v("ticketId")}::int and exists (select 1 from m)
        returning ${TICKET_RETURNING}
      )
      ${storedRow()}`;
  });
}

/**
 * The message's insert, its values as placeholders (`writeMessage`'s names) but the ticket, the
 * author and (when given) the id; `from`: the rows it reads them from.
 */
function messageInsert(o: { id?: SQL; ticketId: SQL; contactId: SQL; from: SQL }): SQL {
  const v = (name: string) => sql.placeholder(name);
  return sql`insert into messages (${o.id ? sql`id, ` : sql``}wid, whatsapp_id, body, from_me, read, ack, media_type, media_key, mimetype, file_name,
                              data_json, ticket_id, contact_id, quoted_msg_id, source)
        select ${o.id ? sql`${o.id}, ` : sql``}${v("wid")}::text, ${v("whatsappId")}::int, ${v("body")}::text, ${v("fromMe")}::boolean, ${v("fromMe")}::boolean,
               ${v("ack")}::int, ${v("mediaType")}::text, ${v("mediaKey")}::text, ${v("mimetype")}::text, ${v("fileName")}::text,
               ${v("dataJson")}::text, ${o.ticketId}, ${o.contactId}, ${v("quotedMsgId")}::bigint, ${v("source")}::text
        ${o.from}`;
}

/** The shapes of a first message's statement: journaled, with the bots' safety-net job, routed at birth (a second history row). */
export type FirstShape = `${"j" | "-"}${"b" | "-"}${"r" | "-"}`;

/** The new contact's columns in the answer of a first message's statement. */
export interface FirstContactColumns {
  nc_id: number;
  nc_name: string;
  nc_number: string | null;
  nc_lid: string | null;
  nc_email: string;
  nc_profile_pic_url: string;
  nc_is_group: boolean;
  nc_erased_at: Date | string | null;
  nc_search: string | null;
  nc_created_at: Date | string;
  nc_updated_at: Date | string;
}

/**
 * A new contact's first message in one statement (`storeFirst`): the contact (or nothing at all when
 * its number or LID was taken meanwhile), the ticket and the message with ids drawn first (each
 * names the other: the ticket's preview, the message's ticket), the ticket's history rows in their
 * order, the journal's done mark and the bots' safety net. Compiled once per shape.
 */
export function firstMessageStatement(journal: Journal) {
  const v = (name: string) => sql.placeholder(name);
  return new Compiled<FirstShape, Record<string, unknown>>((shape) => {
    const journaled = shape[0] === "j";
    const botJob = shape[1] === "b";
    const routed = shape[2] === "r";
    const historyRow = (n: number) =>
      sql`(${n}, ${v(`h${n}FromStatus`)}::text, ${v(`h${n}ToStatus`)}::text, ${v(`h${n}FromQueueId`)}::int, ${v(`h${n}QueueId`)}::int,
           ${v(`h${n}FromUserId`)}::int, ${v(`h${n}UserId`)}::int, ${v(`h${n}Actor`)}::text, ${v(`h${n}ActorUserId`)}::int, ${v(`h${n}Reason`)}::text)`;
    return sql`
      with c as (
        insert into contacts (name, number, lid, is_group) values (${v("name")}::text, ${v("number")}::text, ${v("lid")}::text, false)
        on conflict do nothing
        returning id, name, number, lid, email, profile_pic_url, is_group, erased_at, search, created_at, updated_at
      ), ids as (
        select c.id as contact_id, nextval('tickets_id_seq')::int as ticket_id, nextval('messages_id_seq') as message_id from c
      ), u as (
        insert into tickets (id, status, queue_id, user_id, transf, is_group, contact_id, whatsapp_id, last_message, last_message_id, unread_messages)
        select ticket_id, ${v("status")}::text, ${v("queueId")}::int, ${v("userId")}::int, ${v("transf")}::boolean, false, contact_id,
               ${v("whatsappId")}::int, ${v("preview")}::text, message_id, ${v("unread")}::int
        from ids
        returning ${TICKET_RETURNING}
      ), h as (
        insert into ticket_history (ticket_id, from_status, to_status, from_queue_id, queue_id, from_user_id, user_id, actor, actor_user_id, reason)
        select ids.ticket_id, h.from_status, h.to_status, h.from_queue_id, h.queue_id, h.from_user_id, h.user_id, h.actor, h.actor_user_id, h.reason
        from ids cross join (values ${historyRow(0)}${routed ? sql`, ${historyRow(1)}` : sql``})
          as h(n, from_status, to_status, from_queue_id, queue_id, from_user_id, user_id, actor, actor_user_id, reason)
        order by h.n
      ), m as (
        ${messageInsert({
          id: sql`ids.message_id`,
          ticketId: sql`ids.ticket_id`,
          contactId: sql`case when ${v("fromMe")}::boolean then null else ids.contact_id end`,
          from: sql`from ids`,
        })}
        returning id, created_at, updated_at
      )${journaled ? doneStep(journal, v("journalId"), sql`exists (select 1 from m)`) : sql``}${
        botJob ? botJobStep(sql`(select ticket_id from ids)`) : sql``
      }
      ${storedRow(
        sql`, c.id as nc_id, c.name as nc_name, c.number as nc_number, c.lid as nc_lid, c.email as nc_email, c.profile_pic_url as nc_profile_pic_url,
             c.is_group as nc_is_group, c.erased_at as nc_erased_at, c.search as nc_search, c.created_at as nc_created_at, c.updated_at as nc_updated_at`,
        sql` cross join c`,
      )}`;
  });
}

/** The columns a ticket's write returns (`returning`), for `storedRow`. */
const TICKET_RETURNING = sql.raw(
  "id, status, last_message, unread_messages, is_group, transf, user_id, queue_id, whatsapp_id, created_at, updated_at",
);

/**
 * The statement's answer (`StoredRow`): the message's id and times from the CTE `m`, and its ticket
 * as the lists show it from the CTE `u` (the ticket as written); `extra`: more columns, from more CTEs.
 */
function storedRow(extra: SQL = sql``, from: SQL = sql``): SQL {
  return sql`select m.id as m_id, m.created_at as m_created, m.updated_at as m_updated,
             u.id, u.status, u.last_message, false as last_failed, u.unread_messages, u.is_group, u.transf, u.user_id, u.queue_id, u.whatsapp_id, u.created_at, u.updated_at,
             us.name as user_name, q.name as queue_name, q.color as queue_color, w.name as whatsapp_name,
             coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
                       from ticket_tags tt join tags tg on tg.id = tt.tag_id where tt.ticket_id = u.id), '[]'::json) as tags${extra}
      from m cross join u${from}
      left join users us on us.id = u.user_id
      left join queues q on q.id = u.queue_id
      left join whatsapps w on w.id = u.whatsapp_id`;
}

/** The bot steps' safety-net job of the message of CTE `m` in the ticket `ticketId`, as a CTE to append. */
function botJobStep(ticketId: SQL | Placeholder): SQL {
  return sql`, bj as (
        insert into jobs (name, payload, run_at, max_attempts, singleton_key)
        select ${BOTS_INBOUND_JOB}, json_build_object('messageId', m.id, 'ticketId', ${ticketId}::int)::jsonb,
               now() + make_interval(secs => ${BOTS_SAFETY_DELAY_S}), 3, 'bots:msg:' || m.id from m
        on conflict do nothing
      )`;
}
