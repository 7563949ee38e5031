import type { ChannelType } from "@balcao/contract";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { createLazyBaileysChannel } from "./channels/baileys/lazy.js";
import type { ChannelFactory } from "./channels/channel.js";
import { CLOUD_PACE, CloudHub, type CloudOptions } from "./channels/cloud/session.js";
import { ChannelManager } from "./channels/manager.js";
import { SimulatorHub } from "./channels/simulator/session.js";
import type { Config } from "./config.js";
import type { AppContext } from "./context.js";
import { type Database, openDatabase } from "./db/client.js";
import { getSettingValue } from "./db/settings.js";
import { makeGuards, runGuardsFirst } from "./http/guards.js";
import { frameOriginOf } from "./http/security.js";
import { createHttpServer, registerHttpEdges } from "./http/server.js";
import { findWebDist, registerWebApp } from "./http/static.js";
import { JobRunner } from "./jobs/runner.js";
import { openCluster } from "./lib/cluster/index.js";
import { SessionOwnership } from "./lib/cluster/ownership.js";
import { EventBus } from "./lib/events.js";
import { MediaStore } from "./lib/media.js";
import { type Clock, realClock } from "./lib/pace.js";
import { openStorage } from "./lib/storage.js";
import { UploadReceiver } from "./lib/uploads.js";
import * as ai from "./modules/ai/module.js";
import * as audit from "./modules/audit/module.js";
import * as auth from "./modules/auth/module.js";
import { userFromToken } from "./modules/auth/tokens.js";
import type { HttpOptions } from "./modules/billing/http.js";
import * as billingModule from "./modules/billing/module.js";
import { BillingRegistry } from "./modules/billing/registry.js";
import * as botContent from "./modules/bot-content/module.js";
import * as bots from "./modules/bots/module.js";
import * as cloudModule from "./modules/cloud/module.js";
import { cloudConfig, saveNumberInfo } from "./modules/cloud/service.js";
import { createAuthStateStore } from "./modules/connections/auth-state.js";
import * as connections from "./modules/connections/module.js";
import { startAllSessions, startSession } from "./modules/connections/service.js";
import { createSimulatorStore } from "./modules/connections/simulator-store.js";
import * as contacts from "./modules/contacts/module.js";
import * as contracts from "./modules/contracts/module.js";
import type { ContractDeps } from "./modules/contracts/service.js";
import * as disparos from "./modules/disparos/module.js";
import * as health from "./modules/health/module.js";
import * as incidents from "./modules/incidents/module.js";
import * as lgpd from "./modules/lgpd/module.js";
import * as messageApi from "./modules/message-api/module.js";
import { createJournal, type Journal } from "./modules/messages/journal.js";
import * as messages from "./modules/messages/module.js";
import { messageWidLookup, publishMessage } from "./modules/messages/queries.js";
import { reannounceRecent } from "./modules/messages/reannounce.js";
import * as metrics from "./modules/metrics/module.js";
import type { Module, ModuleHost } from "./module-host.js";
import * as ops from "./modules/ops/module.js";
import type { ConvDeps } from "./modules/outbox/deps.js";
import { OutboxSender, type SenderOptions } from "./modules/outbox/sender.js";
import * as profile from "./modules/profile/module.js";
import * as queues from "./modules/queues/module.js";
import * as quickAnswers from "./modules/quick-answers/module.js";
import * as schedules from "./modules/schedules/module.js";
import * as settings from "./modules/settings/module.js";
import * as system from "./modules/system/module.js";
import * as tags from "./modules/tags/module.js";
import * as tickets from "./modules/tickets/module.js";
import * as users from "./modules/users/module.js";
import { seed } from "./modules/users/seed.js";
import { SessionCache } from "./modules/users/session-cache.js";
import { WaitingLines } from "./modules/tickets/waiting-lines.js";
import { registerContractRealtime } from "./realtime/contracts.js";
import { registerDisparoRealtime } from "./realtime/disparos.js";
import { registerHealthRealtime } from "./realtime/health.js";
import { registerMentionRealtime } from "./realtime/mentions.js";
import { registerScheduleRealtime } from "./realtime/schedules.js";
import { bridgeCrudEvents, createRealtime, type RealtimeServer, refreshSocketUsers, trackPresence } from "./realtime/server.js";
import { registerTicketRealtime } from "./realtime/tickets.js";

/**
 * The modules, in the order they register (modules/module.ts): each one's listeners, jobs, routes
 * and start-up work are its own. The order matters in two places: the bots set the message
 * builder's hooks before messages reads them, and routes register in this order.
 */
const MODULES: readonly Module[] = [
  auth,
  users,
  profile,
  queues,
  contacts,
  quickAnswers,
  tags,
  connections,
  tickets,
  system,
  disparos,
  incidents,
  billingModule,
  bots,
  botContent,
  messages,
  ai,
  metrics,
  settings,
  contracts,
  schedules,
  health,
  audit,
  lgpd,
  cloudModule,
  messageApi,
  ops,
];

export interface BuildOptions {
  /** An already open database (tests); otherwise opened from the configuration. */
  database?: Database;
  logger?: boolean;
  /** Where the log goes (tests read it); stdout by default. */
  logStream?: { write(line: string): void };
  /** Serve the built web app when it exists (default true). */
  serveWeb?: boolean;
  /** Simulator ack delay in ms (tests shorten it). */
  simulatorAckDelayMs?: number;
  /** Replaces channel drivers by type (tests inject a Baileys driver over a fake socket). */
  channelFactories?: Partial<Record<ChannelType, ChannelFactory>>;
  /** The clock of the outbox sender and the job runner (tests pass a fake one). */
  clock?: Clock;
  /** Outbox sender tuning (tests shorten backoffs). */
  sender?: SenderOptions;
  /** Delay before a failed inbound event is handled again (tests shorten it). */
  journalRetryDelayMs?: (attempt: number) => number;
  /** Billing HTTP tuning (tests shorten timeouts and backoffs). */
  billingHttp?: Partial<HttpOptions>;
  /** Delay before a failed job is tried again (tests shorten it). */
  jobBackoffMs?: (attempts: number) => number;
  /** The clock bots wait on (delays between bot messages, Typebot waits); tests pass one that records the waits. */
  botClock?: Clock;
  /** AI server tuning (tests shorten the 20 s timeout). */
  ai?: { timeoutMs?: number };
  /** Cloud API channel tuning (tests shorten the rate-limit delays and timeouts). */
  cloud?: Partial<Pick<CloudOptions, "rateLimitDelayMs" | "timeoutMs" | "graceMs">>;
  /** Replaces the inbound journal (the benchmark measures the pipeline without it, to price it). */
  journal?: Journal;
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  io: RealtimeServer;
  /** The live WhatsApp sessions of this process. */
  channels: ChannelManager;
  /** The simulator sessions (demo customers), for the simulator page and tests. */
  simulator: SimulatorHub;
  conv: ConvDeps;
  /** The outbox's senders, one per connection. */
  sender: OutboxSender;
  /** The one job runner. */
  jobs: JobRunner;
  /** Several processes (DATABASE_URL): this process's session leases; undefined in the embedded mode. */
  ownership?: SessionOwnership;
  /** What the contracts' jobs and routes use (tests run a job again with it). */
  contracts: ContractDeps;
  /** The configured billing system (self-service bot steps take it from here). */
  billing: BillingRegistry;
  close(): Promise<void>;
}

/** The one composition root: db → realtime → channels → the modules, in a list → sessions, senders, jobs. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  const app = createHttpServer(config, opts);
  const database =
    opts.database ??
    (await openDatabase({ databaseUrl: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, dataDir: `${config.dataDir}/pglite` }));
  const events = new EventBus();
  events.setErrorHandler((err, name) => app.log.error({ err, event: name }, "event listener failed"));
  // what several processes share (events, limits, locks, presence): Redis, PostgreSQL, or memory with one process
  const cluster = await openCluster(config, database, events, app.log);
  const ctx: AppContext = {
    db: database.db,
    database,
    config,
    events,
    log: app.log,
    sessions: new SessionCache(database.db, events),
    uploads: new UploadReceiver(config.dataDir, config.UPLOAD_CONCURRENCY, cluster.store),
    cluster,
    waitingLines: new WaitingLines(database.db, events),
  };
  await seed(database.db, config, app.log);

  // the finance frames' origin (setting financeBaseUrl) is the one the CSP lets frames load
  let frameOrigin = frameOriginOf(await getSettingValue(database.db, "financeBaseUrl"));
  events.onEverywhere("setting.updated", (p) => {
    if (p.setting.key === "financeBaseUrl") frameOrigin = frameOriginOf(p.setting.value);
  });
  const userOfToken = (token: string) => userFromToken(ctx, token);
  await registerHttpEdges(app, { ctx, frameOrigin: () => frameOrigin, userOfToken });

  const io = createRealtime(ctx, app);
  const presence = trackPresence(ctx, io);
  bridgeCrudEvents(ctx, io);
  refreshSocketUsers(ctx, io);
  registerTicketRealtime(ctx, io);
  registerDisparoRealtime(ctx, io);
  registerContractRealtime(ctx, io);
  registerScheduleRealtime(ctx, io);
  registerHealthRealtime(ctx, io);
  registerMentionRealtime(ctx, io);

  // channels: one session per connection; every event journaled, then handed to the one inbound pipeline
  const journal = opts.journal ?? createJournal(database.db);
  const channels = new ChannelManager({
    log: app.log,
    authState: (whatsappId) => createAuthStateStore(database.db, whatsappId),
    getMessage: (whatsappId, id) => messageWidLookup(database.db, whatsappId, id),
    journal,
    retryDelayMs: opts.journalRetryDelayMs,
  });
  const simulator = new SimulatorHub(createSimulatorStore(database.db, config.dataDir), { ackDelayMs: opts.simulatorAckDelayMs });
  channels.register("simulator", simulator.factory);
  channels.register("baileys", (deps) => createLazyBaileysChannel(deps));
  // the WhatsApp Cloud API (Meta): Graph calls out, the webhook (modules/cloud) in
  const cloud = new CloudHub({
    graphUrl: config.WHATSAPP_GRAPH_URL,
    allow: config.allowedPrivateHosts,
    config: (whatsappId) => cloudConfig(database.db, whatsappId),
    onInfo: (whatsappId, info) => saveNumberInfo(ctx, whatsappId, info),
    graceMs: config.CLOUD_SEND_GRACE_S * 1000,
    ...opts.cloud,
  });
  channels.register("cloud", cloud.factory, { pace: CLOUD_PACE });
  for (const [type, factory] of Object.entries(opts.channelFactories ?? {})) if (factory) channels.register(type as ChannelType, factory);
  // files (media, contract PDFs, branding images): folders under DATA_DIR, or S3 when S3_BUCKET is set
  const storage = openStorage(config);
  const media = new MediaStore(storage, config.dataDir);
  // several processes on one PostgreSQL: each session owned by one process through a lease (lib/cluster/ownership.ts)
  const ownership =
    config.DATABASE_URL && database.engine === "postgres"
      ? new SessionOwnership(ctx, database, {
          node: config.CLUSTER_NODE,
          ttlMs: config.SESSION_LEASE_TTL_MS,
          renewMs: config.SESSION_LEASE_RENEW_MS,
          pollMs: config.OUTBOX_POLL_MS,
          wakes: cluster.redisChannel("owner"),
        })
      : undefined;
  if (ownership) channels.setRemote(ownership);

  // the outbox: every send is stored first, then sent by its connection's sender
  const sender = new OutboxSender(ctx, channels, media, async ({ messageId }) => void (await publishMessage(ctx, messageId, "updated")), {
    clock: opts.clock,
    ...opts.sender,
  });
  const conv: ConvDeps = {
    ctx,
    channels,
    media,
    outbox: {
      // several processes: the connection's owner is woken (NOTIFY when it is another process)
      wake: (whatsappId) => (ownership ? ownership.wakeOutbox(whatsappId) : sender.wake(whatsappId)),
      async committed(queued) {
        for (const w of new Set(queued.map((q) => q.whatsappId))) ownership ? ownership.wakeOutbox(w) : sender.wake(w);
        for (const q of queued) await publishMessage(ctx, q.id, "created");
      },
    },
  };
  // the one job runner
  const jobs = new JobRunner(ctx, {
    clock: opts.clock,
    ...(opts.jobBackoffMs && { backoffMs: opts.jobBackoffMs }),
    ...(ownership && { processId: ownership.id, orphaned: ownership.orphanedJobs() }),
  });
  const clock = opts.clock ?? realClock;
  const guard = makeGuards(userOfToken);
  runGuardsFirst(app, guard);

  // the modules, in their list: each registers its listeners, jobs, routes and start-up work
  const routes: FastifyPluginAsync[] = [];
  const httpHooks: ((app: FastifyInstance) => void)[] = [];
  const starts: (() => Promise<void>)[] = [];
  const host: ModuleHost = {
    ctx,
    conv,
    channels,
    jobs,
    clock,
    guard,
    routes: (...plugins) => void routes.push(...plugins),
    onHttp: (fn) => void httpHooks.push(fn),
    onStart: (fn) => void starts.push(fn),
    ...(ownership && { orphanedJobs: ownership.orphanedJobs() }),
    sender,
    journal,
    // the billing system (SGP / MK-AUTH) of the integration settings: one live adapter, its breaker and cache
    billing: new BillingRegistry(clock, { allow: config.allowedPrivateHosts, ...opts.billingHttp }),
    simulator,
    inbound: { hooks: {} },
    presence: { onlineUserIds: () => presence.onlineUserIds(), socketCount: () => io.of("/").sockets.size },
    ...(ownership && { ownerCalls: { handle: (m, h) => ownership.handle(m, h), ask: (id, m, a) => ownership.ask(id, m, a) } }),
    tuning: { aiTimeoutMs: opts.ai?.timeoutMs, billingHttp: opts.billingHttp, botClock: opts.botClock },
  };
  for (const m of MODULES) await m.register(host);
  for (const hook of httpHooks) hook(app);
  for (const plugin of routes) await app.register(plugin);

  if (opts.serveWeb !== false) {
    const web = findWebDist(config.WEB_DIST);
    if (web) await registerWebApp(app, web);
  }

  // sessions (each replays its unfinished journal events first), the senders, the jobs
  if (ownership) {
    await ownership.start({
      start: (id) => startSession(ctx, channels, id, "owned"),
      stop: (id) => channels.stop(id),
      async adopt(id) {
        await sender.adopt(id);
        // what the previous owner stored but may not have announced before it died reaches the screens now
        reannounceRecent(ctx, id, 2 * config.SESSION_LEASE_TTL_MS + 30_000).catch((err) =>
          app.log.warn({ err, whatsappId: id }, "announcing the previous owner's last messages failed"),
        );
      },
      wakeSender: (id) => sender.wake(id),
      async quiesceSender() {
        sender.stop();
        await sender.idle();
      },
      settle: () => channels.idle(),
    });
  } else {
    await startAllSessions(ctx, channels);
    await sender.start();
  }
  for (const start of starts) await start();
  await jobs.start();

  let closed = false;
  return {
    app,
    ctx,
    io,
    channels,
    simulator,
    conv,
    sender,
    jobs,
    ownership,
    contracts: contracts.contractDepsOf(host),
    billing: host.billing,
    async close() {
      if (closed) return;
      closed = true;
      // several processes: the sessions go to the others at once, before the drain of the requests
      await ownership?.handOver();
      sender.stop();
      await jobs.stop();
      await channels.stopAll();
      await channels.idle();
      await presence.stop();
      io.close();
      await app.close();
      storage.close?.();
      await cluster.close();
      await ownership?.close();
      if (!opts.database) await database.close();
    },
  };
}
