import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import type { Clock } from "../../lib/pace.js";
import type { ConvDeps } from "../outbox/deps.js";

/** What every part of the disparos module is given, and the connection's send job. */

export const SEND_JOB = "disparos.send";
export const SWEEP_JOB = "disparos.sweep";
export const keyOf = (whatsappId: number) => `disparos:${whatsappId}`;

export interface DisparoDeps {
  conv: ConvDeps;
  clock: Clock;
  random: () => number;
  /** the job runner looks for due jobs now, or at `at` (after a commit that queued one) */
  wakeRunner: (at?: number) => void;
}

/**
 * Queues the connection's send job for `at`, or moves an already queued one earlier (never later:
 * the run decides again, and queues itself for when the pace allows).
 */
export async function wakeJob(tx: DbOrTx, whatsappId: number, at: number): Promise<void> {
  await tx.execute(sql`
    insert into jobs (name, payload, run_at, max_attempts, singleton_key)
    values (${SEND_JOB}, ${JSON.stringify({ whatsappId })}::jsonb, ${new Date(at).toISOString()}::timestamptz, 5, ${keyOf(whatsappId)})
    on conflict (singleton_key) where state in ('queued', 'running')
    do update set run_at = least(jobs.run_at, excluded.run_at), updated_at = now() where jobs.state = 'queued'`);
}
