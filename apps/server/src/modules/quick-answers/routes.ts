import { idParam, quickAnswerBody, quickAnswerSchema, quickAnswersAnswer, quickAnswersQuery } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.js";
import type { Guards } from "../../http/guards.js";
import * as service from "./service.js";

/** Quick answers are shared by the whole team: every signed-in user reads and edits them (core §2). */
export function quickAnswerRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["quickAnswers"];
    app.get(
      "/quickAnswers",
      { preHandler: guard.user, schema: { tags, querystring: quickAnswersQuery, response: { 200: quickAnswersAnswer } } },
      (req) => service.listQuickAnswers(ctx.db, req.query),
    );
    app.get(
      "/quickAnswers/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: quickAnswerSchema } } },
      (req) => service.getQuickAnswer(ctx.db, req.params.id),
    );
    app.post(
      "/quickAnswers",
      { preHandler: guard.user, schema: { tags, body: quickAnswerBody, response: { 200: quickAnswerSchema } } },
      (req) => service.createQuickAnswer(ctx, req.body),
    );
    app.put(
      "/quickAnswers/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, body: quickAnswerBody.partial(), response: { 200: quickAnswerSchema } } },
      (req) => service.updateQuickAnswer(ctx, req.params.id, req.body),
    );
    app.delete("/quickAnswers/:id", { preHandler: guard.user, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteQuickAnswer(ctx, req.params.id);
      return { message: "Quick Answer deleted" };
    });
  };
}
