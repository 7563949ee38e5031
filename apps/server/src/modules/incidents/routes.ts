import {
  idParam,
  incidentCloseBody,
  incidentCreateBody,
  incidentSchema,
  incidentsAnswer,
  incidentsQuery,
  incidentUpdateBody,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import * as service from "./service.js";

/** Incidents (outage mode): everyone signed in reads them (the banner); admins and supervisors open, change and close them. */
export function incidentRoutes(deps: service.IncidentDeps, guard: Guards): FastifyPluginAsyncZod {
  const { ctx } = deps.conv;
  return async (app) => {
    const tags = ["incidents"];
    app.get(
      "/incidents",
      { preHandler: guard.user, schema: { tags, querystring: incidentsQuery, response: { 200: incidentsAnswer } } },
      (req) => service.listIncidents(ctx.db, req.query.status),
    );
    app.get("/incidents/:id", { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: incidentSchema } } }, (req) =>
      service.getIncident(ctx.db, req.params.id),
    );
    app.post(
      "/incidents",
      { preHandler: guard.supervisor, schema: { tags, body: incidentCreateBody, response: { 200: incidentSchema } } },
      (req) => service.createIncident(ctx, sessionUser(req), req.body),
    );
    app.put(
      "/incidents/:id",
      { preHandler: guard.supervisor, schema: { tags, params: idParam, body: incidentUpdateBody, response: { 200: incidentSchema } } },
      (req) => service.updateIncident(ctx, req.params.id, req.body),
    );
    app.post(
      "/incidents/:id/close",
      { preHandler: guard.supervisor, schema: { tags, params: idParam, body: incidentCloseBody, response: { 200: incidentSchema } } },
      (req) => service.closeIncident(deps, sessionUser(req), req.params.id, req.body),
    );
  };
}
