import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";

/**
 * Requests that send accept an `Idempotency-Key` header: the same key from the same caller
 * within 24 h answers what the first request produced and creates nothing new. The key is taken
 * in the request's own transaction (a concurrent twin waits on the unique index, then sees the
 * first one's result), and the result is written in that transaction too.
 */

export const IDEMPOTENCY_WINDOW_HOURS = 24;
const KEY = /^[\x21-\x7e]{1,200}$/;

/** The header's value, checked; undefined when absent. */
export function idempotencyKeyOf(header: unknown): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== "string" || !KEY.test(value))
    throw new AppError("ERR_VALIDATION", 400, { "Idempotency-Key": ["1 to 200 visible characters"] });
  return value;
}

export type Claim<R> = { fresh: true } | { fresh: false; result: R };

/** Takes the key for this request, or answers the result of the request that took it first. */
export async function claimKey<R>(tx: DbOrTx, scope: string, key: string): Promise<Claim<R>> {
  const taken = await tx.execute(sql`
    insert into idempotency_keys (scope, key) values (${scope}, ${key})
    on conflict (scope, key) do update set created_at = now(), result = null
      where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})
    returning 1`);
  if (taken.rows.length) return { fresh: true };
  return { fresh: false, result: await storedResult<R>(tx, scope, key) };
}

/** What the request that took the key answered (a twin still in flight: ERR_IDEMPOTENCY_CONFLICT). */
export async function storedResult<R>(db: DbOrTx, scope: string, key: string): Promise<R> {
  const { rows } = await db.execute<{ result: R | string | null }>(
    sql`select result from idempotency_keys where scope = ${scope} and key = ${key}`,
  );
  const raw = rows[0]?.result;
  if (raw === null || raw === undefined) throw new AppError("ERR_IDEMPOTENCY_CONFLICT");
  return (typeof raw === "string" ? JSON.parse(raw) : raw) as R;
}

export async function saveResult(tx: DbOrTx, scope: string, key: string, result: unknown): Promise<void> {
  await tx.execute(sql`update idempotency_keys set result = ${JSON.stringify(result)}::jsonb where scope = ${scope} and key = ${key}`);
}

/** Keys older than the window are removed (the job runner's clean-up). */
export async function pruneIdempotencyKeys(db: DbOrTx): Promise<void> {
  await db.execute(sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`);
}
