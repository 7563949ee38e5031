import { auditAnswer, auditQuery } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.js";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import * as service from "./service.js";

/** The audit log's two reads (admins). Nothing here writes: entries come from the services that act. */
export function auditRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["audit"];
    app.get(
      "/audit",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "Who did what, newest first, 50 a page: filter by `action`, `userId` and a `from`/`to` range (ISO instants or YYYY-MM-DD days). " +
            "Append-only: no route changes or deletes an entry; entries older than the `auditRetentionDays` setting are purged daily.",
          querystring: auditQuery,
          response: { 200: auditAnswer },
        },
      },
      (req) => service.listAudit(ctx.db, req.query),
    );
    app.get(
      "/audit/export",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "The filtered entries as CSV (UTF-8 with BOM; cells a spreadsheet would run as formulas start with '). The export is itself audited.",
          querystring: auditQuery,
        },
      },
      async (req, reply) => {
        const csv = await service.exportAuditCsv(ctx.db, sessionUser(req), req.query);
        reply.header("content-type", "text/csv; charset=utf-8");
        reply.header("content-disposition", 'attachment; filename="auditoria.csv"');
        return reply.send(csv);
      },
    );
  };
}
