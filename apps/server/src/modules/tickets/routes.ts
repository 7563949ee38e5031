import {
  idParam,
  idText,
  tagSchema,
  ticketCreateBody,
  ticketSchema,
  ticketsAnswer,
  ticketsQuery,
  ticketTagBody,
  ticketTagsBody,
  ticketUpdateBody,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import type { ConvDeps } from "../outbox/deps.js";
import * as service from "./service.js";

const tagParams = z.object({ id: idText, tagId: idText });

export function ticketRoutes(conv: ConvDeps, guard: Guards): FastifyPluginAsyncZod {
  const { ctx } = conv;
  return async (app) => {
    const tags = ["tickets"];
    app.get("/tickets", { preHandler: guard.user, schema: { tags, querystring: ticketsQuery, response: { 200: ticketsAnswer } } }, (req) =>
      service.listTickets(ctx, sessionUser(req), req.query),
    );
    app.get("/tickets/:id", { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: ticketSchema } } }, (req) =>
      service.getTicket(ctx, sessionUser(req), req.params.id),
    );
    app.post("/tickets", { preHandler: guard.user, schema: { tags, body: ticketCreateBody, response: { 200: ticketSchema } } }, (req) =>
      service.createTicket(conv, sessionUser(req), req.body),
    );
    app.put(
      "/tickets/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, body: ticketUpdateBody, response: { 200: ticketSchema } } },
      (req) => service.updateTicket(conv, sessionUser(req), req.params.id, req.body),
    );
    app.delete("/tickets/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteTicket(ctx, req.params.id, sessionUser(req));
      return { message: "ticket deleted" };
    });

    app.get(
      "/tickets/:id/tags",
      { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: z.array(tagSchema) } } },
      (req) => service.ticketTagsOf(ctx, sessionUser(req), req.params.id),
    );
    app.post(
      "/tickets/:id/tags",
      { preHandler: guard.user, schema: { tags, params: idParam, body: ticketTagBody, response: { 200: ticketSchema } } },
      (req) => service.addTicketTag(ctx, sessionUser(req), req.params.id, req.body.tagId),
    );
    app.put(
      "/tickets/:id/tags",
      { preHandler: guard.user, schema: { tags, params: idParam, body: ticketTagsBody, response: { 200: ticketSchema } } },
      (req) => service.setTicketTags(ctx, sessionUser(req), req.params.id, req.body.tagIds),
    );
    app.delete(
      "/tickets/:id/tags/:tagId",
      { preHandler: guard.user, schema: { tags, params: tagParams, response: { 200: ticketSchema } } },
      (req) => service.removeTicketTag(ctx, sessionUser(req), req.params.id, req.params.tagId),
    );
  };
}
