import { and, eq, lt, sql } from "drizzle-orm";
import { tickets } from "../../db/schema/index.js";
import type { ConvDeps } from "../outbox/deps.js";
import { getSettingValue } from "../../db/settings.js";
import { afterTransition, type Transitioned, transitionTicket } from "./apply-transition.js";

const BATCH = 200;

/**
 * Closes open tickets idle for longer than the autoCloseHours setting (0 turns it off), as the
 * transition function decides for an auto-close: closed, a history row, the connection's farewell
 * queued. Rows are claimed with FOR UPDATE SKIP LOCKED, so several server processes never close
 * one twice. Answers how many were closed. Runs on the job runner (job `tickets.autoClose`).
 */
export async function runAutoClose(conv: ConvDeps): Promise<number> {
  const { ctx } = conv;
  const hours = Number(await getSettingValue(ctx.db, "autoCloseHours"));
  if (!Number.isFinite(hours) || hours <= 0) return 0;
  let total = 0;
  for (;;) {
    const closed = await ctx.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(eq(tickets.status, "open"), lt(tickets.updatedAt, sql`now() - make_interval(hours => ${hours})`)))
        // the backward walk of the (status, updated_at desc nulls last) index
        .orderBy(sql`${tickets.updatedAt} asc nulls first`)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      const out: Transitioned[] = [];
      for (const d of due) out.push(await transitionTicket(tx, d.id, { kind: "system" }, { type: "autoClose" }));
      return out;
    });
    if (!closed.length) break;
    total += closed.length;
    for (const done of closed) await afterTransition(conv, done);
    if (closed.length < BATCH) break;
  }
  return total;
}
