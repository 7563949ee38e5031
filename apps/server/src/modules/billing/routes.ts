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
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type Guards, sessionUser } from "../../http/guards.js";
import { idempotencyKeyOf } from "../outbox/idempotency.js";
import * as service from "./service.js";

/**
 * The billing system from the chat: the customer panel (who may open the ticket), sending a 2ª via
 * or a PIX (an `Idempotency-Key` makes a retried click safe) and a confirmed unlock (who may write
 * in it), and the settings' 'Testar conexão' (admins).
 */
export function billingRoutes(deps: service.BillingDeps, guard: Guards): FastifyPluginAsyncZod {
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
      { preHandler: guard.admin, schema: { tags, body: billingTestBody, response: { 200: billingTestAnswer } } },
      (req) => service.testConnection(deps, req.body ?? {}),
    );
  };
}
