import { messageSchema, messageSendBody, messagesAnswer, messagesQuery, ticketSchema, typingAnswer } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import { acceptMedia, MEDIA_KEY, servingHeaders } from "../../lib/media.js";
import type { ConvDeps } from "../outbox/deps.js";
import { idempotencyKeyOf } from "../outbox/idempotency.js";
import * as service from "./service.js";

const ticketIdParam = z.object({ ticketId: z.coerce.number().int().positive() });
const idParam = z.object({ id: z.coerce.number().int().positive() });

export function messageRoutes(conv: ConvDeps, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["messages"];
    app.get(
      "/messages/:ticketId",
      { preHandler: guard.user, schema: { tags, params: ticketIdParam, querystring: messagesQuery, response: { 200: messagesAnswer } } },
      (req) => service.listMessages(conv, sessionUser(req), req.params.ticketId, req.query),
    );

    // JSON { body, quotedMsg } or multipart (medias files, body, quotedMsg): the body is read here
    app.post(
      "/messages/:ticketId",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description:
            "Stores the message(s) with the clock (ack 0) and queues them for the connection: the answer comes from that commit, the ticks follow. " +
            "An `Idempotency-Key` header makes a retry answer the first request's messages instead of sending again (24 h, per user). " +
            "`internal: true` stores an internal note instead (text only): never queued nor sent, shown to whoever may see the ticket; `@Name` notifies that user (socket `mention`).",
          params: ticketIdParam,
          headers: z.object({ "idempotency-key": z.string().max(200).optional() }).passthrough(),
          response: { 200: z.array(messageSchema) },
        },
      },
      async (req, reply) => {
        const user = sessionUser(req);
        const idempotencyKey = idempotencyKeyOf(req.headers["idempotency-key"]);
        if (!req.isMultipart()) {
          const body = messageSendBody.parse(req.body ?? {});
          return service.sendMessage(conv, user, req.params.ticketId, {
            body: body.body,
            quotedMsgId: body.quotedMsg?.id,
            idempotencyKey,
            internal: body.internal,
            ...(body.template && { template: body.template }),
          });
        }
        // streamed to temp files (lib/uploads.ts): limit, type and per-user concurrency checked while receiving
        const upload = await conv.ctx.uploads.receive(req, reply, user.id, {
          maxFileBytes: conv.ctx.config.UPLOAD_LIMIT,
          maxFiles: 10,
          accept: acceptMedia,
        });
        try {
          const fields = upload.fields;
          const body = messageSendBody.parse({
            body: fields.body ?? "",
            quotedMsg: quotedOf(fields),
            ...(fields.internal && { internal: fields.internal === "true" || fields.internal === "1" }),
          });
          // the temp files are moved into the media store, never read into memory
          const files: service.Upload[] = upload.files.map((f) => ({ file: f, fileName: safeName(f.fileName) }));
          return await service.sendMessage(conv, user, req.params.ticketId, {
            body: body.body,
            quotedMsgId: body.quotedMsg?.id,
            files,
            idempotencyKey,
            internal: body.internal,
          });
        } finally {
          await upload.cleanup();
        }
      },
    );

    app.post(
      "/messages/:id/resend",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description: "'Reenviar': queues a message that could not be sent again, with the same channel id.",
          params: idParam,
          response: { 200: messageSchema },
        },
      },
      (req) => service.resendMessage(conv, sessionUser(req), req.params.id),
    );

    app.post(
      "/messages/:ticketId/read",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description:
            "The agent is reading the chat (open, in a visible tab): its customer messages are read, the unread count is cleared and the phone gets the read receipts.",
          params: ticketIdParam,
          response: { 200: ticketSchema },
        },
      },
      (req) => service.readTicket(conv, sessionUser(req), req.params.ticketId),
    );

    app.delete("/messages/:id", { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: messageSchema } } }, (req) =>
      service.deleteMessage(conv, sessionUser(req), req.params.id),
    );

    app.post(
      "/digitando/:ticketId",
      { preHandler: guard.user, schema: { tags, params: ticketIdParam, response: { 200: typingAnswer } } },
      (req) => service.setTyping(conv, sessionUser(req), req.params.ticketId, true),
    );
    app.post(
      "/digitando/stop/:ticketId",
      { preHandler: guard.user, schema: { tags, params: ticketIdParam, response: { 200: typingAnswer } } },
      (req) => service.setTyping(conv, sessionUser(req), req.params.ticketId, false),
    );

    // media by unguessable link (the key is 128 random bits): <img>/<audio> tags carry no token
    app.get("/media/:key", { schema: { tags, params: z.object({ key: z.string().regex(MEDIA_KEY) }) } }, async (req, reply) => {
      const data = await conv.media.stream(req.params.key);
      if (!data) throw new AppError("ERR_NOT_FOUND");
      reply.headers(servingHeaders(req.params.key));
      return reply.send(data);
    });
  };
}

function quotedOf(fields: Record<string, string>): { id: number } | undefined {
  const raw = fields.quotedMsg ?? fields.quotedMsgId;
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v === "number") return { id: v };
    if (v && typeof v === "object" && "id" in v) return { id: Number((v as { id: unknown }).id) };
  } catch {
    /* not JSON */
  }
  return { id: Number(raw) };
}

function safeName(name: string | undefined): string {
  const base = (name ?? "arquivo").split(/[\\/]/).pop() ?? "arquivo";
  return base.replace(/[^\p{L}\p{N}._ -]/gu, "_").slice(0, 120) || "arquivo";
}
