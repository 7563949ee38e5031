import { registerOutboxFed } from "../../jobs/outbox-fed.js";
import type { ModuleHost } from "../module.js";
import { scheduleRoutes } from "./routes.js";
import { cancelOnCustomerReply, type ScheduleDeps, scheduleWork } from "./service.js";

/**
 * Schedules: one send job per schedule at its time (the outbox-fed life cycle); the outbox's
 * outcomes and the customer's replies (cancel-on-reply) move them on.
 */
export function register(host: ModuleHost): void {
  const { ctx, conv, jobs, clock } = host;
  const deps: ScheduleDeps = { conv, clock, wakeRunner: () => jobs.wake() };
  const life = registerOutboxFed(
    jobs,
    ctx.events,
    { db: ctx.db, clock, wakeRunner: () => jobs.wake(), orphaned: host.orphanedJobs },
    scheduleWork(deps),
  );
  ctx.events.on("message.created", (p) => cancelOnCustomerReply(deps, p.message, p.ticket));
  host.routes(scheduleRoutes(deps, host.guard));
  host.onStart(() => life.start());
}
