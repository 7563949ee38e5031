import { timingSafeEqual } from "node:crypto";
import { healthAnswer, readyAnswer } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.js";
import type { Prometheus } from "./prometheus.js";
import { health, type OpsDeps, readiness } from "./service.js";

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * What load balancers and monitors ask, without signing in: GET /health (alive), GET /ready (can
 * serve; 503 otherwise), GET /metrics/prometheus (behind METRICS_TOKEN when set; in production
 * not served without one).
 */
export function opsRoutes(d: OpsDeps, prometheus: Prometheus): FastifyPluginAsyncZod {
  const { config } = d.ctx;
  return async (app) => {
    // asked every few seconds by load balancers and scrapers: logged only when slow or failed
    const logLevel = "warn";
    app.get("/health", { logLevel, schema: { hide: true, response: { 200: healthAnswer } } }, async () => health(d));

    app.get("/ready", { logLevel, schema: { hide: true, response: { 200: readyAnswer, 503: readyAnswer } } }, async (_req, reply) => {
      const answer = await readiness(d);
      return reply.code(answer.ok ? 200 : 503).send(answer);
    });

    app.get("/metrics/prometheus", { logLevel, schema: { hide: true } }, async (req, reply) => {
      if (config.METRICS_TOKEN) {
        const given = req.headers.authorization ?? "";
        if (!sameSecret(given, `Bearer ${config.METRICS_TOKEN}`)) {
          reply.header("www-authenticate", 'Bearer realm="metrics"');
          throw new AppError("ERR_SESSION_EXPIRED", 401);
        }
      } else if (config.isProduction) throw new AppError("ERR_NOT_FOUND");
      const text = await prometheus.scrape();
      return reply.header("content-type", prometheus.registry.contentType).header("cache-control", "no-store").send(text);
    });
  };
}
