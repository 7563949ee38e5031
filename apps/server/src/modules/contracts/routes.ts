import {
  contractCreateBody,
  contractItemSchema,
  contractsAnswer,
  contractsQuery,
  contractTemplateBody,
  contractTemplateSchema,
  idParam,
  signingAcceptBody,
  signingAnswer,
  signingCpfBody,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import { inlinePageCsp } from "../../http/security.js";
import { AppError } from "../../lib/errors.js";
import { publicBaseUrl } from "../settings/public-url.js";
import { getSettingValue } from "../settings/service.js";
import * as service from "./service.js";
import * as signing from "./signing.js";
import * as templates from "./templates.js";
import { SIGNING_CPF_FIRST, SIGNING_ERROR_PAGES, SIGNING_SCRIPT_PAGE, signingMessagePage, signingPage } from "./signing-page.js";

// any text: a malformed token gets the same page as an unknown one
const tokenParam = z.object({ token: z.string() });
const fileQuery = z.object({ original: z.enum(["0", "1"]).optional(), download: z.enum(["0", "1"]).optional() });

/** The PDF of a contract: our own generated file, shown inline (framed only by our pages). */
const PDF_HEADERS = {
  "content-type": "application/pdf",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'self'",
  "x-frame-options": "SAMEORIGIN",
  "cache-control": "private, no-store",
};

/**
 * Contracts (document 001 §7 and issue 20): the lists and files for signed-in users, templates
 * (admins write), sending from a ticket; and the public signing page under /assinar/{token}, where
 * the link's token is the only credential.
 */
export function contractRoutes(deps: service.ContractDeps, guard: Guards): FastifyPluginAsyncZod {
  const { ctx } = deps.conv;
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers["user-agent"] ?? "").slice(0, 500) });
  return async (app) => {
    const tags = ["contratos"];
    app.get(
      "/api/contratos",
      { preHandler: guard.user, schema: { tags, querystring: contractsQuery, response: { 200: contractsAnswer } } },
      (req) => service.listContracts(ctx, sessionUser(req), req.query),
    );
    app.post(
      "/api/contratos",
      { preHandler: guard.user, schema: { tags, body: contractCreateBody, response: { 200: contractItemSchema } } },
      async (req) => {
        // urlContrato (the contracts' own address, document 001), else the public address (publicUrl, PUBLIC_URL, the request's)
        const configured = (await getSettingValue(ctx.db, "urlContrato")).trim();
        const linkBase = /^https?:\/\/[^\s/]+/i.test(configured)
          ? configured
          : (await publicBaseUrl(ctx, { protocol: req.protocol, host: req.host })).url;
        return service.createContract(deps, sessionUser(req), req.body, linkBase);
      },
    );
    app.get(
      "/api/contratos/modelos",
      { preHandler: guard.user, schema: { tags, response: { 200: z.array(contractTemplateSchema) } } },
      () => templates.listTemplates(ctx.db),
    );
    app.post(
      "/api/contratos/modelos",
      { preHandler: guard.admin, schema: { tags, body: contractTemplateBody, response: { 200: contractTemplateSchema } } },
      (req) => templates.createTemplate(ctx, req.body),
    );
    app.put(
      "/api/contratos/modelos/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, body: contractTemplateBody, response: { 200: contractTemplateSchema } } },
      (req) => templates.updateTemplate(ctx, Number(req.params.id), req.body),
    );
    app.delete("/api/contratos/modelos/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await templates.deleteTemplate(ctx, Number(req.params.id));
      return { ok: true };
    });
    // the file's path first: the OpenAPI document (and the permissions table) lists it before the contract's own
    app.get(
      "/api/contratos/:id/arquivo",
      {
        preHandler: guard.user,
        schema: {
          tags,
          params: idParam,
          querystring: fileQuery,
          description: "The PDF: the signed one once signed (original=1: the one sent).",
        },
      },
      async (req, reply) => {
        const f = await service.contractFile(deps, sessionUser(req), Number(req.params.id), req.query.original === "1");
        return reply
          .headers(PDF_HEADERS)
          .header("content-disposition", `${req.query.download === "1" ? "attachment" : "inline"}; filename="${f.name}"`)
          .send(f.data);
      },
    );
    app.get(
      "/api/contratos/:id",
      { preHandler: guard.user, schema: { tags, params: idParam, response: { 200: contractItemSchema } } },
      (req) => service.getContract(ctx, sessionUser(req), Number(req.params.id)),
    );
    app.delete("/api/contratos/:id", { preHandler: guard.user, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteContract(deps, sessionUser(req), Number(req.params.id));
      return { ok: true };
    });

    // ------------------------------------------------------------ public signing (the token is the credential)
    const stags = ["assinatura"];
    const html = (reply: FastifyReply, status: number, page: string) =>
      reply
        .status(status)
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header("referrer-policy", "no-referrer")
        .header("content-security-policy", inlinePageCsp(SIGNING_SCRIPT_PAGE, ["frame-src 'self' blob:"]))
        .send(page);
    /** Every answer the customer's browser opens is a page in Portuguese, with the status that says why. */
    const customerPage = (reply: FastifyReply, err: unknown, token: string) => {
      if (!(err instanceof AppError)) throw err;
      const page = SIGNING_ERROR_PAGES[err.code];
      if (!page) throw err;
      return html(reply, page.status, signingMessagePage(page.title, page.text, token));
    };
    app.get(
      "/assinar/:token",
      {
        schema: {
          tags: stags,
          params: tokenParam,
          description: "The signing page (HTML); a signed contract's copy stays there while the link lives.",
        },
      },
      async (req, reply) => {
        try {
          const doc = await signing.openSigning(deps, req.params.token, meta(req));
          return html(reply, 200, signingPage({ ...doc, token: req.params.token }));
        } catch (err) {
          return customerPage(reply, err, req.params.token);
        }
      },
    );
    app.get(
      "/assinar/:token/documento.pdf",
      {
        schema: {
          tags: stags,
          params: tokenParam,
          description: "The document is shown only after the CPF check (POST …/documento): this answers a page that says so.",
        },
      },
      async (req, reply) => {
        try {
          await signing.signingState(deps, req.params.token);
          const { title, text } = SIGNING_CPF_FIRST;
          return html(reply, 403, signingMessagePage(title, text, req.params.token));
        } catch (err) {
          return customerPage(reply, err, req.params.token);
        }
      },
    );
    app.post(
      "/assinar/:token/documento",
      {
        schema: {
          tags: stags,
          params: tokenParam,
          body: signingCpfBody,
          description: "The PDF after the CPF check: the document to sign, or the signed copy once signed.",
        },
      },
      async (req, reply) => {
        const r = await signing.signingDocument(deps, req.params.token, req.body.cpf5, meta(req));
        return reply
          .headers(PDF_HEADERS)
          .header("content-disposition", `inline; filename="${r.signed ? "contrato-assinado" : "contrato"}.pdf"`)
          .header("referrer-policy", "no-referrer")
          .send(r.data);
      },
    );
    app.post(
      "/assinar/:token/cpf",
      { schema: { tags: stags, params: tokenParam, body: signingCpfBody, response: { 200: signingAnswer } } },
      async (req) => {
        const r = await signing.checkCpf(deps, req.params.token, req.body.cpf5, meta(req), { signed: true });
        return { ok: true, restantes: r.restantes, texto: r.texto };
      },
    );
    app.post(
      "/assinar/:token/aceite",
      { schema: { tags: stags, params: tokenParam, body: signingAcceptBody, response: { 200: signingAnswer } } },
      async (req) => {
        const r = await signing.acceptSigning(deps, req.params.token, req.body, meta(req));
        return { ok: true, assinadoSha256: r.signedSha256 };
      },
    );
  };
}
