import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { previewOf } from "../../lib/preview.js";

/**
 * After the message a ticket's preview shows was deleted or edited: the preview follows the
 * newest message still visible, a person's (customer or agent) before an automatic one.
 */
export async function refreshPreview(tx: DbOrTx, ticketId: number, changedMessageId: number): Promise<void> {
  const shown = await tx.execute(sql`select 1 from tickets where id = ${ticketId} and last_message_id = ${changedMessageId}`);
  if (!shown.rows.length) return;
  const { rows } = await tx.execute<{ id: number | string; body: string; media_type: string; file_name: string | null }>(sql`
    select id, body, media_type, file_name from messages
    where ticket_id = ${ticketId} and not is_deleted and source <> 'note'
    order by (source = 'bot'), created_at desc, id desc
    limit 1`);
  const [m] = rows;
  await tx.execute(sql`
    update tickets set last_message = ${m ? previewOf(m.body, m.media_type, m.file_name) : ""}, last_message_id = ${m ? Number(m.id) : null}
    where id = ${ticketId}`);
}
