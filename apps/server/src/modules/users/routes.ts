import { idParam, userCreateBody, userSchema, userUpdateBody, usersAnswer, usersQuery } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import * as users from "./service.js";

export function userRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["users"];
    app.get("/users", { preHandler: guard.user, schema: { tags, querystring: usersQuery, response: { 200: usersAnswer } } }, (req) =>
      users.listUsers(ctx.db, req.query),
    );
    app.get("/users/:id", { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: userSchema } } }, (req) =>
      users.getUser(ctx.db, req.params.id),
    );
    app.post("/users", { preHandler: guard.admin, schema: { tags, body: userCreateBody, response: { 200: userSchema } } }, (req) =>
      users.createUser(ctx, req.body),
    );
    app.put(
      "/users/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, body: userUpdateBody, response: { 200: userSchema } } },
      (req) => users.updateUser(ctx, sessionUser(req), req.params.id, req.body),
    );
    app.delete("/users/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req, reply) => {
      await users.deleteUser(ctx, sessionUser(req), req.params.id);
      return reply.status(200).send({ message: "User deleted" });
    });
  };
}
