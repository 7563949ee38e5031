import { connectionHealthSchema, idParam } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Guards } from "../../http/guards.js";
import type { AppContext } from "../../context.js";
import * as service from "./service.js";

/** What the routes need (modules/health/module.ts builds it). */
export interface HealthDeps {
  ctx: AppContext;
  resume(whatsappId: number): ReturnType<typeof service.resumeNumber>;
}

/** GET /whatsapp/:id/health (admins: the panel on the connection card), POST /whatsapp/:id/health/resume ('Retomar envios'). */
export function healthRoutes(deps: HealthDeps, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["connections"];
    app.get(
      "/whatsapp/:id/health",
      { preHandler: guard.admin, schema: { tags, params: idParam, response: { 200: connectionHealthSchema } } },
      (req) => service.getHealth(deps.ctx.db, req.params.id, Date.now()),
    );
    app.post(
      "/whatsapp/:id/health/resume",
      { preHandler: guard.admin, schema: { tags, params: idParam, response: { 200: connectionHealthSchema } } },
      (req) => deps.resume(req.params.id),
    );
  };
}
