import { registerOutboxFed } from "../../jobs/outbox-fed.js";
import type { ModuleHost } from "../../module-host.js";
import { followHealth, moveToBackup, outOfStep } from "./health.js";
import { disparoRoutes } from "./routes.js";
import { type DisparoDeps, disparoWork } from "./service.js";

/** The minute's check that every connection's disparos are paused or not as its health says. */
export const HEALTH_SYNC_JOB = "disparos.healthSync";

/**
 * Disparos: one send job per connection, paced; the outbox's outcomes move the rows on (the
 * outbox-fed life cycle, jobs/outbox-fed.ts).
 */
/** What the disparos' jobs, routes and the bots' opt-out step use. */
export function disparoDepsOf(host: Pick<ModuleHost, "conv" | "clock" | "jobs">): DisparoDeps {
  const { conv, clock, jobs } = host;
  return { conv, clock, random: Math.random, wakeRunner: (at) => (at === undefined ? jobs.wake() : jobs.wakeAt(at)) };
}

export function register(host: ModuleHost): void {
  const { ctx, jobs, clock } = host;
  const deps = disparoDepsOf(host);
  const life = registerOutboxFed(
    jobs,
    ctx.events,
    { db: ctx.db, clock, wakeRunner: () => jobs.wake(), orphaned: host.orphanedJobs },
    disparoWork(deps),
  );
  // number health: paused and resumed with the number, moved to its backup (health announces, disparos act)
  ctx.events.on("whatsapp.health", async (p) => {
    if (await followHealth(ctx, p.whatsappId, clock.now())) jobs.wake();
  });
  ctx.events.on("whatsapp.reroute", async (p) => {
    if (await moveToBackup(ctx, p.from, p.to, p.at)) jobs.wake();
  });
  jobs.every(HEALTH_SYNC_JOB, 60_000, async () => {
    for (const id of await outOfStep(ctx)) await followHealth(ctx, id, clock.now());
  });
  host.routes(disparoRoutes(deps, host.guard));
  host.onStart(() => life.start());
}
