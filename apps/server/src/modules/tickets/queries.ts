import type { Tag, Ticket } from "@balcao/contract";
import { and, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { contacts, queues, tickets, users, whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { iso } from "../../lib/sql.js";

/**
 * How tickets are read: one query joins the contact, user, queue, connection and tags of a whole
 * page, and who may see a ticket. Shared by the tickets and messages modules and the realtime.
 */

export type TicketRow = typeof tickets.$inferSelect;

const tagsJson = sql<Tag[]>`coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
  from ticket_tags tt join tags tg on tg.id = tt.tag_id where tt.ticket_id = ${tickets.id}), '[]'::json)`;

export const ticketFields = {
  t: tickets,
  contact: {
    id: contacts.id,
    name: contacts.name,
    number: contacts.number,
    lid: contacts.lid,
    email: contacts.email,
    profilePicUrl: contacts.profilePicUrl,
    isGroup: contacts.isGroup,
  },
  userName: users.name,
  queueName: queues.name,
  queueColor: queues.color,
  whatsappName: whatsapps.name,
  tags: tagsJson,
};

export type TicketJoinRow = {
  t: TicketRow;
  contact: Ticket["contact"];
  userName: string | null;
  queueName: string | null;
  queueColor: string | null;
  whatsappName: string | null;
  tags: Tag[] | string;
};

/** The select with every join a Ticket needs; callers add where/order/limit. */
export function selectTickets(db: DbOrTx) {
  return db
    .select(ticketFields)
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId));
}

export function toTicket(r: TicketJoinRow): Ticket {
  const t = r.t;
  return {
    id: t.id,
    status: t.status,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    isGroup: t.isGroup,
    transf: t.transf,
    contactId: t.contactId,
    contact: r.contact,
    userId: t.userId,
    user: t.userId !== null && r.userName !== null ? { id: t.userId, name: r.userName } : null,
    queueId: t.queueId,
    queue: t.queueId !== null && r.queueName !== null ? { id: t.queueId, name: r.queueName, color: r.queueColor ?? "" } : null,
    whatsappId: t.whatsappId,
    whatsapp: t.whatsappId !== null && r.whatsappName !== null ? { id: t.whatsappId, name: r.whatsappName } : null,
    tags: typeof r.tags === "string" ? (JSON.parse(r.tags) as Tag[]) : r.tags,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

export async function findTicket(db: DbOrTx, id: number): Promise<Ticket | undefined> {
  const [row] = await selectTickets(db).where(eq(tickets.id, id));
  return row ? toTicket(row as TicketJoinRow) : undefined;
}

export async function loadTicket(db: DbOrTx, id: number): Promise<Ticket> {
  const t = await findTicket(db, id);
  if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
  return t;
}

export async function loadTickets(db: DbOrTx, ids: number[]): Promise<Ticket[]> {
  if (ids.length === 0) return [];
  const rows = await selectTickets(db).where(inArray(tickets.id, ids));
  return rows.map((r) => toTicket(r as TicketJoinRow));
}

/**
 * Who may see (and act on) a ticket: admins all; others their own tickets, the tickets of their
 * queues, and tickets not yet routed to a queue (as the original client shows them).
 */
export function canSee(
  user: Pick<SessionUser, "id" | "profile" | "queueIds">,
  t: { queueId: number | null; userId: number | null },
): boolean {
  if (user.profile === "admin") return true;
  if (t.userId === user.id) return true;
  if (t.queueId === null) return true;
  return user.queueIds.includes(t.queueId);
}

/** The same rule as SQL, for lists. */
export function visibleTo(user: SessionUser): SQL | undefined {
  if (user.profile === "admin") return undefined;
  return or(
    eq(tickets.userId, user.id),
    isNull(tickets.queueId),
    user.queueIds.length ? inArray(tickets.queueId, user.queueIds) : undefined,
  );
}

/** A ticket the user may see, or ERR_NO_TICKET_FOUND / ERR_NO_PERMISSION. */
export async function ticketFor(db: DbOrTx, user: SessionUser, id: number): Promise<Ticket> {
  const t = await loadTicket(db, id);
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
