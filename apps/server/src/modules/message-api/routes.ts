import { apiMessageSendAnswer, apiMessageSendBody } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.js";
import { AppError } from "../../lib/errors.js";
import { acceptMedia } from "../../lib/media.js";
import { RateLimiter } from "../../lib/rate-limiter.js";
import { apiTokenOf, connectionByToken } from "../connection-facts/token.js";
import type { ConvDeps } from "../outbox/deps.js";
import { idempotencyKeyOf } from "../outbox/idempotency.js";
import * as service from "./service.js";

export const BAD_TOKENS_PER_MIN = 30;

/**
 * POST /api/messages/send (document 001 §7, the /doc page): authenticated by a connection's
 * message-API token, never by a user session. JSON { number, body } or multipart number, body,
 * medias (one or more files).
 */
export function messageApiRoutes(conv: ConvDeps): FastifyPluginAsyncZod {
  const ctx: AppContext = conv.ctx;
  const limiter = new RateLimiter(ctx.cluster.store, "api-token", ctx.config.API_RATE_PER_MIN, 60_000);
  /** wrong tokens from one address: past this many a minute, the address waits (tokens are not guessed) */
  const wrongTokens = new RateLimiter(ctx.cluster.store, "api-bad-token", BAD_TOKENS_PER_MIN, 60_000);
  const callers = new WeakMap<object, number>();
  return async (app) => {
    app.post(
      "/api/messages/send",
      {
        schema: {
          tags: ["api"],
          summary: "Send a message (text or media) through a connection",
          description:
            "The connection's message-API token (Conexões → editar → token) in `Authorization: Bearer <token>` or `X_TOKEN` (also `X-Token`). " +
            "`number`: digits only with country code and area code, e.g. 5511987654321 (no mask); other shapes answer 400 ERR_WAPP_INVALID_CONTACT. " +
            "JSON `{ number, body }` or multipart `number`, `body`, `medias` (one or more files). The message is stored in the contact's history " +
            "(its live ticket, else a closed one: no waiting ticket opens). `Idempotency-Key` makes retries safe (24 h); " +
            `${ctx.config.API_RATE_PER_MIN} calls per token per minute, then 429 with Retry-After.`,
          headers: z
            .object({
              "idempotency-key": z.string().max(200).optional(),
              x_token: z.string().max(200).optional(),
            })
            .passthrough(),
          body: apiMessageSendBody.nullish(),
          response: { 200: apiMessageSendAnswer },
          security: [{ apiToken: [] }, { bearer: [] }],
        },
        // the token and the rate limit are checked before the body is read
        onRequest: async (req, reply) => {
          const blocked = await wrongTokens.retryAfter(req.ip);
          if (blocked > 0) {
            reply.header("retry-after", String(blocked));
            throw new AppError("ERR_TOO_MANY_REQUESTS");
          }
          const token = apiTokenOf(req.headers);
          const conn = token ? await connectionByToken(ctx.db, token) : undefined;
          if (!conn) {
            await wrongTokens.hit(req.ip);
            throw new AppError("ERR_INVALID_TOKEN", 401);
          }
          const key = `wapp:${conn.id}`;
          // counted and checked in one step: the limit holds across processes
          const wait = await limiter.take(key);
          if (wait > 0) {
            reply.header("retry-after", String(wait));
            throw new AppError("ERR_TOO_MANY_REQUESTS");
          }
          callers.set(req, conn.id);
        },
      },
      async (req, reply) => {
        const whatsappId = callers.get(req);
        if (whatsappId === undefined) throw new AppError("ERR_INVALID_TOKEN", 401);
        const idempotencyKey = idempotencyKeyOf(req.headers["idempotency-key"]);
        if (!req.isMultipart()) {
          const body = apiMessageSendBody.parse(req.body ?? {});
          return service.sendByApi(conv, whatsappId, { number: body.number, body: body.body, idempotencyKey });
        }
        const upload = await ctx.uploads.receive(req, reply, -whatsappId, {
          maxFileBytes: ctx.config.UPLOAD_LIMIT,
          maxFiles: 10,
          accept: acceptMedia,
        });
        try {
          const body = apiMessageSendBody.parse({ number: upload.fields.number ?? "", body: upload.fields.body ?? "" });
          const files = upload.files.map((f) => ({ file: f, fileName: safeName(f.fileName) }));
          return await service.sendByApi(conv, whatsappId, { number: body.number, body: body.body, files, idempotencyKey });
        } finally {
          await upload.cleanup();
        }
      },
    );
  };
}

function safeName(name: string | undefined): string {
  const base = (name ?? "arquivo").split(/[\\/]/).pop() ?? "arquivo";
  return base.replace(/[^\p{L}\p{N}._ -]/gu, "_").slice(0, 120) || "arquivo";
}
