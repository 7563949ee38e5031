import { colorsAnswer, settingUpdateBody } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import { RateLimiter } from "../../lib/rate-limiter.js";
import * as service from "./service.js";

const publicSetting = z.object({ key: z.string(), value: z.string(), hasValue: z.boolean().optional() });

export function settingRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  const unlockLimiter = new RateLimiter(ctx.config.LOGIN_RATE_PER_EMAIL, ctx.config.LOGIN_RATE_WINDOW_S * 1000);
  return async (app) => {
    const tags = ["settings"];
    app.get("/settings", { preHandler: guard.user, schema: { tags, response: { 200: z.array(publicSetting) } } }, () =>
      service.listSettings(ctx.db),
    );
    app.put(
      "/settings/:key",
      {
        preHandler: guard.admin,
        schema: { tags, params: z.object({ key: z.string().max(100) }), body: settingUpdateBody, response: { 200: publicSetting } },
      },
      (req) => service.updateSetting(ctx, req.params.key, req.body.value),
    );
    /** The 'Acesso restrito' gate of the settings screen, checked here. */
    app.post(
      "/settings/unlock",
      {
        preHandler: guard.admin,
        schema: { tags, body: z.object({ password: z.string().min(1).max(200) }), response: { 200: z.object({ ok: z.boolean() }) } },
      },
      async (req, reply) => {
        const user = sessionUser(req);
        const key = String(user.id);
        const wait = unlockLimiter.retryAfter(key);
        if (wait > 0) {
          reply.header("retry-after", String(wait));
          throw new AppError("ERR_TOO_MANY_REQUESTS");
        }
        const ok = await service.verifySettingsPassword(ctx, user, req.body.password);
        if (!ok) {
          unlockLimiter.hit(key);
          throw new AppError("ERR_INVALID_CREDENTIALS", 403);
        }
        unlockLimiter.reset(key);
        return { ok: true };
      },
    );
    app.get("/colors", { schema: { tags, response: { 200: colorsAnswer } } }, () => service.getColors(ctx.db));
  };
}
