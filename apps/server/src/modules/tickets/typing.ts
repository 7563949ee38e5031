import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";

/** The customer types: the agents watching their live ticket on this connection see it. */
export async function customerTyping(
  ctx: AppContext,
  whatsappId: number,
  from: { number?: string; lid?: string },
  on: boolean,
): Promise<void> {
  if (!from.number && !from.lid) return;
  const { rows } = await ctx.db.execute<{ id: number }>(sql`
    select t.id from tickets t join contacts c on c.id = t.contact_id
    where coalesce(t.whatsapp_id, 0) = ${whatsappId} and t.status in ('open', 'pending')
      and (${from.number ? sql`c.number = ${from.number}` : sql`false`} or ${from.lid ? sql`c.lid = ${from.lid}` : sql`false`})
    limit 1`);
  if (rows[0]) ctx.events.publish("ticket.typing", { ticketId: rows[0].id, typing: on });
}
