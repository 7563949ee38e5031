import type { DbOrTx } from "../../db/client.js";
import type { Clock } from "../../lib/pace.js";
import type { ConvDeps } from "../outbox/deps.js";
import { queueOrMoveEarlier } from "../../jobs/runner.js";

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
  await queueOrMoveEarlier(tx, SEND_JOB, { whatsappId }, { singletonKey: keyOf(whatsappId), runAt: new Date(at) });
}
