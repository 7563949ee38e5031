import type { Ticket } from "@balcao/contract";
import { MEDIA_KEY, mediaTypeOf, servingHeaders, type StoredMedia } from "../../lib/media.js";
import { outgoingFetch } from "../../lib/outgoing-http.js";
import { redactUrl } from "../../lib/redact.js";
import type { Queued } from "../outbox/deps.js";
import { enqueueMessage, mediaContent, type OutboxContent } from "../outbox/enqueue.js";
import type { BotDeps } from "./deps.js";

/** What the bots say, through the outbox: texts, and media by address (our own files or an outside URL). */

export type Piece = { body: string; content: OutboxContent; media?: StoredMedia };

export const text = (body: string): Piece => ({ body, content: { kind: "text", body } });

export async function send(deps: BotDeps, ticket: Ticket, pieces: Piece[]): Promise<void> {
  if (!pieces.length || ticket.whatsappId === null) return;
  const queued = await deps.conv.ctx.db.transaction(async (tx) => {
    const out: Queued[] = [];
    for (const p of pieces) {
      const q = await enqueueMessage(tx, {
        ticket,
        source: "bot",
        userId: null,
        body: p.body,
        content: p.content,
        media: p.media,
        fileName: p.content.kind === "media" ? p.content.fileName || null : null,
      });
      out.push({ id: q.id, whatsappId: q.whatsappId });
    }
    return out;
  });
  await deps.conv.outbox.committed(queued);
}

/** A media address as something the outbox can send: our own `/media/<key>` files, or an outside http(s) URL fetched now. */
export async function mediaPiece(deps: BotDeps, url: string, kind: "image" | "audio" | "video", caption = ""): Promise<Piece | undefined> {
  const { media, ctx } = deps.conv;
  let stored: StoredMedia | undefined;
  // our own files: "/media/<key>", or a full address of ours (a flow that sends an audio entry) — keys are unguessable
  const own = /^(?:https?:\/\/[^/]+)?\/media\/([a-f0-9]{32}\.[a-z0-9]{1,8})(?:[?#].*)?$/.exec(url);
  if (own && MEDIA_KEY.test(own[1]) && (await media.exists(own[1]))) {
    const key = own[1];
    const mimetype = servingHeaders(key)["content-type"];
    stored = { key, mimetype, mediaType: mediaTypeOf(mimetype), size: 0 };
  } else if (/^https?:\/\//i.test(url)) {
    try {
      const res = await outgoingFetch(url, {
        allow: ctx.config.allowedPrivateHosts,
        timeoutMs: 20_000,
        maxBytes: ctx.config.UPLOAD_LIMIT,
      });
      if (res.status < 200 || res.status > 299) throw new Error(`media answered ${res.status}`);
      stored = await media.storeUpload(res.body);
    } catch (err) {
      ctx.log.warn({ err, url: redactUrl(url) }, "bot media could not be fetched");
      return undefined;
    }
  }
  if (!stored) return undefined;
  // what is not an image, audio or video is sent as the kind the flow or entry asked for
  const mediaType = stored.mediaType === "image" || stored.mediaType === "audio" || stored.mediaType === "video" ? stored.mediaType : kind;
  // a bot's media carries no file name; audio goes as a voice note
  return { body: caption, media: stored, content: mediaContent({ ...stored, mediaType }, "", caption, true) };
}
