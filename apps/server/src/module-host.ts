import type { SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { ChannelManager } from "./channels/manager.js";
import type { SimulatorHub } from "./channels/simulator/session.js";
import type { AppContext } from "./context.js";
import type { Guards } from "./http/guards.js";
import type { JobRunner } from "./jobs/runner.js";
import type { OwnerCallHandler } from "./lib/cluster/ownership.js";
import type { Clock } from "./lib/pace.js";
import type { BillingRegistry } from "./modules/billing/registry.js";
import type { HttpOptions } from "./modules/billing/http.js";
import type { MessageBuilderHooks } from "./modules/messages/inbound.js";
import type { Journal } from "./modules/messages/journal.js";
import type { ConvDeps } from "./modules/outbox/deps.js";
import type { OutboxSender } from "./modules/outbox/sender.js";

/**
 * What app.ts hands every module's `register(host)` (its `module.ts`), one after the other in the
 * list of modules: a module registers its own listeners (`host.ctx.events.on`), jobs
 * (`host.jobs.register` / `every`), routes (`host.routes`), calls from other processes
 * (`host.ownerCalls`) and start-up work (`host.onStart`). What modules share is infrastructure
 * made before any module (the outbox sender, the billing system's registry, the journal); a module
 * needs nothing another module answers, except the message builder's bot hooks, which the bots
 * set here before messages reads them (the list's order).
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
  /** hooks on the root HTTP server (every request: the Prometheus timing), before the routes */
  onHttp(fn: (app: FastifyInstance) => void): void;
  /**
   * Several processes: the condition, on a `jobs` row, of a run start-up may queue again (its
   * process is gone); unset with one process (every run left 'running' was its own).
   */
  orphanedJobs?: SQL;
  /** work started once the app is built (sessions, senders, jobs first: see app.ts), in the order given */
  onStart(fn: () => Promise<void>): void;
  /** the outbox's senders, one per connection (number health sets their gate) */
  sender: OutboxSender;
  /** the inbound journal every channel event is written to first */
  journal: Journal;
  /** the configured billing system (SGP / MK-AUTH): one live adapter, its breaker and cache */
  billing: BillingRegistry;
  /** the simulator's sessions (its page and routes) */
  simulator: SimulatorHub;
  /** the message builder's hooks: the bots set them (modules/bots), the messages module reads them */
  inbound: { hooks: MessageBuilderHooks };
  /** the users with a live socket (the dashboard), and how many sockets this process holds (ops) */
  presence: { onlineUserIds(): Promise<number[]>; socketCount(): number };
  /**
   * Several processes: calls to the process that owns a connection's session. A module answers its
   * own (`handle`) and asks (`ask`); absent with one process.
   */
  ownerCalls?: {
    handle(method: string, handler: OwnerCallHandler): void;
    ask(whatsappId: number, method: string, args: unknown): Promise<unknown>;
  };
  /** tests' tuning of outside calls and waits (AI and billing timeouts, the bots' clock) */
  tuning: { aiTimeoutMs?: number; billingHttp?: Partial<HttpOptions>; botClock?: Clock };
}

/** A module: its `register` is the one thing app.ts calls. */
export interface Module {
  register(host: ModuleHost): void | Promise<void>;
}
