import { chatWindowAnswer, cloudTemplatesAnswer, idParam, queryBool } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import { ticketFor } from "../tickets/queries.js";
import * as service from "./service.js";
import { WEBHOOK_PATH } from "./settings.js";

/**
 * The Cloud API's routes: Meta's one webhook (public: the verify token and the signature are the
 * credentials), a connection's approved templates, a chat's 24 h window.
 */
export function cloudRoutes(
  ctx: AppContext,
  channels: ChannelManager,
  guard: Guards,
  ask?: (whatsappId: number, method: string, args: unknown) => Promise<unknown>,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["cloud"];
    // the signature is over the bytes Meta sent: this plugin's JSON bodies stay raw
    app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

    app.get(WEBHOOK_PATH, { schema: { tags, querystring: z.record(z.string(), z.unknown()) } }, async (req, reply) => {
      const challenge = await service.verifyChallenge(ctx.db, req.query);
      if (challenge === undefined) return reply.code(403).type("text/plain").send("Forbidden");
      return reply.code(200).type("text/plain").send(challenge);
    });
    app.post(WEBHOOK_PATH, { schema: { tags } }, async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
      if (!raw) throw new AppError("ERR_WEBHOOK_SIGNATURE", 401);
      await service.receiveWebhook(ctx, channels, raw, req.headers["x-hub-signature-256"], ask);
      return { ok: true };
    });

    app.get(
      "/whatsapp/:id/templates",
      {
        preHandler: guard.user,
        schema: {
          tags,
          params: idParam,
          querystring: z.object({ refresh: queryBool.optional() }),
          response: { 200: cloudTemplatesAnswer },
        },
      },
      (req) => service.listTemplates(ctx, req.params.id, req.query.refresh === true),
    );
    app.get(
      "/tickets/:id/window",
      { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: chatWindowAnswer } } },
      async (req) => {
        await ticketFor(ctx.db, sessionUser(req), req.params.id);
        return service.chatWindow(ctx.db, req.params.id);
      },
    );
  };
}
