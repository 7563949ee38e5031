import { registerOutboxFed } from "../../jobs/outbox-fed.js";
import type { ModuleHost } from "../module.js";
import { disparoRoutes } from "./routes.js";
import { type DisparoDeps, disparoWork } from "./service.js";

/**
 * Disparos: one send job per connection, paced; the outbox's outcomes move the rows on (the
 * outbox-fed life cycle, jobs/outbox-fed.ts). Answers its deps for the bots' opt-out step.
 */
export function register(host: ModuleHost): DisparoDeps {
  const { ctx, conv, jobs, clock } = host;
  const deps: DisparoDeps = { conv, clock, random: Math.random, wakeRunner: (at) => (at === undefined ? jobs.wake() : jobs.wakeAt(at)) };
  const life = registerOutboxFed(
    jobs,
    ctx.events,
    { db: ctx.db, clock, wakeRunner: () => jobs.wake(), orphaned: host.orphanedJobs },
    disparoWork(deps),
  );
  host.routes(disparoRoutes(deps, host.guard));
  host.onStart(() => life.start());
  return deps;
}
