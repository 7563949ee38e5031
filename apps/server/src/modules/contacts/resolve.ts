import type { Ticket } from "@balcao/contract";
import { eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { Compiled } from "../../db/compiled.js";
import { contacts } from "../../db/schema/index.js";

type ContactRow = typeof contacts.$inferSelect;
export type ContactLite = Ticket["contact"];
/** The contact's live ticket on the connection, locked for the caller's transaction. */
export type LockedLiveTicket = { id: number; status: Ticket["status"]; queueId: number | null; userId: number | null };

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

type Address = { number?: string; lid?: string; name?: string; isGroup: boolean };

/** What the lookup of an address found: the contact, its live ticket on the connection, and what its row lacks that the address gives. */
export interface FoundContact {
  contact: ContactLite;
  live?: LockedLiveTicket;
  /** columns to update (an empty object when the row already says it all) */
  patch: Partial<ContactRow>;
}

/** The shapes of the lookup: by number, by LID, or both; on a connection or not; locking the ticket or not. */
type LookupShape = `${"n" | "-"}${"l" | "-"}${"w" | "-"}${"u" | "-"}`;

/** The lookup's statement, compiled once per shape (`db/compiled.ts`: it runs for every inbound message). */
const lookupStatement = new Compiled<LookupShape, { number?: string; lid?: string; whatsappId?: number }>((shape) => {
  const match = sql.join(
    [
      shape[0] === "n" ? sql`c.number = ${sql.placeholder("number")}` : undefined,
      shape[1] === "l" ? sql`c.lid = ${sql.placeholder("lid")}` : undefined,
    ].filter((x) => x !== undefined),
    sql` or `,
  );
  const live =
    shape[2] === "w"
      ? sql`contact_id = c.id and coalesce(whatsapp_id, 0) = ${sql.placeholder("whatsappId")} and status in ('open','pending')`
      : sql`false`;
  return sql`
    select c.id, c.name, c.number, c.lid, c.email, c.is_group, c.profile_pic_url, t.id as t_id, t.status as t_status, t.queue_id as t_queue_id,
           t.user_id as t_user_id
    from contacts c
    left join lateral (
      select id, status, queue_id, user_id from tickets
      where ${live}
      limit 1 ${shape[3] === "u" ? sql`for update` : sql``}
    ) t on true
    where ${match}`;
});

/**
 * The contact of an address (number first, then LID) with its live ticket on the connection, in
 * one statement; `lock` locks that ticket for the caller's transaction. Undefined when unknown.
 * The ticket is a lateral with `limit 1` (there is at most one, `tickets_one_live_per_contact`):
 * a bare lateral gets flattened into a join, and a generic plan made while the tables were small
 * then walked every live ticket of the connection and filtered on the contact (0.6 ms a run with
 * 1 000 live tickets, the inbound path's most frequent statement).
 */
export async function findContact(
  tx: DbOrTx,
  a: Address,
  whatsappId: number | undefined,
  lock: boolean,
): Promise<FoundContact | undefined> {
  const number = a.number || undefined;
  const lid = a.lid || undefined;
  if (!number && !lid) throw new Error("inbound message without an address");
  const shape = `${number ? "n" : "-"}${lid ? "l" : "-"}${whatsappId === undefined ? "-" : "w"}${lock ? "u" : "-"}` as LookupShape;
  const { rows } = await lookupStatement.run<FoundRow>(tx, shape, { number, lid, whatsappId });
  const row = rows.find((c) => number && c.number === number) ?? rows[0];
  if (!row) return undefined;
  const patch: Partial<ContactRow> = {};
  if (lid && !row.lid && !rows.some((c) => c.lid === lid)) patch.lid = lid;
  if (number && !row.number) patch.number = number;
  if (a.name && a.name !== row.name && row.name === (row.number ?? row.lid)) patch.name = a.name;
  return {
    contact: {
      id: row.id,
      name: row.name,
      number: row.number,
      lid: row.lid,
      email: row.email,
      isGroup: row.is_group,
      profilePicUrl: row.profile_pic_url,
    },
    live:
      row.t_id !== null
        ? { id: row.t_id, status: row.t_status as Ticket["status"], queueId: row.t_queue_id, userId: row.t_user_id }
        : undefined,
    patch,
  };
}

/**
 * The contact of a channel address (number first, then LID), created when unknown (pushed onto
 * `created`), with its live ticket on the connection locked for this transaction — one query when
 * both exist. The number and the LID of one person end up on one contact.
 */
export async function resolveContact(
  tx: DbOrTx,
  a: Address,
  created: ContactRow[],
  whatsappId?: number,
  /** a lookup of the address just before found no contact: the insert comes first, the lookup only if it was created meanwhile */
  unknown = false,
): Promise<{ contact: ContactLite; live?: LockedLiveTicket }> {
  const number = a.number || undefined;
  const lid = a.lid || undefined;
  const insert = () =>
    tx
      .insert(contacts)
      .values({ name: a.name || number || lid || "", number, lid, isGroup: a.isGroup })
      .onConflictDoNothing()
      .returning();
  if (unknown) {
    const [inserted] = await insert();
    if (inserted) {
      created.push(inserted);
      return { contact: liteOf(inserted) };
    }
  }
  const found = await findContact(tx, a, whatsappId, true);
  if (found) {
    const { contact, live, patch } = found;
    if (Object.keys(patch).length === 0) return { contact, live };
    const [updated] = await tx
      .update(contacts)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(contacts.id, contact.id))
      .returning();
    return { contact: { ...contact, name: updated.name, number: updated.number, lid: updated.lid }, live };
  }
  const [inserted] = await insert();
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

/** The contact as a ticket and a message show it. */
export function liteOf(r: ContactRow): ContactLite {
  return { id: r.id, name: r.name, number: r.number, lid: r.lid, email: r.email, profilePicUrl: r.profilePicUrl, isGroup: r.isGroup };
}
