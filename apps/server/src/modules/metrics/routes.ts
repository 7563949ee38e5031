import { type Metrics, metricsAnswer, metricsQuery, TOP_AGENTS_LIMIT } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Guards } from "../../http/guards.js";
import type { MetricsCache } from "./service.js";

const DESCRIPTION = `The dashboard's figures, for admins and supervisors (stricter than the original, which served it to anyone: business figures and server details are not public).
Days, weeks (from Monday) and months start at local midnight in the product's time zone (setting \`timezone\`, default America/Sao_Paulo).
- \`today\`, \`week\`, \`month\`, \`total\`: tickets created today, since Monday, since the 1st of the month, ever.
- \`topAtendentes.day|week|month|total\`: per period, the ${TOP_AGENTS_LIMIT} agents with most tickets created in it among the tickets they hold now, as { name, tickets }.
- \`closed\`, \`pending\`: tickets in that status now.
- \`serverMetrics\`: memory (bytes: total, free, used, this process), disk of the data directory (bytes), CPU (model, cores, load averages), OS platform, architecture, uptime in hours, OS release.
Beside the spec's keys, for the period \`from\`–\`to\` (default: the last 7 local days) and optionally one queue (\`queueId\`) and agent (\`userId\`):
- A ticket's cycle starts when it is created or when the customer reopens it by writing to it closed, and ends at its first close after that; a cycle belongs to the period its start falls in.
- \`firstResponseTime\`: from the cycle's first customer message to the first human reply (an agent, or someone on the paired phone; bot texts, greetings and farewells do not count); per agent: who replied; per queue: the ticket's queue then.
- \`resolutionTime\`: from the cycle's start to its close; per agent and queue: the ticket's at the close.
  Both as { median, p90, count } in seconds (percentile_cont; null without samples), overall, per agent and per queue.
- \`ticketsByHour\`: tickets created in the period, [weekday 0 = Monday … 6 = Sunday][local hour 0–23].
- \`now.waiting\`: pending tickets per queue with the longest wait (since each last became pending); \`now.agents\`: agents signed in right now (a live socket) with their open tickets.
Answers come from a cache of a few seconds, dropped by every ticket change and agent reply.`;

/** GET /metrics: the dashboard. */
export function metricsRoutes(cache: MetricsCache, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/metrics",
      {
        preHandler: guard.supervisor,
        schema: { tags: ["dashboard"], description: DESCRIPTION, querystring: metricsQuery, response: { 200: metricsAnswer } },
      },
      // the cache holds the answer already checked against metricsAnswer and serialized: Fastify sends a string as it is
      async (req, reply) => reply.type("application/json; charset=utf-8").send((await cache.get(req.query)) as unknown as Metrics),
    );
  };
}
