import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { AppContext } from "../context.js";
import { tickets } from "../db/schema/index.js";
import { getSettingValue } from "../modules/settings/service.js";
import { loadTickets } from "../modules/tickets/queries.js";

const BATCH = 500;

/**
 * Closes open tickets idle for longer than the autoCloseHours setting (0 turns it off). Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so several server processes never close one twice.
 * Answers how many were closed.
 */
export async function runAutoClose(ctx: AppContext): Promise<number> {
  const hours = Number(await getSettingValue(ctx.db, "autoCloseHours"));
  if (!Number.isFinite(hours) || hours <= 0) return 0;
  let total = 0;
  for (;;) {
    const closed = await ctx.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId })
        .from(tickets)
        .where(and(eq(tickets.status, "open"), lt(tickets.updatedAt, sql`now() - make_interval(hours => ${hours})`)))
        // the backward walk of the (status, updated_at desc nulls last) index
        .orderBy(sql`${tickets.updatedAt} asc nulls first`)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      if (!due.length) return due;
      await tx
        .update(tickets)
        .set({ status: "closed", closedAt: new Date(), unreadMessages: 0, updatedAt: new Date() })
        .where(
          inArray(
            tickets.id,
            due.map((d) => d.id),
          ),
        );
      return due;
    });
    if (!closed.length) break;
    total += closed.length;
    const before = new Map(closed.map((c) => [c.id, c]));
    for (const ticket of await loadTickets(
      ctx.db,
      closed.map((c) => c.id),
    )) {
      const prev = before.get(ticket.id);
      ctx.events.publish("ticket.updated", {
        ticket,
        previous: { status: "open", queueId: prev?.queueId ?? null, userId: prev?.userId ?? null },
      });
    }
    if (closed.length < BATCH) break;
  }
  return total;
}

/** The server's timer (AUTO_CLOSE_INTERVAL_S); answers the function that stops it. */
export function startAutoClose(ctx: AppContext): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const n = await runAutoClose(ctx);
      if (n) ctx.log.info({ closed: n }, "auto-closed idle tickets");
    } catch (err) {
      ctx.log.error({ err }, "auto-close failed");
    } finally {
      running = false;
    }
  }, ctx.config.AUTO_CLOSE_INTERVAL_S * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
