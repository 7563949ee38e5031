import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";

/** How often the recurring job folds the appended changes into ticket_counts (a busy inbox appends a few a second: a read sums at most a few hundred). */
export const FOLD_EVERY_MS = 30_000;

/**
 * How many tickets match `where` (a scalar subquery), from ticket_counts and the changes not folded
 * yet (db/schema/ticket-counts.ts): a sum over a few hundred rows instead of a walk of every
 * matching ticket. `where` may only test the columns the counts are kept by: `tickets.status`,
 * `queue_id`, `user_id` and `is_group` (the rows are named `tickets`, so a list's own conditions
 * apply as they are written).
 */
export function countSql(where: SQL): SQL {
  return sql`(select coalesce(sum(n), 0)::int from (
      select status, queue_id, user_id, is_group, n from ticket_counts
      union all
      select status, queue_id, user_id, is_group, n from ticket_count_changes
    ) as "tickets" where ${where})`;
}

/**
 * Folds the appended changes into ticket_counts in one statement: what it deletes it adds, so a
 * count read at any moment sees either side, never both or neither. Two folds at once (two
 * processes) never count a change twice (a deleted row is deleted once) and lock the count rows
 * in the same order. Buckets that fell to zero are dropped. Answers how many changes it folded.
 */
export async function foldTicketCounts(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ folded: number }>(sql`
    with moved as (
      delete from ticket_count_changes returning status, queue_id, user_id, is_group, n
    ), summed as (
      select status, queue_id, user_id, is_group, sum(n)::int as n, count(*)::int as changes from moved
      group by status, queue_id, user_id, is_group
    ), added as (
      insert into ticket_counts (status, queue_id, user_id, is_group, n)
      select status, queue_id, user_id, is_group, n from summed
      order by status, coalesce(queue_id, 0), coalesce(user_id, 0), is_group
      on conflict (status, coalesce(queue_id, 0), coalesce(user_id, 0), is_group) do update set n = ticket_counts.n + excluded.n
    )
    select coalesce(sum(changes), 0)::int as folded from summed`);
  await db.execute(sql`delete from ticket_counts where n = 0`);
  return Number(rows[0]?.folded ?? 0);
}
