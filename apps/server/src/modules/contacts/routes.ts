import {
  contactAuditAnswer,
  contactBody,
  contactSchema,
  contactUpdateBody,
  contactsAnswer,
  contactsQuery,
  idParam,
  importAnswer,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type Guards, sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import { acceptText, decodeTextUpload, readUpload } from "../../lib/uploads.js";
import type { ConvDeps } from "../outbox/deps.js";
import * as service from "./service.js";
import { importFromPhone } from "./whatsapp.js";

const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

const phoneImportBody = z.object({ whatsappId: z.coerce.number().int().positive().optional() }).nullish();

export function contactRoutes(conv: ConvDeps, guard: Guards): FastifyPluginAsyncZod {
  const ctx = conv.ctx;
  return async (app) => {
    const tags = ["contacts"];
    app.get(
      "/contacts",
      { preHandler: guard.user, schema: { tags, querystring: contactsQuery, response: { 200: contactsAnswer } } },
      (req) => service.listContacts(ctx.db, sessionUser(req), req.query),
    );
    app.get("/contacts/:id", { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: contactSchema } } }, (req) =>
      service.contactFor(ctx.db, sessionUser(req), req.params.id),
    );
    app.get(
      "/contacts/:id/audit",
      { preHandler: guard.supervisor, schema: { tags, params: idParam, response: { 200: contactAuditAnswer } } },
      async (req) => {
        await service.getContact(ctx.db, req.params.id);
        return service.contactAudit(ctx.db, req.params.id);
      },
    );
    app.post("/contacts", { preHandler: guard.user, schema: { tags, body: contactBody, response: { 200: contactSchema } } }, (req) =>
      service.createContact(ctx, req.body),
    );
    app.post("/contact", { preHandler: guard.user, schema: { tags, body: contactBody, response: { 200: contactSchema } } }, (req) =>
      service.getOrCreateContact(ctx, sessionUser(req), req.body),
    );
    app.put(
      "/contacts/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, body: contactUpdateBody, response: { 200: contactSchema } } },
      (req) => service.updateContact(ctx, sessionUser(req), req.params.id, req.body),
    );
    // registered before /contacts/:id so "all" is not read as an id
    app.delete("/contacts/all", { preHandler: guard.admin, schema: { tags } }, async () => {
      const deleted = await service.deleteAllContacts(ctx);
      return { message: "Contacts deleted", deleted };
    });
    app.delete("/contacts/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteContact(ctx, req.params.id, sessionUser(req));
      return { message: "Contact deleted" };
    });
    app.post(
      "/contacts/import",
      {
        preHandler: guard.supervisor,
        schema: {
          tags,
          description:
            "A CSV file (multipart `file`) imports its rows. Without a file (no body, or JSON `{ whatsappId }`) imports the contacts the " +
            "connection's phone knows (the default connection unless `whatsappId` is given). Known numbers are skipped, never overwritten.",
          consumes: ["multipart/form-data", "application/json"],
          response: { 200: importAnswer },
        },
      },
      async (req, reply) => {
        if (!req.isMultipart()) {
          const body = phoneImportBody.parse(req.body ?? undefined);
          const query = phoneImportBody.parse(req.query ?? undefined);
          return importFromPhone(conv, body?.whatsappId ?? query?.whatsappId);
        }
        const upload = await ctx.uploads.receive(req, reply, sessionUser(req).id, {
          maxFileBytes: IMPORT_MAX_BYTES,
          maxFiles: 1,
          accept: acceptText,
        });
        try {
          const file = upload.files[0];
          if (!file) throw new AppError("ERR_VALIDATION", 400, { file: ["Required"] });
          return await service.importContacts(ctx, await decodeTextUpload(await readUpload(file)));
        } finally {
          await upload.cleanup();
        }
      },
    );
  };
}
