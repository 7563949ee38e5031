import type { Message, Ticket } from "@balcao/contract";
import { and, eq, sql } from "drizzle-orm";
import type { InboundMessage } from "../../channels/channel.js";
import type { DbOrTx } from "../../db/client.js";
import type { contacts } from "../../db/schema/index.js";
import { messages } from "../../db/schema/index.js";
import { isUniqueViolation } from "../../lib/errors.js";
import { mediaUrl, type StoredMedia } from "../../lib/media.js";
import { previewOf } from "../../lib/preview.js";
import { iso } from "../../lib/sql.js";
import type { ConnectionInfo } from "../connection-facts/info.js";
import { findContact, liteOf, resolveContact } from "../contacts/resolve.js";
import { contactOf } from "../contacts/service.js";
import { createProfilePictures } from "../contacts/whatsapp.js";
import type { ConvDeps } from "../outbox/deps.js";
import { historyColumns } from "../tickets/apply-transition.js";
import { bornTicket, ticketForMessage } from "../tickets/inbound-ticket.js";
import { ticketFromRow } from "../tickets/queries.js";
import type { InboundConfig } from "./inbound-config.js";
import { type Journal, markDone } from "./journal.js";
import {
  type FirstContactColumns,
  type FirstShape,
  firstMessageStatement,
  messageStatement,
  type StoredRow,
  type WriteShape,
} from "./inbound-sql.js";
import { loadMessage } from "./queries.js";
import { cancelQueued } from "../../jobs/runner.js";

/**
 * The message builder: a channel message is stored once per (connection, channel id) —
 * redelivery is a no-op — then: contact by number or LID, its ticket (`tickets/inbound-ticket.ts`:
 * live, reopened, new, routed to a sole queue — every change through the transition function),
 * the message, the ticket's last message and unread count, and the journal row marked done — all
 * in one transaction, or in one statement in the two common cases (a known contact's message to
 * its live ticket, `storeSteady`; someone unknown's first message, `storeFirst`); events follow
 * the commit. The bots (opt-out words, chat entries, Typebot, the queue menu) run after the commit
 * (`afterMessage`): a slow or failing bot never loses or delays the stored message.
 */

type ContactRow = typeof contacts.$inferSelect;

/** A channel message as the builder stores it: its connection, its body and media as kept, the bots' plan, its journal row. */
interface Incoming {
  conn: ConnectionInfo;
  msg: InboundMessage;
  body: string;
  stored: StoredMedia | undefined;
  mediaType: string;
  bots: BotPlan | undefined;
  journalId: number | undefined;
  /** the steady case's lookup found no contact for the chat's address */
  unknownContact?: boolean;
}

class Duplicate extends Error {}

interface Stored {
  message: Message;
  quoted: boolean;
  ticket: Ticket;
  previous?: { status: Ticket["status"]; queueId: number | null; userId: number | null };
  ticketChanged: boolean;
  created: boolean;
  newContacts: ContactRow[];
  /** the bot steps' safety-net job was stored with the message */
  botJob: boolean;
}

/** What runs once a message is stored and published: the bots (modules/bots). Its failures are logged, never undo the message. */
export type AfterMessage = (message: Message, ticket: Ticket) => Promise<void>;

/**
 * Whether a customer's text asks nothing of an agent (an opt-out answer to a disparo): asked inside
 * the message's transaction when the contact has no live ticket; such a message reopens nothing.
 */
export type QuietMessage = (tx: DbOrTx, contactId: number, body: string) => Promise<boolean>;

/**
 * What the bots may do with a customer message (modules/bots), read from their caches before the message's
 * transaction (no statement while cached): whether it may be an opt-out word, and — once its ticket is placed —
 * whether any bot may answer there. When none may, the message is stored without the bot steps' safety-net job.
 */
export interface BotPlan {
  optOut: boolean;
  mayAnswer(ticket: Pick<Ticket, "isGroup" | "userId" | "status" | "queueId" | "whatsappId">): boolean;
}
export type PlanBots = (message: { body: string; mediaType: string; fromMe: boolean }, whatsappId: number) => Promise<BotPlan>;

export interface MessageBuilderHooks {
  afterMessage?: AfterMessage;
  quiet?: QuietMessage;
  plan?: PlanBots;
}

/**
 * The safety net of the bot steps: a job stored with each customer message, due a minute later,
 * removed once the steps ran after the commit. A crash in between leaves it: the job runner runs
 * the steps then (modules/bots: `runMissedSteps`).
 */
export { BOTS_INBOUND_JOB } from "./inbound-sql.js";

export type ReceiveMessage = (whatsappId: number, msg: InboundMessage, journalId?: number) => Promise<void>;

export function createMessageBuilder(
  conv: ConvDeps,
  journal: Journal,
  config: InboundConfig,
  hooks: MessageBuilderHooks = {},
): ReceiveMessage {
  const { afterMessage, quiet, plan } = hooks;
  const { ctx } = conv;
  const db = ctx.db;
  const pictures = createProfilePictures(conv);
  const writeStatement = messageStatement(journal);
  const firstStatement = firstMessageStatement(journal);

  async function receive(whatsappId: number, msg: InboundMessage, journalId?: number): Promise<void> {
    // redelivery is caught by the unique (connection, wid) index inside the transaction
    const conn = await config.connection(whatsappId);
    if (!conn) return markDone(journal, journalId);
    const s = await config.settings();
    if (msg.chat.isGroup && s.CheckMsgIsGroup === "enabled") return markDone(journal, journalId);

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
    const mediaType = stored?.mediaType && msg.mediaType !== "sticker" ? stored.mediaType : msg.mediaType;
    // before the transaction: the bots' caches may need the pool, and a transaction waiting for the pool never ends
    const bots = plan && afterMessage && !msg.fromMe ? await plan({ body, mediaType, fromMe: msg.fromMe }, conn.id) : undefined;

    const input: Incoming = { conn, msg, body, stored, mediaType, bots, journalId };
    let result: Stored | undefined;
    for (let attempt = 0; !result; attempt++) {
      try {
        // a known contact's steady conversation, or someone unknown's first message: one statement each, no transaction
        if (attempt === 0) result = (await storeSteady(input)) ?? (await storeFirst(input));
        result ??= await db.transaction((tx) => store(tx, input, reopenSeconds));
      } catch (err) {
        // a concurrent delivery stored it first
        if (err instanceof Duplicate || isUniqueViolation(err, "messages_wid_key")) {
          if (stored) await conv.media.remove(stored.key);
          return markDone(journal, journalId);
        }
        // another process opened the contact's live ticket meanwhile: use it
        if (attempt < 3 && isUniqueViolation(err, "tickets_one_live_per_contact")) continue;
        throw err;
      }
    }
    const r = result;

    const ticket = r.ticket;
    const message = r.quoted ? await loadMessage(db, r.message.id) : r.message;
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
      if (ran && r.botJob) await cancelQueued(db, [`bots:msg:${message.id}`]);
    }
  }

  async function store(tx: DbOrTx, input: Incoming, reopenSeconds: number): Promise<Stored> {
    const { conn, msg, body, stored, mediaType, bots } = input;
    const newContacts: ContactRow[] = [];
    const chatAddr = msg.chat.isGroup ? { number: msg.chat.groupId, name: msg.chat.name, isGroup: true } : personOf(msg);
    const { contact, live } = await resolveContact(tx, chatAddr, newContacts, conn.id, input.unknownContact);
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

    const routesToSoleQueue = routesToItsSoleQueue(conn, msg, mediaType);
    const placed = await ticketForMessage(tx, {
      contactId: contact.id,
      whatsappId: conn.id,
      isGroup: msg.chat.isGroup,
      fromMe: msg.fromMe,
      live,
      newContact: newContacts.some((c) => c.id === contact.id),
      reopenSeconds,
      soleQueueId: routesToSoleQueue ? conn.queues[0].id : undefined,
      quiet:
        !live &&
        !msg.fromMe &&
        !msg.chat.isGroup &&
        mediaType === "chat" &&
        !!quiet &&
        bots?.optOut !== false &&
        (await quiet(tx, contact.id, body)),
    });
    const ticket = placed.ticket;

    let quotedMsgId: number | null = null;
    if (msg.quotedId) {
      const [q] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(sql`coalesce(${messages.whatsappId}, 0) = ${conn.id}`, eq(messages.wid, msg.quotedId)));
      quotedMsgId = q?.id ?? null;
    }

    const contactId = msg.fromMe ? null : author.id;
    const w = await writeMessage(tx, { ...input, ticket, contactId, quotedMsgId, guarded: false });
    if (!w) throw new Duplicate();
    const message = messageOf(msg, body, stored, mediaType, ticket.id, quotedMsgId, w.row, contactId === null ? null : author);
    return {
      message,
      quoted: quotedMsgId !== null,
      ticket: ticketFromRow(w.row, contact),
      previous: placed.previous,
      ticketChanged: placed.changed,
      created: placed.created,
      newContacts,
      botJob: w.botJob,
    };
  }

  /**
   * The steady case in one statement: a known contact (nothing to add to it) writes to its live
   * ticket on the connection, which this message leaves as it is (no reopening, no routing). The
   * contact and ticket are looked up without a transaction; the statement then locks the ticket
   * only if it is still in the state seen (`guarded`), and stores the message, the ticket's
   * preview and the journal's done mark together, or nothing. Undefined: not that case, or the
   * ticket changed meanwhile, or the message is already stored — the transaction decides then.
   */
  async function storeSteady(input: Incoming): Promise<Stored | undefined> {
    const { conn, msg, body, stored, mediaType } = input;
    // a group's author and a quoted message need their own lookups: the transaction does them
    if (msg.chat.isGroup || msg.quotedId) return undefined;
    const found = await findContact(db, personOf(msg), conn.id, false);
    input.unknownContact = !found;
    const ticket = found?.live;
    if (!found || !ticket || Object.keys(found.patch).length > 0) return undefined;
    if (routesToItsSoleQueue(conn, msg, mediaType) && ticket.queueId === null && ticket.userId === null) return undefined;
    const contactId = msg.fromMe ? null : found.contact.id;
    const w = await writeMessage(db, { ...input, ticket, contactId, quotedMsgId: null, guarded: true });
    if (!w) return undefined;
    return {
      message: messageOf(msg, body, stored, mediaType, ticket.id, null, w.row, contactId === null ? null : found.contact),
      quoted: false,
      ticket: ticketFromRow(w.row, found.contact),
      ticketChanged: false,
      created: false,
      newContacts: [],
      botJob: w.botJob,
    };
  }

  /**
   * The message, the ticket's preview and unread count, the journal's done mark and the bot steps'
   * safety net in one statement. `guarded`: run on its own, it writes only while the ticket is still
   * live in the state `ticket` gives (locked for the statement), else nothing. Undefined when
   * nothing was written (the message was already stored, or the guard failed).
   */
  async function writeMessage(
    tx: DbOrTx,
    w: Incoming & {
      ticket: { id: number; status: Ticket["status"]; queueId: number | null; userId: number | null };
      contactId: number | null;
      quotedMsgId: number | null;
      guarded: boolean;
    },
  ): Promise<{ row: StoredRow; botJob: boolean } | undefined> {
    const { values, botJob } = messageValues(w, w.ticket);
    const shape = `${w.guarded ? "g" : "-"}${w.journalId !== undefined ? "j" : "-"}${botJob ? "b" : "-"}` as WriteShape;
    const res = await writeStatement.run<StoredRow>(tx, shape, {
      ...values,
      ticketId: w.ticket.id,
      contactId: w.contactId,
      quotedMsgId: w.quotedMsgId,
    });
    const row = res.rows[0];
    return row ? { row, botJob } : undefined;
  }

  /**
   * The values of the message's statements (`writeMessage`, `storeFirst`) but its ticket and author,
   * and whether the bot steps' safety-net job goes with it: most messages of a conversation in a
   * queue or with an agent have no bot to run, so no job for them.
   */
  function messageValues(
    w: Incoming,
    ticket: { status: Ticket["status"]; queueId: number | null; userId: number | null },
  ): { values: Record<string, unknown>; botJob: boolean } {
    const { conn, msg, body, stored, mediaType } = w;
    const fileName = msg.media?.fileName ?? null;
    const botJob =
      !!afterMessage &&
      !msg.fromMe &&
      (!w.bots ||
        w.bots.mayAnswer({
          status: ticket.status,
          userId: ticket.userId,
          queueId: ticket.queueId,
          isGroup: msg.chat.isGroup,
          whatsappId: conn.id,
        }));
    const values = {
      wid: msg.id,
      whatsappId: conn.id,
      body,
      fromMe: msg.fromMe,
      ack: msg.fromMe ? 1 : 0,
      mediaType,
      mediaKey: stored?.key ?? null,
      mimetype: stored?.mimetype ?? msg.media?.mimetype ?? null,
      fileName,
      dataJson: msg.location ? JSON.stringify(msg.location) : msg.vcard ? JSON.stringify(msg.vcard) : null,
      source: msg.fromMe ? "phone" : "customer",
      preview: previewOf(body, mediaType, fileName),
      unread: msg.fromMe ? 0 : 1,
      status: ticket.status,
      queueId: ticket.queueId,
      userId: ticket.userId,
      journalId: w.journalId ?? null,
    };
    return { values, botJob };
  }

  /**
   * The first message of someone unknown, in one statement: the contact, its new ticket (routed at
   * birth, `bornTicket`) with its history, the message, the journal's done mark and the bots'
   * safety net together, or nothing. Only when the steady case's lookup just found no contact for
   * the address (`unknownContact`); undefined when the contact appeared meanwhile (then the
   * transaction decides), or when the message may be an opt-out answer (asked inside the transaction:
   * it may open no ticket).
   */
  async function storeFirst(input: Incoming): Promise<Stored | undefined> {
    const { conn, msg, mediaType } = input;
    if (!input.unknownContact || msg.chat.isGroup || msg.quotedId) return undefined;
    if (!msg.fromMe && mediaType === "chat" && quiet && input.bots?.optOut !== false) return undefined;
    const person = personOf(msg);
    const soleQueueId = routesToItsSoleQueue(conn, msg, mediaType) ? conn.queues[0].id : undefined;
    const born = bornTicket({ whatsappId: conn.id, isGroup: false, fromMe: msg.fromMe, soleQueueId });
    // a routing the ticket cannot be born with (one that sends a message) goes through the transaction's transition
    if (soleQueueId !== undefined && born.previous === undefined) return undefined;
    const { values, botJob } = messageValues(input, born.state);
    // history row n's columns as placeholders h<n><Column> (see firstMessageStatement)
    const history: Record<string, unknown> = {};
    born.history.forEach((h, n) => {
      for (const [column, value] of Object.entries(historyColumns(h))) history[`h${n}${column[0].toUpperCase()}${column.slice(1)}`] = value;
    });
    const shape = `${input.journalId !== undefined ? "j" : "-"}${botJob ? "b" : "-"}${born.history.length > 1 ? "r" : "-"}` as FirstShape;
    const { rows } = await firstStatement.run<StoredRow & FirstContactColumns>(db, shape, {
      ...values,
      ...history,
      name: person.name || person.number || person.lid || "",
      number: person.number || null,
      lid: person.lid || null,
      transf: born.state.transf,
      quotedMsgId: null,
    });
    const row = rows[0];
    if (!row) return undefined;
    const contact: ContactRow = {
      id: row.nc_id,
      name: row.nc_name,
      number: row.nc_number,
      lid: row.nc_lid,
      email: row.nc_email,
      profilePicUrl: row.nc_profile_pic_url,
      isGroup: row.nc_is_group,
      erasedAt: row.nc_erased_at === null ? null : new Date(row.nc_erased_at),
      search: row.nc_search,
      createdAt: new Date(row.nc_created_at),
      updatedAt: new Date(row.nc_updated_at),
    };
    const lite = liteOf(contact);
    const ticket = ticketFromRow(row, lite);
    return {
      message: messageOf(msg, input.body, input.stored, mediaType, ticket.id, null, row, msg.fromMe ? null : lite),
      quoted: false,
      ticket,
      previous: born.previous,
      ticketChanged: true,
      created: true,
      newContacts: [contact],
      botJob,
    };
  }

  return receive;
}

/** The address of a one-to-one chat's customer (its name only from their own messages: ours carry no push name of theirs). */
function personOf(msg: InboundMessage) {
  if (msg.chat.isGroup) throw new Error("a group chat has no one person");
  return { number: msg.chat.number, lid: msg.chat.lid, name: msg.fromMe ? undefined : (msg.pushName ?? msg.chat.name), isGroup: false };
}

/** Routing, not a bot: a connection with one queue (and no Typebot, no self-service before the menu) puts its new conversations there at once. */
function routesToItsSoleQueue(conn: ConnectionInfo, msg: InboundMessage, mediaType: string): boolean {
  return (
    !msg.fromMe &&
    !msg.chat.isGroup &&
    mediaType !== "call_log" &&
    conn.queues.length === 1 &&
    !conn.typebot.enabled &&
    conn.selfService !== "before"
  );
}

/** The stored message as the contract shows it (its row's id and times from the statement that wrote it). */
function messageOf(
  msg: InboundMessage,
  body: string,
  stored: StoredMedia | undefined,
  mediaType: string,
  ticketId: number,
  quotedMsgId: number | null,
  r: StoredRow,
  author: { id: number; name: string; profilePicUrl: string } | null,
): Message {
  return {
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
    mimetype: stored?.mimetype ?? msg.media?.mimetype ?? null,
    fileName: msg.media?.fileName ?? null,
    ticketId,
    contactId: author?.id ?? null,
    contact: author ? { id: author.id, name: author.name, profilePicUrl: author.profilePicUrl } : null,
    quotedMsgId,
    quotedMsg: null,
    source: msg.fromMe ? "phone" : "customer",
    userId: null,
    sendError: null,
    createdAt: iso(r.m_created),
    updatedAt: iso(r.m_updated),
  };
}
