import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { loadTicket } from "../tickets/queries.js";
import { doneStep, type Journal } from "./journal.js";
import { refreshPreview } from "./preview.js";
import { changeAndLoadMessage, loadMessage } from "./queries.js";

/** What the channel says of a message already stored: its ticks, an edit, a deletion. */
export function createMessageUpdates(ctx: AppContext, journal: Journal) {
  const db = ctx.db;

  async function ack(whatsappId: number, wid: string, value: number, journalId?: number) {
    // the tick moves, the journal row is done, and the message is read back: one statement
    const message = await changeAndLoadMessage(
      db,
      sql`update messages set ack = ${value}, updated_at = now()
        where coalesce(whatsapp_id, 0) = ${whatsappId} and wid = ${wid} and ack < ${value}
        returning *`,
      doneStep(journal, journalId),
    );
    if (message) ctx.events.publish("message.updated", { message, ticket: await loadTicket(db, message.ticketId) });
  }

  async function change(whatsappId: number, wid: string, what: { body: string } | { deleted: true }, journalId?: number) {
    const changed = await db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: number | string; ticket_id: number }>(sql`
        with u as (
          update messages set ${"deleted" in what ? sql`is_deleted = true` : sql`body = ${what.body}, is_edited = true`}, updated_at = now()
          where coalesce(whatsapp_id, 0) = ${whatsappId} and wid = ${wid}
          returning id, ticket_id
        )${doneStep(journal, journalId)}
        select id, ticket_id from u`);
      const row = rows[0];
      if (row) await refreshPreview(tx, row.ticket_id, Number(row.id));
      return row;
    });
    if (!changed) return;
    const [message, ticket] = await Promise.all([loadMessage(db, Number(changed.id)), loadTicket(db, changed.ticket_id)]);
    if (message) ctx.events.publish("message.updated", { message, ticket });
  }

  /** WhatsApp refused a message it had taken (Cloud API `failed` status): the reason is kept and shown. */
  async function fail(whatsappId: number, wid: string, reason: string, journalId?: number) {
    const message = await changeAndLoadMessage(
      db,
      sql`update messages set send_error = ${reason.slice(0, 500)}, updated_at = now()
        where coalesce(whatsapp_id, 0) = ${whatsappId} and wid = ${wid} and from_me and send_error is null
        returning *`,
      doneStep(journal, journalId),
    );
    if (!message) return; // the journal row is done by the same statement
    ctx.events.publish("message.failed", { messageId: message.id, whatsappId, reason });
    ctx.events.publish("message.updated", { message, ticket: await loadTicket(db, message.ticketId) });
  }

  return { ack, change, fail };
}
