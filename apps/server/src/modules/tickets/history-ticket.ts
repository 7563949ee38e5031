import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { writeHistory } from "./apply-transition.js";

/**
 * Where an unsolicited message (a disparo, an incident's notice, the message API's) is stored: the contact's live ticket on the connection when there is one (the
 * agent sees it in the conversation, nothing changes status), else its latest ticket there, else a
 * new CLOSED ticket. It never opens a waiting ticket; the customer's answer does, as usual.
 */
export async function historyTicket(tx: DbOrTx, contactId: number, whatsappId: number): Promise<{ id: number }> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select id from tickets where contact_id = ${contactId} and whatsapp_id = ${whatsappId}
    order by (status in ('open', 'pending')) desc, updated_at desc nulls last, id desc limit 1`);
  if (rows[0]) return { id: rows[0].id };
  const { rows: created } = await tx.execute<{ id: number }>(sql`
    insert into tickets (contact_id, whatsapp_id, status, closed_at) values (${contactId}, ${whatsappId}, 'closed', now()) returning id`);
  await writeHistory(tx, {
    ticketId: created[0].id,
    to: { status: "closed", queueId: null, userId: null },
    actor: { kind: "system" },
    reason: "create",
  });
  return { id: created[0].id };
}
