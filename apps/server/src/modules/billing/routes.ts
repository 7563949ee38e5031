import {
  billingCustomerAnswer,
  billingCustomerQuery,
  billingSendInvoiceBody,
  billingSentAnswer,
  billingTestAnswer,
  billingTestBody,
  billingTicketParams,
  billingUnlockAnswer,
  billingUnlockBody,
  SETTINGS_TOKEN_HEADER,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type Guards, sessionUser } from "../../http/guards.js";
import { idempotencyKeyOf } from "../outbox/idempotency.js";
import type { SettingsGate } from "../settings/gate.js";
import * as service from "./service.js";

/**
 * The billing system from the chat: the customer panel (who may open the ticket), sending a 2ª via
 * or a PIX (an `Idempotency-Key` makes a retried click safe) and a confirmed unlock (who may write
 * in it), and the settings' 'Testar conexão' (admins, behind the settings gate like the settings it tests).
 */
export function billingRoutes(deps: service.BillingDeps, guard: Guards, gate: SettingsGate): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["billing"];
    app.get(
      "/billing/:ticketId/customer",
      {
        preHandler: guard.user,
        schema: {
          tags,
          params: billingTicketParams,
          querystring: billingCustomerQuery.omit({ ticketId: true }),
          response: { 200: billingCustomerAnswer },
        },
      },
      (req) => service.customerPanel(deps, sessionUser(req), { ticketId: req.params.ticketId, ...req.query }),
    );
    app.post(
      "/billing/:ticketId/send-invoice",
      {
        preHandler: guard.user,
        schema: { tags, params: billingTicketParams, body: billingSendInvoiceBody, response: { 200: billingSentAnswer } },
      },
      (req) =>
        service.sendInvoice(
          deps,
          sessionUser(req),
          req.params.ticketId,
          req.body,
          "invoice",
          idempotencyKeyOf(req.headers["idempotency-key"]),
        ),
    );
    app.post(
      "/billing/:ticketId/send-pix",
      {
        preHandler: guard.user,
        schema: { tags, params: billingTicketParams, body: billingSendInvoiceBody, response: { 200: billingSentAnswer } },
      },
      (req) =>
        service.sendInvoice(deps, sessionUser(req), req.params.ticketId, req.body, "pix", idempotencyKeyOf(req.headers["idempotency-key"])),
    );
    app.post(
      "/billing/:ticketId/unlock",
      {
        preHandler: guard.user,
        schema: { tags, params: billingTicketParams, body: billingUnlockBody, response: { 200: billingUnlockAnswer } },
      },
      (req) => service.unlockFromPanel(deps, sessionUser(req), req.params.ticketId, req.body),
    );
    app.post(
      "/billing/test",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "'Testar conexão': the values typed in the form (blank ones: the saved ones). The saved token is only ever sent to the saved URL: with another URL the token must be typed (else ok:false, nothing sent). While a settings password is set, needs the X-Settings-Token header of POST /settings/unlock (else 403 ERR_SETTINGS_LOCKED).",
          headers: z.object({ [SETTINGS_TOKEN_HEADER]: z.string().max(200).optional() }).passthrough(),
          body: billingTestBody,
          response: { 200: billingTestAnswer },
        },
      },
      async (req) => {
        await gate.check(sessionUser(req), req.headers[SETTINGS_TOKEN_HEADER]);
        return service.testConnection(deps, req.body ?? {});
      },
    );
  };
}
