import type { DisparoOptOut, Message, Ticket } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import { iso } from "../../lib/sql.js";
import type { Queued } from "../outbox/deps.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import { getSettingValues } from "../settings/service.js";
import type { DisparoDeps } from "./deps.js";
import { publishChange } from "./listing.js";

/** SAIR: the opt-out words, the contacts who used them, and the admin clearing the mark. */

/** Case, accents, spaces and punctuation around the word do not matter: "Sair!", " sáir " and "SAIR" are one. */
export function optOutKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * A customer's message equal to an opt-out word: the contact is marked (once), its waiting rows
 * are cancelled, and it gets the one-line confirmation (through the outbox, as a bot text).
 * Called after the inbound message is committed (the `message.created` event).
 */
export async function handleOptOut(deps: DisparoDeps, message: Message, ticket: Ticket): Promise<boolean> {
  if (message.fromMe || ticket.isGroup || message.mediaType !== "chat" || message.body.length > 60) return false;
  const key = optOutKey(message.body);
  if (!key) return false;
  const { ctx } = deps.conv;
  const s = await getSettingValues(ctx.db, ["disparoOptOutWords", "disparoOptOutReply"]);
  const words = s.disparoOptOutWords
    .split(/[,;\n]/)
    .map(optOutKey)
    .filter(Boolean);
  if (!words.includes(key)) return false;
  const contact = ticket.contact;
  const queued = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute(sql`
      insert into contact_opt_outs (contact_id, word) values (${contact.id}, ${message.body.slice(0, 60)})
      on conflict do nothing returning contact_id`);
    if (!rows.length) return undefined;
    await tx.execute(sql`
      update disparos set status = 'cancelado', reason = 'descadastrado', updated_at = now()
      where status = 'a enviar' and (contact_id = ${contact.id} ${contact.number ? sql`or number = ${contact.number}` : sql``})`);
    const reply = s.disparoOptOutReply.trim();
    if (!reply || ticket.whatsappId === null) return [] as Queued[];
    const q = await enqueueMessage(tx, {
      ticket: { id: ticket.id, whatsappId: ticket.whatsappId, contact: { number: contact.number, lid: contact.lid, isGroup: false } },
      source: "bot",
      userId: null,
      body: reply,
      content: { kind: "text", body: reply },
    });
    return [{ id: q.id, whatsappId: q.whatsappId }];
  });
  if (!queued) return false;
  ctx.log.info({ contactId: contact.id }, "contact opted out of disparos");
  await deps.conv.outbox.committed(queued);
  await publishChange(ctx, "update");
  return true;
}

/** GET /disparos/opt-outs: contacts who asked to stop, newest first. */
export async function listOptOuts(db: DbOrTx): Promise<DisparoOptOut[]> {
  const { rows } = await db.execute<{ contact_id: number; name: string; number: string | null; created_at: Date | string }>(sql`
    select o.contact_id, c.name, c.number, o.created_at from contact_opt_outs o join contacts c on c.id = o.contact_id
    order by o.created_at desc limit 500`);
  return rows.map((r) => ({ contactId: r.contact_id, name: r.name, number: r.number, createdAt: iso(r.created_at) }));
}

/** DELETE /disparos/opt-outs/:contactId: the admin clears the mark; later rows for it are sent again. */
export async function clearOptOut(ctx: AppContext, contactId: number): Promise<void> {
  const { rows } = await ctx.db.execute(sql`delete from contact_opt_outs where contact_id = ${contactId} returning contact_id`);
  if (!rows.length) throw new AppError("ERR_NOT_FOUND");
  await publishChange(ctx, "settings");
}
