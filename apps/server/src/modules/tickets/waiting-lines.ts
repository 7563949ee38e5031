import { sql } from "drizzle-orm";
import type { WaitingLineLookup } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import type { EventBus } from "../../lib/events.js";
import { waitingIn } from "./queries.js";

/**
 * The waiting line of each queue (pending, no agent, not a group; oldest first), kept by this
 * process for the lists: a list of 40 waiting tickets in queues of 1 500 reads each line once, not
 * per request. Any ticket change on any process (the domain events, on every process) drops every
 * line at once; a line is also reloaded after `ttlMs`, so a change made without an event is seen
 * within that. A line loaded while a change was announced is not kept (its generation moved).
 * Lists only: one ticket's position (a socket payload, the customer's notice) is read in SQL.
 */
export class WaitingLines implements WaitingLineLookup {
  private readonly lines = new Map<number, { at: number; pos: Map<number, number> }>();
  private generation = 0;

  constructor(
    private readonly db: DbOrTx,
    events: EventBus,
    private readonly ttlMs = 2000,
  ) {
    const drop = () => {
      this.generation++;
      this.lines.clear();
    };
    events.onEverywhere("ticket.updated", drop);
    events.onEverywhere("ticket.deleted", drop);
    events.onEverywhere("tickets.changed", drop);
    events.onEverywhere("queue.deleted", drop);
  }

  async positions(waiting: { id: number; queueId: number }[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const queues = [...new Set(waiting.map((w) => w.queueId))];
    const lines = await Promise.all(queues.map((q) => this.line(q)));
    const byQueue = new Map(queues.map((q, i) => [q, lines[i]]));
    for (const w of waiting) {
      const p = byQueue.get(w.queueId)?.get(w.id);
      if (p !== undefined) out.set(w.id, p);
    }
    return out;
  }

  private async line(queueId: number): Promise<Map<number, number>> {
    const hit = this.lines.get(queueId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.pos;
    const generation = this.generation;
    const { rows } = await this.db.execute<{ id: number }>(sql`
      select t.id from tickets t
      where t.queue_id = ${queueId} and ${waitingIn("t")}
      order by t.created_at, t.id`);
    const pos = new Map(rows.map((r, i) => [Number(r.id), i + 1]));
    if (generation === this.generation) {
      this.lines.set(queueId, { at: Date.now(), pos });
      if (this.lines.size > 1000) this.lines.clear();
    }
    return pos;
  }
}
