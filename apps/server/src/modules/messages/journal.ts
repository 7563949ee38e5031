import { and, asc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { ChannelEvent } from "../../channels/channel.js";
import type { InboundJournal, JournaledEvent } from "../../channels/manager.js";
import type { Db } from "../../db/client.js";
import { inboundEvents } from "../../db/schema/index.js";
import { idArray, textArray } from "../../lib/sql.js";

/**
 * The inbound journal over the database (table inbound_events). The channel manager appends each
 * event before anything else happens to it; the pipeline marks it done inside the transaction
 * that stores its effects (`doneStatement`), so an event is either done with its effects or still
 * pending, never half.
 */

export const JOURNAL_MAX_ATTEMPTS = 8;

/** The event as JSON: media bytes and loaders stay out (the media's `ref` is kept). */
function serialize(event: ChannelEvent): unknown {
  if (event.type !== "message" || !event.message.media) return event;
  const { data: _data, ...media } = event.message.media;
  return { ...event, message: { ...event.message, media } };
}

/** JSON back to an event: dates revived. */
export function deserialize(json: unknown): ChannelEvent {
  const e = (typeof json === "string" ? JSON.parse(json) : json) as ChannelEvent;
  if (e.type === "message") return { ...e, message: { ...e.message, timestamp: new Date(e.message.timestamp) } };
  if (e.type === "edit" && e.editedAt) return { ...e, editedAt: new Date(e.editedAt) };
  if (e.type === "call") return { ...e, at: new Date(e.at) };
  return e;
}

export interface Journal extends InboundJournal {
  /**
   * The statement that marks an event done, to run inside the transaction of its effects (`onlyIf`: a condition it also
   * needs); `id` a placeholder in a statement compiled once (`db/compiled.ts`).
   */
  doneStatement(id: number | Placeholder, onlyIf?: SQL): SQL;
}

type JournalRow = { whatsappId: number; chat: string; type: string; event: unknown };

/**
 * Group commit: appends that arrive while a write is in flight go together in the next one, one
 * insert and one commit for all of them. A lone event is written at once; a burst pays
 * one commit per batch instead of one per event. Ids follow the order of arrival (the rows of one
 * insert take their ids in the order of its `order by`), which is the order a replay reads them back.
 */
function groupAppender(db: Db, maxBatch = 500): (row: JournalRow) => Promise<number> {
  let waiting: { row: JournalRow; resolve: (id: number) => void; reject: (err: unknown) => void }[] = [];
  let writing = false;
  async function drain() {
    writing = true;
    while (waiting.length) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        // four array parameters whatever the batch's size: one text (prepared once), and no per-row work in the
        // query builder (its multi-row VALUES was the largest share of Drizzle's CPU on the inbound bench)
        const { rows } = await db.execute<{ id: number | string }>(sql`
          insert into inbound_events (whatsapp_id, chat, type, event)
          select u.w, u.c, u.t, u.e
          from unnest(${idArray(batch.map((b) => b.row.whatsappId))}::int[], ${textArray(batch.map((b) => b.row.chat))}::text[],
                      ${textArray(batch.map((b) => b.row.type))}::text[], ${textArray(batch.map((b) => JSON.stringify(b.row.event)))}::jsonb[])
               with ordinality as u(w, c, t, e, n)
          order by u.n
          returning id`);
        const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
        for (const [i, b] of batch.entries()) b.resolve(ids[i]);
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    writing = false;
  }
  return (row) =>
    new Promise<number>((resolve, reject) => {
      waiting.push({ row, resolve, reject });
      if (!writing) void drain();
    });
}

export function createJournal(db: Db, maxAttempts = JOURNAL_MAX_ATTEMPTS): Journal {
  const doneStatement = (id: number | Placeholder, onlyIf?: SQL) =>
    sql`update inbound_events set state = 'done', done_at = now() where id = ${id}${onlyIf ? sql` and ${onlyIf}` : sql``}`;
  const append = groupAppender(db);
  return {
    doneStatement,
    append: (whatsappId, chat, event) => append({ whatsappId, chat, type: event.type, event: serialize(event) }),
    async pending(whatsappId): Promise<JournaledEvent[]> {
      const rows = await db
        .select({ id: inboundEvents.id, event: inboundEvents.event })
        .from(inboundEvents)
        .where(and(eq(inboundEvents.state, "pending"), eq(inboundEvents.whatsappId, whatsappId)))
        .orderBy(asc(inboundEvents.id));
      return rows.map((r) => ({ id: r.id, whatsappId, event: deserialize(r.event) }));
    },
    async done(id) {
      await db.execute(doneStatement(id));
    },
    async failed(id, error) {
      const message = error instanceof Error ? error.message : String(error);
      const { rows } = await db.execute<{ state: string }>(sql`
        update inbound_events
        set attempts = attempts + 1, last_error = ${message.slice(0, 2000)},
            state = case when attempts + 1 >= ${maxAttempts} then 'failed' else state end
        where id = ${id} returning state`);
      return rows[0]?.state === "failed" ? "failed" : "retry";
    },
  };
}

/** Handled events older than `days` are removed (the job runner calls it daily). */
export async function pruneJournal(db: Db, days = 2): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    with d as (delete from inbound_events where state = 'done' and done_at < now() - make_interval(days => ${days}) returning 1)
    select count(*)::int as n from d`);
  return rows[0]?.n ?? 0;
}

/** Marks a journaled event handled when nothing else was written for it. */
export function markDone(journal: Journal, journalId: number | undefined): Promise<void> {
  return journalId === undefined ? Promise.resolve() : journal.done(journalId);
}

/**
 * The journal's done step as a CTE to append to the statement of an event's effects (empty without
 * a journal row); `onlyIf`: when that statement runs on its own (no transaction), the condition
 * that it wrote the effects.
 */
export function doneStep(journal: Journal, journalId: number | Placeholder | undefined, onlyIf?: SQL): SQL {
  return journalId === undefined ? sql`` : sql`, j as (${journal.doneStatement(journalId, onlyIf)})`;
}
