import fastifyCookie from "@fastify/cookie";
import fastifyMultipart from "@fastify/multipart";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance, type FastifyPluginAsync, LogController } from "fastify";
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { AppContext } from "./context.js";
import { type Database, openDatabase } from "./db/client.js";
import { seed } from "./modules/users/seed.js";
import { registerErrorHandling } from "./http/errors.js";
import { registerApiDocsGate } from "./http/api-docs.js";
import { makeGuards, runGuardsFirst } from "./http/guards.js";
import { frameOriginOf, registerCors, registerSecurityHeaders } from "./http/security.js";
import { registerLingeringDrain } from "./http/drain.js";
import { errSerializer, registerRequestLog, reqSerializer } from "./http/log.js";
import { registerInputCleaning } from "./http/input.js";
import { makeSerializerCompiler } from "./http/serializer.js";
import { findWebDist, registerWebApp } from "./http/static.js";
import type { ChannelType } from "@balcao/contract";
import { createLazyBaileysChannel } from "./channels/baileys/lazy.js";
import type { ChannelFactory } from "./channels/channel.js";
import { ChannelManager, SESSION_CALLS } from "./channels/manager.js";
import { SimulatorHub } from "./channels/simulator/session.js";
import { CloudHub, type CloudOptions } from "./channels/cloud/session.js";
import * as cloudModule from "./modules/cloud/module.js";
import { cloudConfig, saveNumberInfo } from "./modules/cloud/service.js";
import { JobRunner } from "./jobs/runner.js";
import { openCluster } from "./lib/cluster/index.js";
import { AppError } from "./lib/errors.js";
import { EventBus } from "./lib/events.js";
import { MediaStore } from "./lib/media.js";
import { openStorage } from "./lib/storage.js";
import { UploadReceiver } from "./lib/uploads.js";
import { authRoutes } from "./modules/auth/routes.js";
import { userFromToken } from "./modules/auth/tokens.js";
import { createAuthStateStore } from "./modules/connections/auth-state.js";
import { connectionRoutes } from "./modules/connections/routes.js";
import { SessionOwnership } from "./modules/connections/ownership.js";
import { disconnectSession, requestNewQr, startAllSessions, startSession } from "./modules/connections/service.js";
import { SIM_CALL, simulatorCallHandler, simulatorRoutes } from "./modules/connections/simulator.routes.js";
import { CLOUD_WEBHOOK_CALL, cloudWebhookCallHandler } from "./modules/cloud/service.js";
import { createSimulatorStore } from "./modules/connections/simulator-store.js";
import type { ConvDeps } from "./modules/outbox/deps.js";
import { OutboxSender, type SenderOptions } from "./modules/outbox/sender.js";
import { metricsRoutes } from "./modules/metrics/routes.js";
import { MetricsCache } from "./modules/metrics/service.js";
import type { HttpOptions } from "./modules/billing/http.js";
import { BillingRegistry } from "./modules/billing/registry.js";
import { billingRoutes } from "./modules/billing/routes.js";
import { registerAi } from "./modules/ai/index.js";
import * as bots from "./modules/bots/module.js";
import { botContentRoutes } from "./modules/bot-content/routes.js";
import { registerDisparoRealtime } from "./realtime/disparos.js";
import { registerContractRealtime } from "./realtime/contracts.js";
import { registerScheduleRealtime } from "./realtime/schedules.js";
import { registerHealthRealtime } from "./realtime/health.js";
import * as healthModule from "./modules/health/module.js";
import { registerMentionRealtime } from "./realtime/mentions.js";
import * as audit from "./modules/audit/module.js";
import * as lgpd from "./modules/lgpd/module.js";
import { messageApiRoutes } from "./modules/message-api/routes.js";
import { type Clock, realClock } from "./lib/pace.js";
import { contactRoutes } from "./modules/contacts/routes.js";
import * as contractsModule from "./modules/contracts/module.js";
import type { ContractDeps } from "./modules/contracts/service.js";
import * as disparosModule from "./modules/disparos/module.js";
import * as incidentsModule from "./modules/incidents/module.js";
import * as queuesModule from "./modules/queues/module.js";
import * as messages from "./modules/messages/module.js";
import * as schedulesModule from "./modules/schedules/module.js";
import type { ModuleHost } from "./modules/module.js";
import * as system from "./modules/system/module.js";
import * as ops from "./modules/ops/module.js";
import { registerHttpMetrics } from "./modules/ops/prometheus.js";
import * as tickets from "./modules/tickets/module.js";
import { createJournal, type Journal } from "./modules/messages/journal.js";
import { messageWidLookup, publishMessage } from "./modules/messages/queries.js";
import { queueRoutes } from "./modules/queues/routes.js";
import { quickAnswerRoutes } from "./modules/quick-answers/routes.js";
import { BrandingStore } from "./modules/settings/branding.js";
import { SettingsGate } from "./modules/settings/gate.js";
import { settingRoutes } from "./modules/settings/routes.js";
import { getSettingValue } from "./modules/settings/service.js";
import { tagRoutes } from "./modules/tags/routes.js";
import { userRoutes } from "./modules/users/routes.js";
import { profileRoutes } from "./modules/profile/routes.js";
import { SessionCache } from "./modules/users/session-cache.js";
import { reannounceRecent } from "./modules/messages/reannounce.js";
import { WaitingLines } from "./modules/tickets/waiting-lines.js";
import { bridgeCrudEvents, createRealtime, type RealtimeServer, refreshSocketUsers, trackPresence } from "./realtime/server.js";
import { registerTicketRealtime } from "./realtime/tickets.js";

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

/** The one composition root: db → realtime → channels → modules → jobs. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            ...(opts.logStream && { stream: opts.logStream }),
            serializers: { err: errSerializer, error: errSerializer, req: reqSerializer },
            redact: {
              paths: [
                "req.headers.authorization",
                'req.headers["x-settings-token"]',
                "*.settingsToken",
                "req.headers.cookie",
                'res.headers["set-cookie"]',
                "*.password",
                "*.currentPassword",
                "*.token",
                "*.apiKey",
                "*.params",
              ],
              censor: "[redacted]",
            },
          },
    // one line per request, written by registerRequestLog (not Fastify's incoming + completed)
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY === "true",
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: () => crypto.randomUUID(),
    // a closing process (SIGTERM) still answers the requests already on its connections (the drain)
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(makeSerializerCompiler({ checked: config.NODE_ENV !== "production" }));
  registerErrorHandling(app);
  registerRequestLog(app, config.LOG_SLOW_MS);
  registerInputCleaning(app);
  // what a refused client may still send is read and dropped (so it reads the refusal), up to this
  registerLingeringDrain(app, Math.max(32 * 1024 * 1024, 4 * config.BODY_LIMIT, 2 * config.UPLOAD_LIMIT));

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
  registerSecurityHeaders(app, config, () => frameOrigin);
  registerCors(app, config);
  await app.register(fastifyCookie);
  const userOfToken = (token: string) => userFromToken(ctx, token);
  registerApiDocsGate(app, ctx, userOfToken);
  await app.register(fastifyMultipart, { limits: { fileSize: config.UPLOAD_LIMIT, files: 10, fields: 20, fieldSize: 100_000 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Balcão API", version: "1.0.0", description: "Customer-service inbox over WhatsApp." },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          // the message API's connection token (POST /api/messages/send); the Bearer header carries it too
          apiToken: { type: "apiKey", in: "header", name: "X_TOKEN" },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api-docs" });

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
  channels.register("cloud", cloud.factory);
  for (const [type, factory] of Object.entries(opts.channelFactories ?? {})) if (factory) channels.register(type as ChannelType, factory);
  // files (media, contract PDFs, branding images): folders under DATA_DIR, or S3 when S3_BUCKET is set
  const storage = openStorage(config);
  const media = new MediaStore(storage, config.dataDir);
  // several processes on one PostgreSQL: each session owned by one process through a lease (ownership.ts)
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

  // the modules: each registers its listeners, jobs and routes (modules/module.ts)
  const routes: FastifyPluginAsync[] = [];
  const starts: (() => Promise<void>)[] = [];
  const host: ModuleHost = {
    ctx,
    conv,
    channels,
    jobs,
    clock,
    guard,
    routes: (...plugins) => void routes.push(...plugins),
    onStart: (fn) => void starts.push(fn),
    ...(ownership && { orphanedJobs: ownership.orphanedJobs() }),
  };
  routes.push(
    authRoutes(ctx),
    userRoutes(ctx, guard),
    profileRoutes(ctx, guard),
    queueRoutes(ctx, guard),
    contactRoutes(conv, guard),
    quickAnswerRoutes(ctx, guard),
    tagRoutes(ctx, guard),
    connectionRoutes(ctx, channels, guard),
  );
  tickets.register(host);
  system.register(host);

  // disparos: one send job per connection, paced; the outbox's outcomes move the rows on
  const disparoDeps = disparosModule.register(host);
  // outage mode (incidents): routes, the "normalizado" job at the unsolicited pace; the queue position notice
  incidentsModule.register(host);
  queuesModule.register(host);

  // the billing system (SGP / MK-AUTH) of the integration settings: one live adapter, its breaker and cache
  const billing = new BillingRegistry(clock, { allow: config.allowedPrivateHosts, ...opts.billingHttp });
  routes.push(billingRoutes({ conv, registry: billing }, guard, new SettingsGate(ctx, clock)));
  // the bots answer after each committed customer message; the message builder asks them what reopens nothing
  const botHooks = bots.register(host, { clock: opts.botClock ?? clock, disparos: disparoDeps, billing });
  routes.push(botContentRoutes(conv, guard));
  messages.register(host, journal, botHooks);
  // AI assist: the transcription job (queued by a customer's voice note) and its routes
  routes.push(registerAi({ conv, billing, jobs, clock, timeoutMs: opts.ai?.timeoutMs }, guard));

  // the dashboard's figures, cached a few seconds and dropped by ticket events
  const metrics = new MetricsCache({ ctx, clock, onlineUserIds: () => presence.onlineUserIds() });
  routes.push(metricsRoutes(metrics, guard));
  const branding = new BrandingStore(storage);
  routes.push(settingRoutes(ctx, guard, clock, branding));
  const contractDeps = await contractsModule.register(host, branding);
  schedulesModule.register(host);
  // number health: the sender's gate (pause, cap, warm-up), ban signals, the backup connection
  healthModule.register(host, sender);
  // the audit log (reads, retention) and LGPD (a contact's export and erasure, media retention)
  audit.register(host);
  lgpd.register(host, { contractFiles: contractDeps.files });
  // several processes: a webhook that reaches a process without the number's session goes to its owner
  cloudModule.register(host, ownership && ((id, m, a) => ownership.ask(id, m, a)));
  routes.push(messageApiRoutes(conv));
  if (config.simulatorEnabled)
    routes.push(simulatorRoutes(ctx, channels, simulator, guard, ownership && ((id, m, a) => ownership.ask(id, m, a))));
  // operations: /health, /ready, /metrics/prometheus (every request timed into its histogram)
  const prometheus = ops.register(host, { storage, socketCount: () => io.of("/").sockets.size });
  registerHttpMetrics(app, prometheus);
  for (const plugin of routes) await app.register(plugin);

  if (opts.serveWeb !== false) {
    const web = findWebDist(config.WEB_DIST);
    if (web) await registerWebApp(app, web);
  }

  // sessions (each replays its unfinished journal events first), the senders, the jobs
  if (ownership) {
    // what other processes ask of the sessions this one owns
    ownership.handle("channel", async (whatsappId, args) => {
      const { method, args: params } = args as { method: string; args: unknown[] };
      const session = channels.get(whatsappId) as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
      if (!session || !(SESSION_CALLS as readonly string[]).includes(method) || typeof session[method] !== "function") {
        throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      }
      return session[method].apply(session, params);
    });
    ownership.handle("conn.start", (id) => startSession(ctx, channels, id));
    ownership.handle("conn.newQr", (id) => requestNewQr(ctx, channels, id));
    ownership.handle("conn.logout", (id) => disconnectSession(ctx, channels, id));
    ownership.handle("conn.stop", (id) => channels.stop(id));
    ownership.handle(SIM_CALL, simulatorCallHandler(channels, simulator));
    ownership.handle(CLOUD_WEBHOOK_CALL, cloudWebhookCallHandler(channels));
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
    contracts: contractDeps,
    billing,
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
