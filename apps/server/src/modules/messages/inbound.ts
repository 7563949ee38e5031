import type { Message, Ticket } from "@balcao/contract";
import { and, eq, gt, or, sql } from "drizzle-orm";
import type { ChannelEvent, InboundMessage } from "../../channels/channel.js";
import type { ChannelEventHandler } from "../../channels/manager.js";
import type { DbOrTx } from "../../db/client.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { isUniqueViolation } from "../../lib/errors.js";
import { mediaUrl, type StoredMedia } from "../../lib/media.js";
import { previewOf } from "../../lib/preview.js";
import { iso } from "../../lib/sql.js";
import { applyStatus, type ConnectionInfo, connectionInfo } from "../connections/service.js";
import { contactOf } from "../contacts/service.js";
import { createProfilePictures } from "../contacts/whatsapp.js";
import type { ConvDeps } from "../outbox/deps.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import { getSettingValues } from "../settings/service.js";
import { liveTicketOf, loadTicket, ticketFromRow, type TicketRow, type TicketSqlRow } from "../tickets/queries.js";
import { writeHistory } from "../tickets/apply-transition.js";
import { decideTransition } from "../tickets/state-machine.js";
import type { Journal } from "./journal.js";
import { changeAndLoadMessage, loadMessage } from "./queries.js";
import { refreshPreview } from "./preview.js";

/**
 * The one inbound pipeline: every channel's events come here. A message is stored once per
 * (connection, channel id) — redelivery is a no-op — then: contact by number or LID, the live
 * ticket of the contact on that connection (or a closed one reopened within timeCreateNewTicket,
 * or a new pending one), the message, the ticket's last message and unread count, the ticket's
 * history, and the journal row * marked done — all in one transaction; events follow the commit. The bots (opt-out words,
 * chat entries, Typebot, the queue menu) run after the commit (`afterMessage`): a slow or failing
 * bot never loses or delays the stored message.
 */

const CACHE_MS = 10_000;
type ContactRow = typeof contacts.$inferSelect;

class Duplicate extends Error {}

type ContactLite = Ticket["contact"];
type StoredRow = TicketSqlRow & { m_id: number | string; m_created: Date | string; m_updated: Date | string };
type LiveTicket = Pick<TicketRow, "id" | "status" | "queueId" | "userId">;
type FoundRow = {
  id: number;
  name: string;
  number: string | null;
  lid: string | null;
  email: string;
  is_group: boolean;
  profile_pic_url: string;
  t_id: number | null;
  t_status: string | null;
  t_queue_id: number | null;
  t_user_id: number | null;
};

interface Stored {
  message: Message;
  quoted: boolean;
  ticket: Ticket;
  /** status/queue/user before, when this message created, reopened or routed the ticket */
  previous?: { status: Ticket["status"]; queueId: number | null; userId: number | null };
  ticketChanged: boolean;
  /** this message opened a new ticket */
  created: boolean;
  newContacts: ContactRow[];
}

/** What runs once a message is stored and published: the bots (modules/bots). Its failures are logged, never undo the message. */
export type AfterMessage = (message: Message, ticket: Ticket) => Promise<void>;

/**
 * The safety net of the bot steps: a job stored with each customer message, due a minute later,
 * removed once the steps ran after the commit. A crash in between leaves it: the job runner runs
 * the steps then (modules/bots: `runMissedSteps`).
 */
export const BOTS_INBOUND_JOB = "bots.inbound";
const BOTS_SAFETY_DELAY_S = 60;

export function createInboundPipeline(
  conv: ConvDeps,
  journal: Journal,
  afterMessage?: AfterMessage,
): ChannelEventHandler & { receive: (whatsappId: number, msg: InboundMessage, journalId?: number) => Promise<void> } {
  const { ctx } = conv;
  const db = ctx.db;
  const pictures = createProfilePictures(conv);

  // what every message reads, cached briefly and dropped when an admin changes it
  const connCache = new Map<number, { at: number; info: ConnectionInfo | undefined }>();
  const SETTINGS = ["CheckMsgIsGroup", "timeCreateNewTicket", "msgMediaUnavailable", "msgVoiceCall", "msgVideoCall"] as const;
  let settingsCache: { at: number; values: Record<(typeof SETTINGS)[number], string> } | undefined;
  const dropConnections = () => connCache.clear();
  ctx.events.on("whatsapp.saved", dropConnections);
  ctx.events.on("whatsapp.deleted", dropConnections);
  ctx.events.on("queue.saved", dropConnections);
  ctx.events.on("queue.deleted", dropConnections);
  ctx.events.on("setting.updated", () => {
    settingsCache = undefined;
  });

  async function connection(id: number) {
    const hit = connCache.get(id);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.info;
    const info = await connectionInfo(db, id);
    connCache.set(id, { at: Date.now(), info });
    return info;
  }

  async function settings() {
    if (settingsCache && Date.now() - settingsCache.at < CACHE_MS) return settingsCache.values;
    const values = await getSettingValues(db, SETTINGS);
    settingsCache = { at: Date.now(), values };
    return values;
  }

  /** Marks a journaled event handled when nothing else was written for it. */
  const done = (journalId: number | undefined) => (journalId === undefined ? Promise.resolve() : journal.done(journalId));
  const doneStep = (journalId: number | undefined) => (journalId === undefined ? sql`` : sql`, j as (${journal.doneStatement(journalId)})`);

  async function receive(whatsappId: number, msg: InboundMessage, journalId?: number): Promise<void> {
    // redelivery is caught by the unique (connection, wid) index inside the transaction
    const conn = await connection(whatsappId);
    if (!conn) return done(journalId);
    const s = await settings();
    if (msg.chat.isGroup && s.CheckMsgIsGroup === "enabled") return done(journalId);

    let stored: StoredMedia | undefined;
    let body = msg.body;
    if (msg.media) {
      try {
        if (!msg.media.data) throw new Error("media bytes unavailable");
        const data = Buffer.isBuffer(msg.media.data) ? msg.media.data : await msg.media.data();
        stored = await conv.media.storeInbound(data, msg.media.mimetype);
      } catch (err) {
        ctx.log.warn({ err, whatsappId, wid: msg.id }, "inbound media could not be stored");
        body = body || s.msgMediaUnavailable;
      }
    }
    const reopenSeconds = Number(s.timeCreateNewTicket) || 0;

    let result: Stored | undefined;
    for (let attempt = 0; !result; attempt++) {
      try {
        result = await db.transaction((tx) => store(tx, conn, msg, body, stored, reopenSeconds, journalId));
      } catch (err) {
        // a concurrent delivery stored it first
        if (err instanceof Duplicate || isUniqueViolation(err, "messages_wid_key")) {
          if (stored) await conv.media.remove(stored.key);
          return done(journalId);
        }
        // another process opened the contact's live ticket meanwhile: use it
        if (attempt < 3 && isUniqueViolation(err, "tickets_one_live_per_contact")) continue;
        throw err;
      }
    }
    const r = result;

    const ticket = r.ticket;
    const message = r.quoted ? await loadMessage(db, eq(messages.id, r.message.id)) : r.message;
    for (const c of r.newContacts) ctx.events.publish("contact.saved", { action: "create", contact: contactOf(c) });
    if (r.ticketChanged) ctx.events.publish("ticket.updated", { ticket, previous: r.previous, ...(r.created && { created: true }) });
    if (message) ctx.events.publish("message.created", { message, ticket });
    if (!msg.fromMe) pictures.refresh(whatsappId, ticket.contact);
    if (afterMessage && message && !msg.fromMe) {
      // the chat's next event waits for its bots: answers keep the order of the customer's messages
      const ran = await afterMessage(message, ticket).then(
        () => true,
        (err) => {
          ctx.log.error({ err, ticketId: ticket.id }, "bot steps failed; the job runner tries them again");
          return false;
        },
      );
      if (ran) await db.execute(sql`delete from jobs where singleton_key = ${`bots:msg:${message.id}`} and state = 'queued'`);
    }
  }

  async function store(
    tx: DbOrTx,
    conn: ConnectionInfo,
    msg: InboundMessage,
    body: string,
    stored: StoredMedia | undefined,
    reopenSeconds: number,
    journalId: number | undefined,
  ): Promise<Stored> {
    const newContacts: ContactRow[] = [];
    const chatAddr = msg.chat.isGroup
      ? { number: msg.chat.groupId, name: msg.chat.name, isGroup: true }
      : { number: msg.chat.number, lid: msg.chat.lid, name: msg.fromMe ? undefined : (msg.pushName ?? msg.chat.name), isGroup: false };
    const { contact, live } = await resolveContact(tx, chatAddr, newContacts, conn.id);
    const author =
      msg.chat.isGroup && msg.sender && !msg.fromMe
        ? (
            await resolveContact(
              tx,
              { number: msg.sender.number, lid: msg.sender.lid, name: msg.sender.name ?? msg.pushName, isGroup: false },
              newContacts,
            )
          ).contact
        : contact;

    let ticket: LiveTicket | undefined = live;
    let previous: Stored["previous"];
    let ticketChanged = false;
    let wasCreated = false;
    if (!ticket) {
      const [recent] = await tx
        .select()
        .from(tickets)
        .where(
          and(
            eq(tickets.contactId, contact.id),
            eq(tickets.whatsappId, conn.id),
            msg.fromMe ? undefined : gt(tickets.updatedAt, sql`now() - make_interval(secs => ${reopenSeconds})`),
          ),
        )
        .orderBy(sql`${tickets.updatedAt} desc nulls last`)
        .limit(1)
        .for("update");
      let row: TicketRow | undefined;
      if (msg.fromMe && recent) {
        // our own message echoed by the engine (or sent from the phone): it joins the latest ticket as is
        row = recent;
      } else if (recent && reopenSeconds > 0) {
        // the customer writes again within the window: the transition function reopens it
        const from = { status: recent.status, queueId: recent.queueId, userId: recent.userId };
        const outcome = decideTransition(
          { ...from, transf: recent.transf, whatsappId: recent.whatsappId, isGroup: recent.isGroup },
          { kind: "customer" },
          { type: "customerMessage" },
        );
        if (!outcome.ok) throw new Error(outcome.error);
        if (outcome.changed) {
          previous = from;
          const n = outcome.next;
          [row] = await tx
            .update(tickets)
            .set({ status: n.status, userId: n.userId, queueId: n.queueId, transf: n.transf, closedAt: null })
            .where(eq(tickets.id, recent.id))
            .returning();
          if (outcome.history) {
            await writeHistory(tx, {
              ticketId: recent.id,
              from,
              to: { status: n.status, queueId: n.queueId, userId: n.userId },
              actor: { kind: "customer" },
              reason: outcome.history.reason,
            });
          }
          ticketChanged = true;
        } else row = recent;
      } else {
        const [created] = await tx
          .insert(tickets)
          .values({ contactId: contact.id, whatsappId: conn.id, status: "pending", isGroup: msg.chat.isGroup })
          .onConflictDoNothing()
          .returning();
        row = created ?? (await liveTicketOf(tx, contact.id, conn.id));
        if (!row) throw new Error("ticket vanished");
        if (created) {
          await writeHistory(tx, {
            ticketId: created.id,
            to: { status: "pending", queueId: null, userId: null },
            actor: msg.fromMe ? { kind: "system" } : { kind: "customer" },
            reason: "create",
          });
        }
        ticketChanged = !!created;
        if (created) wasCreated = true;
      }
      ticket = { id: row.id, status: row.status, queueId: row.queueId, userId: row.userId };
    }

    let quotedMsgId: number | null = null;
    if (msg.quotedId) {
      const [q] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(sql`coalesce(${messages.whatsappId}, 0) = ${conn.id}`, eq(messages.wid, msg.quotedId)));
      quotedMsgId = q?.id ?? null;
    }

    const mediaType = stored?.mediaType && msg.mediaType !== "sticker" ? stored.mediaType : msg.mediaType;
    // routing, not a bot: a connection with one queue (and no Typebot, no self-service before the menu) puts its new conversations there at once
    const soleQueue =
      !msg.fromMe &&
      !msg.chat.isGroup &&
      mediaType !== "call_log" &&
      ticket.queueId === null &&
      ticket.userId === null &&
      conn.queues.length === 1 &&
      !conn.typebot.enabled &&
      conn.selfService !== "before"
        ? conn.queues[0].id
        : undefined;
    if (soleQueue !== undefined) {
      previous ??= { status: ticket.status, queueId: ticket.queueId, userId: ticket.userId };
      ticketChanged = true;
    }
    const fileName = msg.media?.fileName ?? null;
    const mimetype = stored?.mimetype ?? msg.media?.mimetype ?? null;
    const contactId = msg.fromMe ? null : author.id;
    // the message and the ticket's preview, unread count and queue in one statement
    const res = await tx.execute<StoredRow>(sql`
      with m as (
        insert into messages (wid, whatsapp_id, body, from_me, read, ack, media_type, media_key, mimetype, file_name, data_json, ticket_id, contact_id,
                              quoted_msg_id, source)
        values (${msg.id}, ${conn.id}, ${body}, ${msg.fromMe}, ${msg.fromMe}, ${msg.fromMe ? 1 : 0}, ${mediaType}, ${stored?.key ?? null}, ${mimetype},
                ${fileName}, ${msg.location ? JSON.stringify(msg.location) : msg.vcard ? JSON.stringify(msg.vcard) : null}, ${ticket.id}, ${contactId},
                ${quotedMsgId}, ${msg.fromMe ? "phone" : "customer"})
        on conflict do nothing
        returning id, created_at, updated_at
      )${doneStep(journalId)}${
        afterMessage && !msg.fromMe
          ? sql`, bj as (
        insert into jobs (name, payload, run_at, max_attempts, singleton_key)
        select ${BOTS_INBOUND_JOB}, json_build_object('messageId', m.id, 'ticketId', ${ticket.id}::int)::jsonb,
               now() + make_interval(secs => ${BOTS_SAFETY_DELAY_S}), 3, 'bots:msg:' || m.id from m
        on conflict do nothing
      )`
          : sql``
      }, u as (
        update tickets set
          last_message = ${previewOf(body, mediaType, fileName)},
          last_message_id = (select id from m),
          unread_messages = unread_messages + ${msg.fromMe ? 0 : 1},
          updated_at = now()
          ${soleQueue !== undefined ? sql`, queue_id = ${soleQueue}` : sql``}
        where id = ${ticket.id} and exists (select 1 from m)
        returning id, status, last_message, unread_messages, is_group, transf, user_id, queue_id, whatsapp_id, created_at, updated_at
      )
      select m.id as m_id, m.created_at as m_created, m.updated_at as m_updated,
             u.id, u.status, u.last_message, false as last_failed, u.unread_messages, u.is_group, u.transf, u.user_id, u.queue_id, u.whatsapp_id, u.created_at, u.updated_at,
             us.name as user_name, q.name as queue_name, q.color as queue_color, w.name as whatsapp_name,
             coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
                       from ticket_tags tt join tags tg on tg.id = tt.tag_id where tt.ticket_id = u.id), '[]'::json) as tags
      from m cross join u
      left join users us on us.id = u.user_id
      left join queues q on q.id = u.queue_id
      left join whatsapps w on w.id = u.whatsapp_id`);
    const r = res.rows[0];
    if (!r) throw new Duplicate();
    const ticketDto = ticketFromRow(r, {
      id: contact.id,
      name: contact.name,
      number: contact.number,
      lid: contact.lid,
      email: contact.email,
      profilePicUrl: contact.profilePicUrl,
      isGroup: contact.isGroup,
    });
    if (soleQueue !== undefined) {
      await writeHistory(tx, {
        ticketId: ticket.id,
        from: { status: ticket.status, queueId: ticket.queueId, userId: ticket.userId },
        to: { status: ticketDto.status, queueId: soleQueue, userId: ticketDto.userId },
        actor: { kind: "bot" },
        reason: "queue",
      });
    }
    const message: Message = {
      id: Number(r.m_id),
      wid: msg.id,
      body,
      fromMe: msg.fromMe,
      read: msg.fromMe,
      ack: msg.fromMe ? 1 : 0,
      isDeleted: false,
      isEdited: false,
      mediaType: mediaType as Message["mediaType"],
      mediaUrl: mediaUrl(stored?.key),
      mimetype,
      fileName,
      ticketId: ticket.id,
      contactId,
      contact: contactId !== null ? { id: author.id, name: author.name, profilePicUrl: author.profilePicUrl } : null,
      quotedMsgId,
      quotedMsg: null,
      source: msg.fromMe ? "phone" : "customer",
      userId: null,
      sendError: null,
      createdAt: iso(r.m_created),
      updatedAt: iso(r.m_updated),
    };
    return { message, quoted: quotedMsgId !== null, ticket: ticketDto, previous, ticketChanged, created: wasCreated, newContacts };
  }

  /**
   * The contact of an address (number first, then LID), created when unknown, with its live ticket
   * on the connection locked for this transaction — one query when both exist.
   */
  async function resolveContact(
    tx: DbOrTx,
    a: { number?: string; lid?: string; name?: string; isGroup: boolean },
    created: ContactRow[],
    whatsappId?: number,
  ): Promise<{ contact: ContactLite; live?: LiveTicket }> {
    const number = a.number || undefined;
    const lid = a.lid || undefined;
    if (!number && !lid) throw new Error("inbound message without an address");
    const match = sql.join(
      [number ? sql`c.number = ${number}` : undefined, lid ? sql`c.lid = ${lid}` : undefined].filter((x) => x !== undefined),
      sql` or `,
    );
    const { rows } = await tx.execute<FoundRow>(sql`
      select c.id, c.name, c.number, c.lid, c.email, c.is_group, c.profile_pic_url, t.id as t_id, t.status as t_status, t.queue_id as t_queue_id,
             t.user_id as t_user_id
      from contacts c
      left join lateral (
        select id, status, queue_id, user_id from tickets
        where ${whatsappId === undefined ? sql`false` : sql`contact_id = c.id and coalesce(whatsapp_id, 0) = ${whatsappId} and status in ('open','pending')`}
        for update
      ) t on true
      where ${match}`);
    const row = rows.find((c) => number && c.number === number) ?? rows[0];
    if (row) {
      const contact: ContactLite = {
        id: row.id,
        name: row.name,
        number: row.number,
        lid: row.lid,
        email: row.email,
        isGroup: row.is_group,
        profilePicUrl: row.profile_pic_url,
      };
      const live: LiveTicket | undefined =
        row.t_id !== null
          ? {
              id: row.t_id,
              status: row.t_status as Ticket["status"],
              queueId: row.t_queue_id,
              userId: row.t_user_id,
            }
          : undefined;
      const patch: Partial<ContactRow> = {};
      // the number and the LID of one person end up on one contact
      if (lid && !row.lid && !rows.some((c) => c.lid === lid)) patch.lid = lid;
      if (number && !row.number) patch.number = number;
      if (a.name && a.name !== row.name && row.name === (row.number ?? row.lid)) patch.name = a.name;
      if (Object.keys(patch).length === 0) return { contact, live };
      const [updated] = await tx
        .update(contacts)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(contacts.id, row.id))
        .returning();
      return { contact: { ...contact, name: updated.name, number: updated.number, lid: updated.lid }, live };
    }
    const [inserted] = await tx
      .insert(contacts)
      .values({ name: a.name || number || lid || "", number, lid, isGroup: a.isGroup })
      .onConflictDoNothing()
      .returning();
    if (inserted) {
      created.push(inserted);
      return { contact: liteOf(inserted) };
    }
    // created meanwhile by another transaction
    const [again] = await tx
      .select()
      .from(contacts)
      .where(or(number ? eq(contacts.number, number) : undefined, lid ? eq(contacts.lid, lid) : undefined));
    if (!again) throw new Error("contact vanished");
    return { contact: liteOf(again) };
  }

  async function ack(whatsappId: number, wid: string, value: number, journalId?: number) {
    // the tick moves, the journal row is done, and the message is read back: one statement
    const message = await changeAndLoadMessage(
      db,
      sql`update messages set ack = ${value}, updated_at = now()
        where coalesce(whatsapp_id, 0) = ${whatsappId} and wid = ${wid} and ack < ${value}
        returning *`,
      doneStep(journalId),
    );
    if (message) ctx.events.publish("message.updated", { message, ticket: await loadTicket(db, message.ticketId) });
  }

  async function publishUpdate(messageId: number, ticketId: number) {
    const [message, ticket] = await Promise.all([loadMessage(db, eq(messages.id, messageId)), loadTicket(db, ticketId)]);
    if (message) ctx.events.publish("message.updated", { message, ticket });
  }

  async function changeMessage(whatsappId: number, wid: string, change: { body: string } | { deleted: true }, journalId?: number) {
    const changed = await db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: number | string; ticket_id: number }>(sql`
        with u as (
          update messages set ${"deleted" in change ? sql`is_deleted = true` : sql`body = ${change.body}, is_edited = true`}, updated_at = now()
          where coalesce(whatsapp_id, 0) = ${whatsappId} and wid = ${wid}
          returning id, ticket_id
        )${doneStep(journalId)}
        select id, ticket_id from u`);
      const row = rows[0];
      if (row) await refreshPreview(tx, row.ticket_id, Number(row.id));
      return row;
    });
    if (changed) await publishUpdate(Number(changed.id), changed.ticket_id);
  }

  async function call(whatsappId: number, e: Extract<ChannelEvent, { type: "call" }>, journalId?: number) {
    const conn = await connection(whatsappId);
    if (!conn) return done(journalId);
    const s = await settings();
    await receive(
      whatsappId,
      {
        id: `call:${e.callId}`,
        fromMe: false,
        chat: { ...e.from, isGroup: false },
        timestamp: e.at,
        body: e.isVideo ? s.msgVideoCall : s.msgVoiceCall,
        mediaType: "call_log",
      },
      journalId,
    );
    if (conn.acceptCalls) return;
    const session = conv.channels.get(whatsappId);
    await session?.rejectCall(e.callId, e.from).catch((err) => ctx.log.warn({ err }, "rejecting a call failed"));
    if (!conn.callRefuseMessage.trim()) return;
    const [t] = await db
      .select({ id: tickets.id })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .where(and(sql`coalesce(${messages.whatsappId}, 0) = ${whatsappId}`, eq(messages.wid, `call:${e.callId}`)));
    if (!t) return;
    const ticket = await loadTicket(db, t.id);
    const q = await enqueueMessage(db, {
      ticket,
      source: "bot",
      userId: null,
      body: conn.callRefuseMessage,
      content: { kind: "text", body: conn.callRefuseMessage },
    });
    await conv.outbox.committed([{ id: q.id, whatsappId: q.whatsappId }]);
  }

  /** The customer types: the agents watching their live ticket on this connection see it. */
  async function typing(whatsappId: number, from: { number?: string; lid?: string }, on: boolean) {
    if (!from.number && !from.lid) return;
    const { rows } = await db.execute<{ id: number }>(sql`
      select t.id from tickets t join contacts c on c.id = t.contact_id
      where coalesce(t.whatsapp_id, 0) = ${whatsappId} and t.status in ('open', 'pending')
        and (${from.number ? sql`c.number = ${from.number}` : sql`false`} or ${from.lid ? sql`c.lid = ${from.lid}` : sql`false`})
      limit 1`);
    if (rows[0]) ctx.events.publish("ticket.typing", { ticketId: rows[0].id, typing: on });
  }

  const handle = async (whatsappId: number, event: ChannelEvent, journalId?: number) => {
    switch (event.type) {
      case "message":
        return receive(whatsappId, event.message, journalId);
      case "ack":
        return ack(whatsappId, event.id, event.ack, journalId);
      case "edit":
        return changeMessage(whatsappId, event.id, { body: event.body }, journalId);
      case "delete":
        return changeMessage(whatsappId, event.id, { deleted: true }, journalId);
      case "status":
        return applyStatus(ctx, whatsappId, event);
      case "call":
        return call(whatsappId, event, journalId);
      case "reaction":
        return done(journalId);
      case "typing":
        return typing(whatsappId, event.from, event.typing);
    }
  };
  return Object.assign(handle, { receive });
}

function liteOf(r: ContactRow): ContactLite {
  return { id: r.id, name: r.name, number: r.number, lid: r.lid, email: r.email, profilePicUrl: r.profilePicUrl, isGroup: r.isGroup };
}
