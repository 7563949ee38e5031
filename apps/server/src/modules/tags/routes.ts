import { idParam, tagBody, tagSchema } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.js";
import type { Guards } from "../../http/guards.js";
import * as service from "./service.js";

export function tagRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["tags"];
    app.get("/tags", { preHandler: guard.user, schema: { tags, response: { 200: z.array(tagSchema) } } }, () => service.listTags(ctx.db));
    app.post("/tags", { preHandler: guard.admin, schema: { tags, body: tagBody, response: { 200: tagSchema } } }, (req) =>
      service.createTag(ctx.db, req.body),
    );
    app.put(
      "/tags/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, body: tagBody.partial(), response: { 200: tagSchema } } },
      (req) => service.updateTag(ctx.db, req.params.id, req.body),
    );
    app.delete("/tags/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteTag(ctx.db, req.params.id);
      return { message: "Tag deleted" };
    });
  };
}
