import { myProfileAnswer, myProfileBody, myProfileSchema } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import { RateLimiter } from "../../lib/rate-limiter.js";
import { setRefreshCookie } from "../auth/routes.js";
import { openSession } from "../auth/service.js";
import * as profile from "./service.js";

/** GET and PUT /profile: "Meu perfil", the signed-in user's own account (any profile). */
export function profileRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  // the same counter as PUT /users/{id}: guessing one's current password through a borrowed session is limited like a sign-in
  const wrongPassword = new RateLimiter(
    ctx.cluster.store,
    "wrong-password",
    ctx.config.LOGIN_RATE_PER_EMAIL,
    ctx.config.LOGIN_RATE_WINDOW_S * 1000,
  );
  return async (app) => {
    const tags = ["profile"];
    app.get("/profile", { preHandler: guard.user, schema: { tags, response: { 200: myProfileSchema } } }, (req) =>
      profile.getMyProfile(ctx.db, sessionUser(req).id),
    );
    app.put(
      "/profile",
      { preHandler: guard.user, schema: { tags, body: myProfileBody, response: { 200: myProfileAnswer } } },
      async (req, reply) => {
        const actor = sessionUser(req);
        const key = String(actor.id);
        if (req.body.password) {
          const wait = await wrongPassword.retryAfter(key);
          if (wait > 0) {
            reply.header("retry-after", String(wait));
            throw new AppError("ERR_TOO_MANY_REQUESTS");
          }
        }
        try {
          const saved = await profile.updateMyProfile(ctx, actor, req.body);
          if (!saved.passwordChanged) return saved.profile;
          // every session of the user ended with the old password; this device goes on with a new one
          const session = await openSession(ctx, actor.id);
          setRefreshCookie(ctx, reply, session);
          return { ...saved.profile, token: session.token };
        } catch (err) {
          if (err instanceof AppError && err.code === "ERR_WRONG_PASSWORD") await wrongPassword.hit(key);
          throw err;
        }
      },
    );
  };
}
