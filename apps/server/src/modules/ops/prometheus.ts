import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import { PROCESS_ID, sessionOwners } from "./ownership.js";

/**
 * GET /metrics/prometheus (prom-client): this process's HTTP requests (a histogram by method, route
 * pattern and status), the shared queues read from the database at each scrape (outbox queued and
 * failed and the age of its oldest waiting row, the inbound journal's pending events, jobs by
 * state, connections by status and owner), this process's sockets, and Node's own figures
 * (event-loop lag, memory, CPU). Every series carries `process="<host>:<pid>"`.
 */
export interface Prometheus {
  registry: Registry;
  /** Reads the database figures into their gauges; answers the exposition text. */
  scrape(): Promise<string>;
}

interface Figures {
  outbox_queued: number;
  outbox_failed: number;
  outbox_oldest_s: number;
  journal_pending: number;
  jobs: Record<string, number> | null;
  sessions: { id: number; status: string }[] | null;
}

const JOB_STATES = ["queued", "running", "done", "dead"] as const;

export function createPrometheus(o: { ctx: AppContext; channels: ChannelManager; socketCount: () => number }): Prometheus {
  const registry = new Registry();
  registry.setDefaultLabels({ process: PROCESS_ID });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  new Histogram({
    name: "balcao_http_request_duration_seconds",
    help: "HTTP requests by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  const outboxQueued = gauge("balcao_outbox_queued", "Messages waiting in the outbox");
  const outboxFailed = gauge("balcao_outbox_failed", "Messages that could not be sent (waiting for 'Reenviar')");
  const outboxOldest = gauge("balcao_outbox_oldest_age_seconds", "Age of the oldest message waiting in the outbox (0: none)");
  const journalPending = gauge("balcao_journal_pending", "Inbound events journaled and not handled yet");
  const jobs = gauge("balcao_jobs", "Jobs by state", ["state"]);
  const sessions = gauge("balcao_sessions", "WhatsApp connections by status and owning process", ["status", "owner"]);
  const sockets = gauge("balcao_sockets", "Sockets connected to this process");

  return {
    registry,
    async scrape() {
      const [f] = await o.ctx.database.query<Figures>(`
        select (select count(*)::int from outbox where failed_at is null) as outbox_queued,
               (select count(*)::int from outbox where failed_at is not null) as outbox_failed,
               (select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 from outbox where failed_at is null) as outbox_oldest_s,
               (select count(*)::int from inbound_events where state = 'pending') as journal_pending,
               (select json_object_agg(state, n) from (select state, count(*)::int as n from jobs group by state) j) as jobs,
               (select json_agg(json_build_object('id', id, 'status', status)) from whatsapps) as sessions`);
      outboxQueued.set(Number(f.outbox_queued));
      outboxFailed.set(Number(f.outbox_failed));
      outboxOldest.set(Math.max(0, Number(f.outbox_oldest_s)));
      journalPending.set(Number(f.journal_pending));
      jobs.reset();
      for (const s of JOB_STATES) jobs.set({ state: s }, Number(f.jobs?.[s] ?? 0));
      sessions.reset();
      const owners = sessionOwners(o.channels);
      for (const s of f.sessions ?? []) sessions.inc({ status: s.status, owner: owners.get(s.id) ?? "none" });
      sockets.set(o.socketCount());
      return registry.metrics();
    },
  };
}

/** Times every request into the histogram (a hook on the root app, so it sees every route). */
export function registerHttpMetrics(app: FastifyInstance, prometheus: Prometheus): void {
  const histogram = prometheus.registry.getSingleMetric("balcao_http_request_duration_seconds") as Histogram<"method" | "route" | "status">;
  app.addHook("onResponse", (req, reply, done) => {
    histogram.observe(
      { method: req.method, route: req.routeOptions.url ?? "unmatched", status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
