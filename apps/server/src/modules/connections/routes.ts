import {
  idParam,
  typebotSettingsAnswer,
  typebotSettingsBody,
  whatsappBody,
  whatsappSchema,
  whatsappsAnswer,
  whatsappTokenAnswer,
  whatsappUpdateBody,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import * as service from "./service.js";

/** /whatsapp CRUD and /whatsappsession (admin writes), /typebot/settings (admin). */
export function connectionRoutes(ctx: AppContext, channels: ChannelManager, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["connections"];
    // everyone signed in may list connections (badge, new-ticket modal); the API token is answered to nobody
    // agents and supervisors read the connections too (their names, statuses, queues), not the Cloud webhook's verify token
    app.get("/whatsapp", { preHandler: guard.user, schema: { tags, response: { 200: whatsappsAnswer } } }, async (req) => {
      const list = await service.listWhatsapps(ctx.db);
      return sessionUser(req).profile === "admin" ? list : list.map(service.forNonAdmins);
    });
    app.get(
      "/whatsapp/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: whatsappSchema } } },
      async (req) => {
        const one = await service.getWhatsapp(ctx.db, req.params.id);
        return sessionUser(req).profile === "admin" ? one : service.forNonAdmins(one);
      },
    );
    app.post(
      "/whatsapp/:id/token",
      { preHandler: guard.admin, schema: { tags, params: idParam, response: { 200: whatsappTokenAnswer } } },
      async (req) => ({ token: await service.regenerateToken(ctx, req.params.id) }),
    );
    app.post("/whatsapp", { preHandler: guard.admin, schema: { tags, body: whatsappBody, response: { 200: whatsappSchema } } }, (req) =>
      service.createWhatsapp(ctx, channels, req.body),
    );
    app.put(
      "/whatsapp/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, body: whatsappUpdateBody, response: { 200: whatsappSchema } } },
      (req) => service.updateWhatsapp(ctx, channels, req.params.id, req.body),
    );
    app.delete("/whatsapp/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteWhatsapp(ctx, channels, req.params.id);
      return { message: "Whatsapp deleted." };
    });

    app.post("/whatsappsession/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.startSession(ctx, channels, req.params.id);
      return { message: "Starting session." };
    });
    app.put("/whatsappsession/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.requestNewQr(ctx, channels, req.params.id);
      return { message: "Starting session." };
    });
    app.delete("/whatsappsession/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.disconnectSession(ctx, channels, req.params.id);
      return { message: "Session disconnected." };
    });

    app.get(
      "/typebot/settings/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, response: { 200: typebotSettingsAnswer } } },
      (req) => service.getTypebot(ctx.db, req.params.id),
    );
    app.put(
      "/typebot/settings/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, body: typebotSettingsBody, response: { 200: typebotSettingsAnswer } } },
      (req) => service.updateTypebot(ctx, req.params.id, req.body),
    );
  };
}
