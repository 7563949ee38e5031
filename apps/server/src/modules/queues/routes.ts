import { idParam, queueBody, queueSchema, queueUpdateBody, queuesAnswer } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import * as service from "./service.js";

export function queueRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["queues"];
    app.get("/queue", { preHandler: guard.user, schema: { tags, response: { 200: queuesAnswer } } }, () => service.listQueues(ctx.db));
    app.get("/queue/:id", { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: queueSchema } } }, (req) =>
      service.getQueue(ctx.db, req.params.id),
    );
    app.post("/queue", { preHandler: guard.admin, schema: { tags, body: queueBody, response: { 200: queueSchema } } }, (req) =>
      service.createQueue(ctx, req.body),
    );
    app.put(
      "/queue/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, body: queueUpdateBody, response: { 200: queueSchema } } },
      (req) => service.updateQueue(ctx, req.params.id, req.body),
    );
    app.delete("/queue/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req, reply) => {
      await service.deleteQueue(ctx, req.params.id, sessionUser(req));
      return reply.status(200).send({ message: "Queue deleted" });
    });
  };
}
