import { contactEraseAnswer, idParam } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import * as service from "./service.js";

/** LGPD: a contact's data as one ZIP, and its erasure (admins). */
export function lgpdRoutes(deps: service.LgpdDeps, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["contacts"];
    app.get(
      "/contacts/:id/export",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "Everything Balcão holds on the contact (LGPD art. 18 II) as application/zip: a JSON per kind (contact, tickets, messages, schedules, " +
            "disparos, contracts, billing links, audit entries about it), the media under media/, contract PDFs under contracts/. Internal notes are left out. Audited.",
          params: idParam,
        },
      },
      async (req, reply) => {
        const out = await service.exportContact(deps, sessionUser(req), req.params.id);
        reply.header("content-type", "application/zip");
        reply.header("content-disposition", `attachment; filename="${out.fileName}"`);
        return reply.send(out.zip);
      },
    );
    app.post(
      "/contacts/:id/erase",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "Erases the contact's personal data (LGPD art. 18 VI): name, number, e-mail, extra info, every message's text and file, schedules, " +
            "disparo rows, unsigned contracts, billing links. Tickets and message rows stay (the counts); signed contracts are kept as the law requires " +
            "(`keptSignedContracts`). Audited. Cannot be undone.",
          params: idParam,
          response: { 200: contactEraseAnswer },
        },
      },
      (req) => service.eraseContact(deps, sessionUser(req), req.params.id),
    );
  };
}
