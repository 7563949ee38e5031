import { idParam, userCreateBody, userSchema, userUpdateBody, usersAnswer, usersQuery } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import { RateLimiter } from "../../lib/rate-limiter.js";
import * as users from "./service.js";

export function userRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  const wrongPassword = new RateLimiter(
    ctx.cluster.store,
    "wrong-password",
    ctx.config.LOGIN_RATE_PER_EMAIL,
    ctx.config.LOGIN_RATE_WINDOW_S * 1000,
  );
  return async (app) => {
    const tags = ["users"];
    app.get("/users", { preHandler: guard.user, schema: { tags, querystring: usersQuery, response: { 200: usersAnswer } } }, (req) =>
      users.listUsers(ctx.db, req.query),
    );
    app.get("/users/:id", { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: userSchema } } }, (req) =>
      users.getUser(ctx.db, req.params.id),
    );
    app.post("/users", { preHandler: guard.admin, schema: { tags, body: userCreateBody, response: { 200: userSchema } } }, (req) =>
      users.createUser(ctx, req.body, sessionUser(req)),
    );
    app.put(
      "/users/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, body: userUpdateBody, response: { 200: userSchema } } },
      async (req, reply) => {
        const actor = sessionUser(req);
        const key = String(actor.id);
        const wait = await wrongPassword.retryAfter(key);
        if (wait > 0) {
          reply.header("retry-after", String(wait));
          throw new AppError("ERR_TOO_MANY_REQUESTS");
        }
        try {
          return await users.updateUser(ctx, actor, req.params.id, req.body);
        } catch (err) {
          // guessing one's current password through a borrowed session is limited like a sign-in
          if (err instanceof AppError && err.code === "ERR_WRONG_PASSWORD") await wrongPassword.hit(key);
          throw err;
        }
      },
    );
    app.delete("/users/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req, reply) => {
      await users.deleteUser(ctx, sessionUser(req), req.params.id);
      return reply.status(200).send({ message: "User deleted" });
    });
  };
}
