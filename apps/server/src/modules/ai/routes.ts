import {
  aiCallsAnswer,
  aiCallsQuery,
  aiSuggestionsAnswer,
  aiSuggestionsBody,
  aiSummaryAnswer,
  aiSummaryBody,
  aiTestAnswer,
  aiTestBody,
  aiTicketParams,
  SETTINGS_TOKEN_HEADER,
} from "@balcao/contract";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type Guards, sessionUser } from "../../http/guards.js";
import type { Clock } from "../../lib/pace.js";
import { SettingsGate } from "../settings/gate.js";
import { AiError } from "./client.js";
import * as service from "./service.js";

const ERRORS =
  " Who may read the ticket may ask (else 403). AI off: 404 ERR_AI_DISABLED and nothing is sent. Over 20 a minute per user, or the AI server's 429: 429 ERR_AI_RATE_LIMITED with Retry-After. The AI server's 401: 502 ERR_AI_UNAUTHORIZED; no answer in 20 s: 504 ERR_AI_TIMEOUT; down: 503 ERR_AI_UNAVAILABLE; a malformed answer: 502 ERR_AI_BAD_ANSWER.";

/** Sets Retry-After on a 429 (ours or the AI server's) and passes the error on. */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AiError && err.code === "ERR_AI_RATE_LIMITED") reply.header("retry-after", String(err.retryAfterS ?? 60));
    throw err;
  }
}

export function aiRoutes(deps: service.AiDeps, guard: Guards, clock: Clock): FastifyPluginAsyncZod {
  const ctx = deps.conv.ctx;
  const gate = new SettingsGate(ctx, clock);
  return async (app) => {
    const tags = ["ai"];
    app.post(
      "/tickets/:ticketId/ai/suggestions",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description: `'Sugerir resposta': three replies in the agent's language, grounded in the ticket's recent messages, its queue, matching quick answers and the billing panel; nothing is sent.${ERRORS}`,
          params: aiTicketParams,
          body: aiSuggestionsBody,
          response: { 200: aiSuggestionsAnswer },
        },
      },
      (req, reply) => withRetryAfter(reply, () => service.suggestions(deps, sessionUser(req), req.params.ticketId, req.body?.language)),
    );
    app.post(
      "/tickets/:ticketId/ai/summary",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description: `'Resumo': who the customer is, what they asked, what was done, what is pending.${ERRORS}`,
          params: aiTicketParams,
          body: aiSummaryBody,
          response: { 200: aiSummaryAnswer },
        },
      },
      (req, reply) => withRetryAfter(reply, () => service.summary(deps, sessionUser(req), req.params.ticketId, req.body?.language)),
    );
    app.post(
      "/ai/test",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "'Testar' in the settings: GET {baseUrl}/models with the typed values (blank: the saved ones; the saved key goes only to the saved address). While a settings password is set, needs X-Settings-Token (else 403 ERR_SETTINGS_LOCKED).",
          headers: z.object({ [SETTINGS_TOKEN_HEADER]: z.string().max(200).optional() }).passthrough(),
          body: aiTestBody,
          response: { 200: aiTestAnswer },
        },
      },
      async (req) => {
        const user = sessionUser(req);
        await gate.check(user, req.headers[SETTINGS_TOKEN_HEADER]);
        return service.testConnection(ctx, deps.timeoutMs, user, req.body ?? {});
      },
    );
    app.get(
      "/ai/calls",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "Every AI call, newest first: who, which ticket, which kind, characters (audio: bytes) sent, latency, status. Never the content.",
          querystring: aiCallsQuery,
          response: { 200: aiCallsAnswer },
        },
      },
      (req) => service.listCalls(ctx.db, req.query),
    );
  };
}
