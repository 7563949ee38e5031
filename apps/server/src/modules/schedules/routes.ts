import { idParam, scheduleCreateBody, scheduleSchema, schedulesQuery } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import { idempotencyKeyOf } from "../outbox/idempotency.js";
import * as service from "./service.js";

/** The Agendar dialog's and the Agendamentos screen's calls (document 001 §7). */
export function scheduleRoutes(deps: service.ScheduleDeps, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["schedules"];
    app.get(
      "/schedules",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description:
            "The ticket's schedules (`ticketId`, the dialog) or, for the screen, by `status` and a day range: `from` T00:00:00 and `to` T23:59:59 " +
            "in the product's time zone (the end second included). Only schedules of tickets the user may see; admins see all.",
          querystring: schedulesQuery,
          response: { 200: z.array(scheduleSchema) },
        },
      },
      (req) => service.listSchedules(deps.conv.ctx.db, sessionUser(req), req.query),
    );
    app.post(
      "/schedules",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description:
            "Schedules a message on a ticket the user may open. `when`: local `YYYY-MM-DDTHH:mm:ss` in the product's time zone, or with an offset; " +
            "at most a minute in the past. Sent through the ticket's connection, signed with the author's name. `cancelOnReply` (default false, as the original client " +
            "never sends it; the dialog sends true): canceled if the customer writes first. An `Idempotency-Key` makes a retry answer the first schedule (24 h, per user).",
          headers: z.object({ "idempotency-key": z.string().max(200).optional() }).passthrough(),
          body: scheduleCreateBody,
          response: { 200: scheduleSchema },
        },
      },
      (req) =>
        service.createSchedule(deps, sessionUser(req), { ...req.body, idempotencyKey: idempotencyKeyOf(req.headers["idempotency-key"]) }),
    );
    app.delete(
      "/schedules/:id",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description: "A pending schedule is canceled (kept, never sent); a sent, failed or canceled one is removed.",
          params: idParam,
          response: { 200: z.object({ removed: z.boolean() }) },
        },
      },
      (req) => service.deleteSchedule(deps, sessionUser(req), req.params.id),
    );
  };
}
