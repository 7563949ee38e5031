import type { Ticket } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { findTicket } from "../tickets/queries.js";
import { loadMessage } from "./queries.js";

/** How far back (ids) a take-over looks for the messages its dead owner stored. */
const RECENT_IDS = 20_000;

/**
 * A session taken over from a process that died: the messages of the connection stored in the last
 * `windowMs` are announced again, as updates (screens upsert them by id; nothing notifies twice).
 * The dead owner announced each message after its commit; a SIGKILL between the two left a stored
 * message that no agent's screen heard. Answers how many were announced.
 */
export async function reannounceRecent(ctx: AppContext, whatsappId: number, windowMs: number): Promise<number> {
  const since = new Date(Date.now() - windowMs).toISOString();
  const { rows } = await ctx.db.execute<{ id: number | string }>(sql`
    select id from messages
    where id > (select coalesce(max(id), 0) - ${RECENT_IDS} from messages)
      and whatsapp_id = ${whatsappId} and created_at >= ${since}::timestamptz
    order by id`);
  const tickets = new Map<number, Ticket | undefined>();
  let n = 0;
  for (const r of rows) {
    const message = await loadMessage(ctx.db, Number(r.id));
    if (!message) continue;
    if (!tickets.has(message.ticketId)) tickets.set(message.ticketId, await findTicket(ctx.db, message.ticketId));
    const ticket = tickets.get(message.ticketId);
    if (!ticket) continue;
    ctx.events.publish("message.updated", { message, ticket });
    n++;
  }
  return n;
}
