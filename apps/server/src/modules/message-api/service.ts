import { type ApiMessageSendAnswer, isApiNumber } from "@balcao/contract";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import type { StoredMedia } from "../../lib/media.js";
import type { ReceivedFile } from "../../lib/uploads.js";
import { contactOf } from "../contacts/service.js";
import { contactFor } from "../contacts/for-number.js";
import { historyTicket } from "../tickets/history-ticket.js";
import type { ConvDeps, Queued } from "../outbox/deps.js";
import { enqueueMessage, mediaContent, type OutboxContent } from "../outbox/enqueue.js";
import { routeOf } from "../health/service.js";
import { claimKey, saveResult } from "../outbox/idempotency.js";

/**
 * POST /api/messages/send — outside systems (an ISP's billing, its network monitor) write to a
 * customer through a connection, named by its message-API token. The number is digits only with
 * the country code. The message is stored in the contact's history — its live ticket on the
 * connection, else its latest ticket there, else a new CLOSED one — so a notification never
 * opens a waiting ticket; the customer's answer does, as usual, with the history visible. Stored
 * and queued in one transaction (the outbox, schedule/API priority); an `Idempotency-Key` makes a
 * retry answer the first result.
 */

export const API_SENT = "Mensagem enviada com sucesso";

export interface ApiFile {
  file: ReceivedFile;
  fileName: string;
}

export async function sendByApi(
  conv: ConvDeps,
  whatsappId: number,
  input: { number: string; body: string; files?: ApiFile[]; idempotencyKey?: string },
): Promise<ApiMessageSendAnswer> {
  const { ctx } = conv;
  const number = input.number.trim();
  if (!isApiNumber(number)) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  const files = input.files ?? [];
  const body = input.body.trim();
  if (!files.length && !body) throw new AppError("ERR_VALIDATION", 400, { body: ["Required"] });

  const stored: { file: ApiFile; media: StoredMedia }[] = [];
  try {
    for (const file of files) stored.push({ file, media: await conv.media.adoptUpload(file.file) });
  } catch (err) {
    for (const s of stored) await conv.media.remove(s.media.key);
    throw err;
  }
  const scope = `token:${whatsappId}`;
  const outcome = await ctx.db.transaction(async (tx) => {
    if (input.idempotencyKey) {
      const claim = await claimKey<ApiMessageSendAnswer>(tx, scope, input.idempotencyKey);
      if (!claim.fresh) return { replay: claim.result };
    }
    const { contact, created } = await contactFor(tx, number);
    // a number down or paused: its backup connection sends (number health)
    const via = (await routeOf(tx, whatsappId)).whatsappId;
    const ticket = await historyTicket(tx, contact.id, via);
    const target = { id: ticket.id, whatsappId: via, contact: { number: contact.number, lid: contact.lid, isGroup: false } };
    const queued: Queued[] = [];
    if (!stored.length) queued.push(await enqueue(tx, target, body, { kind: "text", body }));
    for (const [i, { file, media }] of stored.entries()) {
      const caption = i === 0 ? body : "";
      // an outside system's audio file goes as a file, not as a voice note
      const content = mediaContent(media, file.fileName, caption, false);
      queued.push(await enqueue(tx, target, caption || (media.mediaType === "audio" ? "" : file.fileName), content, media, file.fileName));
    }
    const result: ApiMessageSendAnswer = { message: API_SENT, id: queued[0].id, ids: queued.map((q) => q.id), ticketId: ticket.id };
    if (input.idempotencyKey) await saveResult(tx, scope, input.idempotencyKey, result);
    return { result, queued, created };
  });
  if ("replay" in outcome) {
    for (const s of stored) await conv.media.remove(s.media.key);
    return outcome.replay as ApiMessageSendAnswer;
  }
  if (outcome.created) ctx.events.publish("contact.saved", { action: "create", contact: contactOf(outcome.created) });
  await conv.outbox.committed(outcome.queued);
  return outcome.result;
}

function enqueue(
  tx: DbOrTx,
  ticket: { id: number; whatsappId: number; contact: { number: string | null; lid: string | null; isGroup: boolean } },
  body: string,
  content: OutboxContent,
  media?: StoredMedia,
  fileName?: string,
) {
  return enqueueMessage(tx, { ticket, source: "api", userId: null, body, content, media, fileName }).then((q) => ({
    id: q.id,
    whatsappId: q.whatsappId,
  }));
}
