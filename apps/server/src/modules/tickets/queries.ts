import type { Tag, Ticket } from "@balcao/contract";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SessionUser, WaitingLineLookup } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { Compiled } from "../../db/compiled.js";
import { tickets } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { idArray, intLiteral, iso } from "../../lib/sql.js";
import { canSee } from "../access/visibility.js";

/**
 * How tickets are read: one query joins the contact, user, queue, connection and tags of a whole
 * page, and who may see a ticket. Shared by the tickets and messages modules and the realtime.
 */

export type TicketRow = typeof tickets.$inferSelect;

export async function findTicket(db: DbOrTx, id: number, lines?: WaitingLineLookup): Promise<Ticket | undefined> {
  return (await loadTickets(db, [id], lines))[0];
}

export async function loadTicket(db: DbOrTx, id: number, lines?: WaitingLineLookup): Promise<Ticket> {
  const t = await findTicket(db, id, lines);
  if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
  return t;
}

type HydrateRow = {
  id: number;
  status: Ticket["status"];
  last_message: string;
  last_failed: boolean;
  unread_messages: number;
  is_group: boolean;
  transf: boolean;
  contact_id: number;
  user_id: number | null;
  queue_id: number | null;
  whatsapp_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  c_name: string;
  c_number: string | null;
  c_lid: string | null;
  c_email: string;
  c_pic: string;
  c_is_group: boolean;
  user_name: string | null;
  queue_name: string | null;
  queue_color: string | null;
  whatsapp_name: string | null;
  tags: Tag[] | string;
  /** issue 32: the incidents the ticket is linked to, and a waiting ticket's place in its queue */
  incident_ids?: number[] | string;
  queue_position?: number | string | null;
};

/**
 * Tickets by id with everything a Ticket shows, in the order of `ids` (a list of ids goes as one
 * array: the statement's text does not depend on how many). The waiting tickets' positions come
 * from `lines` (the lists: this process's waiting lines) or, for a single ticket or inside a
 * transaction, from SQL.
 */
export async function loadTickets(db: DbOrTx, ids: number[], lines?: WaitingLineLookup): Promise<Ticket[]> {
  if (ids.length === 0) return [];
  const rows = await hydrateRows(db, ids);
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => (order.get(Number(a.id)) ?? 0) - (order.get(Number(b.id)) ?? 0));
  return withPositions(db, rows, lines);
}

/** What a Ticket is read with, over `tickets t` joined to `contacts c` (one text: a fragment without values). */
const HYDRATED = sql.raw(`t.id, t.status, t.last_message,
           exists (select 1 from messages lm where lm.id = t.last_message_id and lm.send_error is not null) as last_failed, t.unread_messages, t.is_group, t.transf, t.contact_id, t.user_id, t.queue_id, t.whatsapp_id,
           t.created_at, t.updated_at,
           c.name as c_name, c.number as c_number, c.lid as c_lid, c.email as c_email, c.profile_pic_url as c_pic, c.is_group as c_is_group,
           (select u.name from users u where u.id = t.user_id) as user_name,
           (select q.name from queues q where q.id = t.queue_id) as queue_name,
           (select q.color from queues q where q.id = t.queue_id) as queue_color,
           (select w.name from whatsapps w where w.id = t.whatsapp_id) as whatsapp_name,
           coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
                     from ticket_tags tt join tags tg on tg.id = tt.tag_id where tt.ticket_id = t.id), '[]'::json) as tags,
           coalesce((select json_agg(it.incident_id order by it.incident_id) from incident_tickets it where it.ticket_id = t.id), '[]'::json)
             as incident_ids`);

/**
 * The hydration: one plain query mapped by hand (the hot path of every list and socket payload),
 * run as a prepared statement (planned once per connection: it took 1.7 ms to plan and 0.8 ms to
 * run) and compiled once (`db/compiled.ts`: Drizzle rebuilt its text on every list). The user,
 * queue and connection names are scalar subqueries, not joins: the same rows for a fraction of the
 * planning where it is still planned (PGlite, a new connection).
 */
const hydrateStatement = new Compiled<"one" | "many", { id?: number; ids?: string }>(
  (shape) => sql`
    select ${HYDRATED} from tickets t
    join contacts c on c.id = t.contact_id
    where ${shape === "one" ? sql`t.id = ${sql.placeholder("id")}` : sql`t.id = any(${sql.placeholder("ids")}::int[])`}`,
);

/**
 * A list's page in one statement: `ids` (a select of at most `rowsPerPage` + 1 ticket ids, in the
 * list's order: the extra one tells hasMore), the list's `count`, and the page's tickets hydrated
 * in that order. One round trip instead of two (the ids, then the hydration), read in one snapshot.
 * The ids are a materialized CTE, so their plan is the one the ids alone had, generic plan included.
 * Measured on the side-by-side data, open list, 7 alternating runs: this process's CPU per list
 * 0.46 → 0.42 ms, PostgreSQL's 0.45 → 0.47 ms, 1 695 → 1 751 lists/s.
 */
export async function loadTicketPage(
  db: DbOrTx,
  page: { ids: SQL; count: SQL; rowsPerPage: number },
  lines?: WaitingLineLookup,
): Promise<{ tickets: Ticket[]; count: number; hasMore: boolean }> {
  const { rows } = await db.execute<HydrateRow & { found: number; n: number; ord: number }>(sql`
    with page as materialized (select array(${page.ids}) as ids, ${page.count} as n)
    select cardinality(page.ids) as found, page.n, h.* from page
    left join lateral (
      select ${HYDRATED}, o.ord from unnest(page.ids[1:${intLiteral(page.rowsPerPage)}]) with ordinality as o(id, ord)
      join tickets t on t.id = o.id
      join contacts c on c.id = t.contact_id) h on true
    order by h.ord`);
  const first = rows[0];
  // an empty page is one row of the count alone
  const found = rows.filter((r) => r.id !== null);
  return {
    tickets: await withPositions(db, found, lines),
    count: Number(first?.n ?? 0),
    hasMore: Number(first?.found ?? 0) > page.rowsPerPage,
  };
}

async function hydrateRows(db: DbOrTx, ids: number[]): Promise<HydrateRow[]> {
  // one ticket by `=`: an array's generic plan expects several rows, so PostgreSQL planned the one-id
  // case afresh on every run (0.5 ms each: GET /messages, every send); two texts, each planned once
  const { rows } = await (ids.length === 1
    ? hydrateStatement.run<HydrateRow>(db, "one", { id: ids[0] })
    : hydrateStatement.run<HydrateRow>(db, "many", { ids: idArray(ids) }));
  return rows;
}

async function withPositions(db: DbOrTx, rows: HydrateRow[], lines?: WaitingLineLookup): Promise<Ticket[]> {
  // a waiting ticket's place in its queue: the lists read this process's waiting lines, the rest one pass per queue in SQL
  const waiting = rows.filter((r) => r.status === "pending" && r.user_id === null && r.queue_id !== null && !r.is_group);
  const positions = !waiting.length
    ? undefined
    : lines
      ? await lines.positions(waiting.map((r) => ({ id: r.id, queueId: r.queue_id as number })))
      : await queuePositions(
          db,
          waiting.map((r) => r.id),
        );
  for (const r of rows) r.queue_position = positions?.get(r.id) ?? null;
  return rows.map((r) =>
    ticketFromRow(r, {
      id: r.contact_id,
      name: r.c_name,
      number: r.c_number,
      lid: r.c_lid,
      email: r.c_email,
      profilePicUrl: r.c_pic,
      isGroup: r.c_is_group,
    }),
  );
}

/** The ticket columns (snake_case, with the joined user/queue/connection names and tags) a Ticket is made of. */
export type TicketSqlRow = Pick<
  HydrateRow,
  | "id"
  | "status"
  | "last_message"
  | "last_failed"
  | "unread_messages"
  | "is_group"
  | "transf"
  | "user_id"
  | "queue_id"
  | "whatsapp_id"
  | "created_at"
  | "updated_at"
  | "user_name"
  | "queue_name"
  | "queue_color"
  | "whatsapp_name"
  | "tags"
  | "incident_ids"
  | "queue_position"
>;

/** One mapping from a raw ticket row to the API's Ticket, for the list hydration and the inbound pipeline. */
export function ticketFromRow(r: TicketSqlRow, contact: Ticket["contact"]): Ticket {
  return {
    id: r.id,
    status: r.status,
    lastMessage: r.last_message,
    lastMessageFailed: !!r.last_failed,
    unreadMessages: r.unread_messages,
    isGroup: r.is_group,
    transf: r.transf,
    contactId: contact.id,
    contact,
    userId: r.user_id,
    user: r.user_id !== null && r.user_name !== null ? { id: r.user_id, name: r.user_name } : null,
    queueId: r.queue_id,
    queue: r.queue_id !== null && r.queue_name !== null ? { id: r.queue_id, name: r.queue_name, color: r.queue_color ?? "" } : null,
    whatsappId: r.whatsapp_id,
    whatsapp: r.whatsapp_id !== null && r.whatsapp_name !== null ? { id: r.whatsapp_id, name: r.whatsapp_name } : null,
    tags: typeof r.tags === "string" ? (JSON.parse(r.tags) as Tag[]) : r.tags,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    ...(r.incident_ids !== undefined && {
      incidentIds: (typeof r.incident_ids === "string" ? (JSON.parse(r.incident_ids) as number[]) : r.incident_ids).map(Number),
    }),
    ...(r.queue_position !== undefined && { queuePosition: r.queue_position === null ? null : Number(r.queue_position) }),
  };
}

// the visibility rule lives below both tickets and contacts (modules/access); its users import it from here as before
export { canSee, visibleTo } from "../access/visibility.js";

/** A ticket the user may see, or ERR_NO_TICKET_FOUND / ERR_NO_PERMISSION. */
export async function ticketFor(db: DbOrTx, user: SessionUser, id: number, lines?: WaitingLineLookup): Promise<Ticket> {
  const t = await loadTicket(db, id, lines);
  if (!canSee(user, t)) throw new AppError("ERR_NO_PERMISSION");
  return t;
}

/** The live (open or pending) ticket of a contact on a connection, locked for the transaction. */
export async function liveTicketOf(tx: DbOrTx, contactId: number, whatsappId: number | null): Promise<TicketRow | undefined> {
  const [row] = await tx
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.contactId, contactId),
        sql`coalesce(${tickets.whatsappId}, 0) = ${whatsappId ?? 0}`,
        sql`${tickets.status} in ('open','pending')`,
      ),
    )
    .for("update");
  return row;
}

/** A waiting ticket (pending, no agent, in a queue, not a group), over the alias `t`: the partial index tickets_waiting_idx. */
export const waitingIn = (t: string) =>
  sql.raw(`${t}.status = 'pending' and ${t}.user_id is null and ${t}.queue_id is not null and not ${t}.is_group`);

/**
 * Positions of the waiting tickets among `ids` (the others are absent). One pass per queue asked
 * about, on the waiting tickets' partial index (tickets_waiting_idx): a page of 40 waiting tickets
 * in queues of 1 500 costs one walk of each queue, not one count per ticket.
 */
export async function queuePositions(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const { rows } = await db.execute<{ id: number; pos: number | string }>(
    sql`
    with asked as (
      select t.id, t.queue_id from tickets t
      where t.id = any(${idArray(ids)}::int[]) and ${waitingIn("t")}),
    line as (
      select l.id, l.pos from (select distinct queue_id from asked) q
      cross join lateral (
        select o.id, row_number() over (order by o.created_at, o.id) as pos
        from tickets o
        where o.queue_id = q.queue_id and ${waitingIn("o")}
        order by o.created_at, o.id) l)
    select line.id, line.pos from line join asked on asked.id = line.id`,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.pos)]));
}
