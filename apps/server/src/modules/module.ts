import type { SQL } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ChannelManager } from "../channels/manager.js";
import type { AppContext } from "../context.js";
import type { Guards } from "../http/guards.js";
import type { JobRunner } from "../jobs/runner.js";
import type { Clock } from "../lib/pace.js";
import type { ConvDeps } from "./outbox/deps.js";

/**
 * What app.ts hands each module's `register(host, …)` (its `module.ts`): a module registers its
 * own listeners (`host.ctx.events.on`), jobs (`host.jobs.register` / `every`), routes
 * (`host.routes`) and start-up work (`host.onStart`), and answers what other modules need of it.
 * app.ts then reads as the list of modules, in order.
 */
export interface ModuleHost {
  ctx: AppContext;
  conv: ConvDeps;
  channels: ChannelManager;
  jobs: JobRunner;
  /** the clock of the outbox, the job runner and the modules' timing rules (tests pass a fake one) */
  clock: Clock;
  guard: Guards;
  /** route plugins, registered after every module has registered (the guards run first), in the order given */
  routes(...plugins: FastifyPluginAsync[]): void;
  /**
   * Several processes: the condition, on a `jobs` row, of a run start-up may queue again (its
   * process is gone); unset with one process (every run left 'running' was its own).
   */
  orphanedJobs?: SQL;
  /** work started once the app is built (sessions, senders, jobs first: see app.ts), in the order given */
  onStart(fn: () => Promise<void>): void;
}
