import { recordAudit } from "../audit/service.js";
import type { Tag, Ticket, TicketStatus } from "@balcao/contract";
import { and, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import { contacts, messages, queues, tags, ticketTags, tickets, users, whatsapps } from "../../db/schema/index.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";
import { containsPattern, intArray, intLiteral, likeEscape } from "../../lib/sql.js";
import { addLocalDays, parseLocalDateTime, startOfLocalDay } from "../../lib/zoned-time.js";
import { defaultWhatsappId } from "../connection-facts/info.js";
import { assertContactAccess } from "../contacts/service.js";
import { verifyOnWhatsapp } from "../contacts/whatsapp.js";
import { timeZoneOf } from "../settings/service.js";
import type { ConvDeps } from "../outbox/deps.js";
import { countSql } from "./counts.js";
import { canSee, liveTicketOf, loadTicket, loadTicketPage, loadTickets, ticketFor, visibleTo } from "./queries.js";
import { afterTransition, transitionTicket, writeHistory } from "./apply-transition.js";
import { type Actor, requestFromUpdate } from "./state-machine.js";

export interface TicketsQuery {
  searchParam: string;
  pageNumber: number;
  rowsPerPage: number;
  status?: TicketStatus;
  date?: string;
  showAll: boolean;
  queueIds?: number[];
  withUnreadMessages: boolean;
  isGroup?: boolean;
  userId?: number;
  incidentId?: number;
}

/**
 * Searches walk the tickets newest first in windows of SEARCH_WINDOW (an ordered index scan) and
 * stop as soon as the page is full, so a common term — even two letters, which trigram indexes
 * cannot serve — costs one window of per-ticket index probes. A term of 3+ characters still rare
 * after SEARCH_TRIGRAM_AFTER windows is finished by the trigram indexes instead. The count of a
 * search is a lower bound (offset + rows, +1 when there is more); hasMore is exact.
 */
export const SEARCH_WINDOW = 2000;
/** tickets walked before a rare 3+ character term switches to the trigram indexes */
const SEARCH_TRIGRAM_AFTER = 4000;

type Cursor = { updatedAt: string; id: number };

/** GET /tickets: every filter of the spec, paginated in SQL; `{ tickets, count, hasMore }`. */
export async function listTickets(ctx: AppContext, user: SessionUser, q: TicketsQuery) {
  const db = ctx.db;
  const conds: (SQL | undefined)[] = [visibleTo(user)];
  const showAll = q.showAll && (user.profile === "admin" || user.profile === "superv");
  const term = q.searchParam.trim();
  // without showAll an agent's list holds their own tickets and the waiting ones (searches span all they may see)
  if (!showAll && !term) conds.push(or(eq(tickets.userId, user.id), eq(tickets.status, "pending")));
  if (q.status) conds.push(eq(tickets.status, q.status));
  if (q.queueIds?.length) conds.push(or(inArray(tickets.queueId, q.queueIds), isNull(tickets.queueId)));
  if (q.isGroup !== undefined) conds.push(eq(tickets.isGroup, q.isGroup));
  if (q.userId) conds.push(eq(tickets.userId, q.userId));
  // the conditions above test only status, queue, agent and kind, which ticket_counts is kept by (counts.ts)
  const countable = conds.length;
  if (q.withUnreadMessages) conds.push(sql`${tickets.unreadMessages} > 0`);
  if (q.incidentId) conds.push(sql`${tickets.id} in (select ticket_id from incident_tickets where incident_id = ${q.incidentId})`);
  if (q.date) {
    // a day or a date-time: the local day it falls on in the product's zone
    const tz = await timeZoneOf(db);
    const instant = parseLocalDateTime(q.date, tz);
    if (!instant) throw new AppError("ERR_VALIDATION", undefined, { date: ["Invalid date"] });
    const start = startOfLocalDay(instant, tz);
    const end = addLocalDays(instant, 1, tz);
    conds.push(sql`${tickets.createdAt} >= ${start.toISOString()} and ${tickets.createdAt} < ${end.toISOString()}`);
  }
  const where = and(...conds);
  const offset = (q.pageNumber - 1) * q.rowsPerPage;
  const need = offset + q.rowsPerPage + 1;

  if (term) {
    // searches: ids found in windows, then one hydration query; the count is a lower bound
    let ids = (await searchIds(db, where, term, need)).slice(offset);
    const hasMore = ids.length > q.rowsPerPage;
    ids = ids.slice(0, q.rowsPerPage);
    const byId = new Map((await loadTickets(db, ids, ctx.waitingLines)).map((t) => [t.id, t]));
    const page = ids.map((id) => byId.get(id)).filter((t): t is Ticket => !!t);
    return { tickets: page, count: offset + page.length + (hasMore ? 1 : 0), hasMore };
  }
  // lists: the page's ids (one extra tells hasMore), the count and the page's tickets in one statement (one round trip, one
  // snapshot; queries.ts). A list filtered only by what ticket_counts is kept by is counted from it (counts.ts).
  const w = where ?? sql`true`;
  return loadTicketPage(
    db,
    {
      ids: sql`select ${tickets.id} from ${tickets} where ${w}
               order by ${tickets.updatedAt} desc nulls last, ${tickets.id} desc nulls last
               limit ${intLiteral(q.rowsPerPage + 1)} offset ${intLiteral(offset)}`,
      count: conds.length === countable ? countSql(w) : sql`(select count(*)::int from ${tickets} where ${w})`,
      rowsPerPage: q.rowsPerPage,
    },
    ctx.waitingLines,
  );
}

/** Up to `need` ids of matching tickets, newest first (see SEARCH_WINDOW). */
async function searchIds(db: AppContext["db"], where: SQL | undefined, term: string, need: number): Promise<number[]> {
  const match = searchCondition(term);
  const found: number[] = [];
  let cursor: Cursor | undefined;
  let scanned = 0;
  // windows grow from a few pages' worth to SEARCH_WINDOW
  for (let size = Math.min(SEARCH_WINDOW, Math.max(100, need * 4)); found.length < need; size = Math.min(SEARCH_WINDOW, size * 4)) {
    const after = cursor ? sql`(${tickets.updatedAt}, ${tickets.id}) < (${cursor.updatedAt}::timestamptz, ${cursor.id})` : undefined;
    if (scanned >= SEARCH_TRIGRAM_AFTER && term.length >= 3) {
      // a rare term: the trigram indexes find the few candidates
      const p = containsPattern(term);
      const digits = term.replace(/\D/g, "");
      const rows = await db
        .select({ id: tickets.id })
        .from(tickets)
        .where(
          and(
            where,
            after,
            or(
              sql`${tickets.contactId} in (select id from contacts where lower(name) like ${p}${digits ? sql` or number like ${`%${likeEscape(digits)}%`}` : sql``})`,
              sql`${tickets.id} in (select ticket_id from messages where lower(body) like ${p})`,
            ),
          ),
        )
        .orderBy(sql`${tickets.updatedAt} desc nulls last`, sql`${tickets.id} desc nulls last`)
        .limit(need - found.length);
      found.push(...rows.map((r) => r.id));
      break;
    }
    // the next window of tickets in index order (materialized: the planner cannot reorder it), then the
    // match per ticket, in the window's order and only until the page is full: a common term matches
    // most tickets, so a page of 40 probes about 50 of the window's tickets, not all of them. A
    // materialized CTE is read back in the order it was written (its ORDER BY … LIMIT).
    const res = await db.execute<{ hits: number[] | string; n: number; last_id: number | null; last_at: string | null }>(sql`
      with recent as materialized (
        select ${tickets.id} as id, ${tickets.updatedAt} as updated_at from ${tickets}
        where ${and(where, after) ?? sql`true`}
        order by ${tickets.updatedAt} desc nulls last, ${tickets.id} desc nulls last
        limit ${intLiteral(size)}
      ), last as (select id, updated_at from recent order by updated_at asc, id asc limit 1)
      select array(select recent.id from recent
                   where (select ${match} from ${tickets} join ${contacts} on ${contacts.id} = ${tickets.contactId} where ${tickets.id} = recent.id)
                   limit ${intLiteral(need - found.length)}) as hits,
             (select count(*)::int from recent) as n,
             (select id from last) as last_id, (select updated_at::text from last) as last_at`);
    const row = res.rows[0];
    found.push(...intArray(row.hits));
    const n = Number(row.n);
    scanned += n;
    if (n < size || found.length >= need || row.last_id === null || row.last_at === null) break;
    cursor = { updatedAt: row.last_at, id: Number(row.last_id) };
  }
  return found;
}

/**
 * The match of one ticket of a window (its contact's name or number, or one of its messages), as
 * strpos: the window's plan is the same for every term (a walk of the newest tickets, then one
 * probe per ticket), so the statement is prepared once instead of planned per request, which a LIKE
 * pattern would prevent (db/preparing-client.ts). strpos takes the term literally, as the escaped
 * LIKE did.
 */
function searchCondition(term: string): SQL {
  const lowered = term.toLowerCase();
  const digits = term.replace(/\D/g, "");
  return or(
    sql`strpos(lower(${contacts.name}), ${lowered}) > 0`,
    digits.length > 0 ? sql`strpos(${contacts.number}, ${digits}) > 0` : undefined,
    sql`exists (select 1 from messages m where m.ticket_id = ${tickets.id} and strpos(lower(m.body), ${lowered}) > 0)`,
  ) as SQL;
}

export async function getTicket(ctx: AppContext, user: SessionUser, id: number): Promise<Ticket> {
  return ticketFor(ctx.db, user, id);
}

/**
 * POST /tickets: an agent opens a conversation with a contact on a connection (the default one
 * when not named). Refused with ERR_OTHER_OPEN_TICKET while the contact has a live ticket there.
 */
export async function createTicket(
  conv: ConvDeps,
  user: SessionUser,
  input: { contactId: number; queueId?: number | null; userId?: number | null; whatsappId?: number | null },
): Promise<Ticket> {
  const { ctx } = conv;
  const db = ctx.db;
  const [contact] = await db.select().from(contacts).where(eq(contacts.id, input.contactId));
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  // a contact of another queue's tickets is not the agent's to open a conversation with (it would then be theirs to edit)
  await assertContactAccess(db, user, contact.id);
  if (!contact.number && !contact.lid) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  const userId = input.userId ?? user.id;
  if (userId !== user.id && user.profile === "user") throw new AppError("ERR_NO_PERMISSION");
  const queueId = input.queueId ?? null;
  if (queueId !== null) {
    if (user.profile !== "admin" && !user.queueIds.includes(queueId)) throw new AppError("ERR_NO_PERMISSION");
    const [q] = await db.select({ id: queues.id }).from(queues).where(eq(queues.id, queueId));
    if (!q) throw new AppError("ERR_NO_QUEUE_FOUND");
  }
  const whatsappId = input.whatsappId ?? (await defaultWhatsappId(db));
  // a number typed in or imported is asked to WhatsApp first (ERR_WAPP_INVALID_CONTACT)
  await verifyOnWhatsapp(conv, contact, whatsappId);
  const id = await db
    .transaction(async (tx) => {
      if (await liveTicketOf(tx, contact.id, whatsappId)) throw new AppError("ERR_OTHER_OPEN_TICKET");
      const [row] = await tx
        .insert(tickets)
        .values({ contactId: contact.id, whatsappId, userId, queueId, status: "open", isGroup: contact.isGroup })
        .returning({ id: tickets.id });
      await writeHistory(tx, { ticketId: row.id, to: { status: "open", queueId, userId }, actor: actorOf(user), reason: "create" });
      return row.id;
    })
    .catch((err) => {
      if (isUniqueViolation(err, "tickets_one_live_per_contact")) throw new AppError("ERR_OTHER_OPEN_TICKET");
      if (err instanceof AppError) throw err;
      if (isForeignKey(err)) throw new AppError("ERR_NO_WAPP_FOUND");
      throw err;
    });
  const ticket = await loadTicket(db, id);
  ctx.events.publish("ticket.updated", { ticket, created: true });
  return ticket;
}

function isForeignKey(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur && typeof cur === "object"; i++) {
    if ((cur as { code?: string }).code === "23503") return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

export interface TicketUpdate {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
  transf?: boolean;
}

export function actorOf(user: SessionUser): Actor {
  return { kind: "user", id: user.id, profile: user.profile, queueIds: user.queueIds };
}

/**
 * PUT /tickets/:id — the body says what is asked (accept, reopen, finish, transfer to a user
 * and/or a queue, back to waiting, or a change of queue or connection), `requestFromUpdate` reads
 * it and `decideTransition` rules on it (tickets/state-machine.ts): only the owner acts on an open
 * ticket, besides admins and supervisors; finishing queues the connection's farewell.
 */
export async function updateTicket(conv: ConvDeps, user: SessionUser, id: number, input: TicketUpdate): Promise<Ticket> {
  const { ctx } = conv;
  const db = ctx.db;
  if (input.userId) {
    const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
    if (!u) throw new AppError("ERR_NO_USER_FOUND");
  }
  if (input.queueId) {
    const [q] = await db.select({ id: queues.id }).from(queues).where(eq(queues.id, input.queueId));
    if (!q) throw new AppError("ERR_NO_QUEUE_FOUND");
  }
  if (input.whatsappId !== undefined) {
    const [w] = await db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.id, input.whatsappId));
    if (!w && user.profile === "admin") throw new AppError("ERR_NO_WAPP_FOUND");
  }
  const done = await db
    .transaction(async (tx) => {
      const [t] = await tx.select().from(tickets).where(eq(tickets.id, id));
      if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
      if (!canSee(user, t)) throw new AppError("ERR_NO_PERMISSION");
      const request = requestFromUpdate(t, input);
      const result = await transitionTicket(tx, id, actorOf(user), request);
      if (request.type === "transfer") {
        const [after] = await tx
          .select({ queueId: tickets.queueId, userId: tickets.userId, status: tickets.status })
          .from(tickets)
          .where(eq(tickets.id, id));
        await recordAudit(tx, {
          actor: user,
          action: "ticket.transfer",
          target: `ticket:${id}`,
          contactId: t.contactId,
          before: { queueId: t.queueId, userId: t.userId, status: t.status },
          after,
        });
      }
      return result;
    })
    .catch((err) => {
      if (isUniqueViolation(err, "tickets_one_live_per_contact")) throw new AppError("ERR_OTHER_OPEN_TICKET");
      throw err;
    });
  return afterTransition(conv, done);
}

/** Admin only (the route guards it): the ticket and its messages are removed. */
export async function deleteTicket(ctx: AppContext, id: number, actor?: SessionUser): Promise<void> {
  const ticket = await loadTicket(ctx.db, id);
  await ctx.db.transaction(async (tx) => {
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.ticketId, id));
    await tx.delete(tickets).where(eq(tickets.id, id));
    if (actor) {
      await recordAudit(tx, {
        actor,
        action: "ticket.delete",
        target: `ticket:${id}`,
        contactId: ticket.contactId,
        before: { status: ticket.status, queueId: ticket.queueId, userId: ticket.userId, contactId: ticket.contactId, messages: n },
      });
    }
  });
  ctx.events.publish("ticket.deleted", { ticket });
}

// ---------- tags ----------

export async function ticketTagsOf(ctx: AppContext, user: SessionUser, id: number): Promise<Tag[]> {
  return (await ticketFor(ctx.db, user, id)).tags;
}

async function afterTags(ctx: AppContext, id: number): Promise<Ticket> {
  const ticket = await loadTicket(ctx.db, id);
  ctx.events.publish("ticket.updated", { ticket });
  return ticket;
}

export async function addTicketTag(ctx: AppContext, user: SessionUser, id: number, tagId: number): Promise<Ticket> {
  await ticketFor(ctx.db, user, id);
  const [tag] = await ctx.db.select({ id: tags.id }).from(tags).where(eq(tags.id, tagId));
  if (!tag) throw new AppError("ERR_NO_TAG_FOUND");
  await ctx.db.insert(ticketTags).values({ ticketId: id, tagId }).onConflictDoNothing();
  return afterTags(ctx, id);
}

export async function removeTicketTag(ctx: AppContext, user: SessionUser, id: number, tagId: number): Promise<Ticket> {
  await ticketFor(ctx.db, user, id);
  await ctx.db.delete(ticketTags).where(and(eq(ticketTags.ticketId, id), eq(ticketTags.tagId, tagId)));
  return afterTags(ctx, id);
}

/** Replaces the ticket's tags with the given ones. */
export async function setTicketTags(ctx: AppContext, user: SessionUser, id: number, tagIds: number[]): Promise<Ticket> {
  await ticketFor(ctx.db, user, id);
  const unique = [...new Set(tagIds)];
  await ctx.db.transaction(async (tx) => {
    if (unique.length) {
      const found = await tx.select({ id: tags.id }).from(tags).where(inArray(tags.id, unique));
      if (found.length !== unique.length) throw new AppError("ERR_NO_TAG_FOUND");
    }
    await tx.delete(ticketTags).where(eq(ticketTags.ticketId, id));
    if (unique.length) await tx.insert(ticketTags).values(unique.map((tagId) => ({ ticketId: id, tagId })));
  });
  return afterTags(ctx, id);
}
