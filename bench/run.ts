/**
 * Benchmarks of the conversation server; they print figures and assert nothing.
 *   npm run bench                                  all
 *   npm run bench -- inbound | outbound | lists | disparos | metrics    one
 * inbound: PostgreSQL, with the inbound journal and with a no-op one (what the journal costs); BENCH_MESSAGES (20 000),
 *   BENCH_CONTACTS (1 000 customers writing in turn: each one's first message creates their contact and ticket),
 *   BENCH_IN_FLIGHT (64 customer messages awaiting their socket emit), BENCH_JOURNAL=only (only the journaled runs);
 *   the journaled run twice: written on the simulator's phone, and handed over as a Baileys session does
 *   (BENCH_SOURCE=simulator|channel: one of them); BENCH_STATEMENTS=1 prints the statements per message by kind;
 * outbound: an agent's POST /messages on the embedded PGlite, 10 agents sending.
 * disparos: GET /disparos (pages, filters) and GET /disparos/stats over 100 000 rows, on both engines.
 * metrics: GET /metrics (the dashboard) warm and cold over the lists' data, on both engines.
 * contracts: the contract PDF (default template, two witnesses) and the signed copy with its evidence page, in process.
 * api: POST /api/messages/send (a connection's token) accepted per second and its answer times, PGlite.
 * replies: one number with the DEFAULT send settings, 20 agents replying every 2 s, the bots answering 100 customers
 *   who write within a minute and a disparo of 500 running: agent POST → phone, bot replies, the disparo's pace, PGlite
 *   (BENCH_ENGINE=postgres: PostgreSQL).
 * serializer: a page of 40 tickets and one of 40 contacts written by the zod encode and by the compiled writer, in process.
 * cluster (only when named): one process vs three behind HAProxy (deploy/cluster.mjs, the built server), PostgreSQL + Redis:
 *   inbound messages/s and agent POST p99 of each (bench/cluster.ts).
 * BENCH_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres):
 * a server where a fresh database is created for each benchmark and dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { CONTACTS_COUNT_CAP } from "@balcao/contract";
import { sql } from "drizzle-orm";
import pg from "pg";
import { io as connectSocket } from "socket.io-client";
import { type App, buildApp } from "../apps/server/src/app.js";
import { DEMO_ADMIN, loadConfig } from "../apps/server/src/config.js";
import { type Database, openDatabase } from "../apps/server/src/db/client.js";
import type { Journal } from "../apps/server/src/modules/messages/journal.js";
import { generate, SIZES } from "./generate.js";
import { fmt, postgresCpuSeconds, summarize } from "./stats.js";

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface Env {
  app: App;
  database: Database;
  url: string;
  token: string;
  done(): Promise<void>;
}

/** A journal that keeps nothing: the pipeline as it would run without the inbound journal. */
function noJournal(): Journal {
  let id = 0;
  return {
    doneStatement: () => sql`select 1`,
    append: async () => ++id,
    pending: async () => [],
    done: async () => {},
    failed: async () => "failed",
  };
}

async function environment(
  opts: { engine?: "postgres" | "pglite"; journal?: Journal; config?: Record<string, string> } = {},
): Promise<Env> {
  const engine = opts.engine ?? "postgres";
  const name = `balcao_bench_${randomBytes(4).toString("hex")}`;
  const dataDir = mkdtempSync(join(tmpdir(), "balcao-bench-"));
  let database: Database;
  if (engine === "postgres") {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const dbUrl = new URL(SERVER_URL);
    dbUrl.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 20 });
  } else {
    // the embedded default, on disk as `npm start` keeps it
    database = await openDatabase({ dataDir: join(dataDir, "pglite") });
  }
  const config = loadConfig({
    NODE_ENV: "development",
    DATA_DIR: dataDir,
    // BENCH_LOG=info logs as a server does, to a file on disk (its size is printed at the end)
    LOG_LEVEL: process.env.BENCH_LOG || "silent",
    JWT_SECRET: randomBytes(32).toString("hex"),
    ...opts.config,
  });
  const logPath = join(dataDir, "server.log");
  const logStream = process.env.BENCH_LOG ? createWriteStream(logPath) : undefined;
  const app = await buildApp(config, {
    database,
    logger: Boolean(logStream),
    ...(logStream && { logStream }),
    serveWeb: false,
    simulatorAckDelayMs: 50,
    journal: opts.journal,
  });
  await app.app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
  const login = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(DEMO_ADMIN),
  });
  const token = ((await login.json()) as { token: string }).token;
  return {
    app,
    database,
    url,
    token,
    async done() {
      await app.close();
      if (logStream) {
        await new Promise((resolve) => logStream.end(resolve));
        const lines = readFileSync(logPath, "utf8").split("\n").length - 1;
        console.log(`log: ${lines} lines, ${(statSync(logPath).size / 1024).toFixed(0)} KiB`);
      }
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (engine !== "postgres") return;
      const c = new pg.Client({ connectionString: SERVER_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function call<T>(env: Env, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${env.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${env.token}`, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A paired simulator connection with one queue (the silent-assignment path of the pipeline), sending without pacing. */
async function simulatorConnection(env: Env, queueIds: number[]) {
  const w = await call<{ id: number }>(env, "POST", "/whatsapp", {
    name: "Bench",
    type: "simulator",
    queueIds,
    greetingMessage: "Olá",
    sendIntervalMs: 0,
    sendJitterMs: 0,
    sendBurst: 20,
    // a new number's warm-up would cap its unsolicited sends at 20 on its first day
    warmupEnabled: false,
  });
  await env.app.channels.idle();
  const session = env.app.simulator.get(w.id);
  if (!session || !(await session.scan(session.qrcode))) throw new Error("pairing failed");
  await env.app.channels.idle();
  return { whatsappId: w.id, session };
}

// ---------------------------------------------------------------------------------------------

/**
 * `source`: "simulator", the customer writes on the simulator's fake phone (the demo's path: the
 * phone's own rows are written too); "channel", the event enters as a Baileys or Cloud session hands
 * it over (`channels.receive`, a session's emit), so the figure is the product's own cost per message.
 */
async function inbound(journaled: boolean, source: "simulator" | "channel" = "simulator") {
  const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1000);
  const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
  const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 64);
  console.log(
    `\n## Inbound throughput — ${CONTACTS} contacts, ${MESSAGES} messages, ${IN_FLIGHT} in flight, PostgreSQL, ${journaled ? "with the inbound journal" : "without a journal (no-op)"}, ${source === "simulator" ? "written on the simulator's phone" : "handed over as a session does (channels.receive)"}`,
  );
  const env = await environment({ journal: journaled ? undefined : noJournal() });
  try {
    const queue = await call<{ id: number }>(env, "POST", "/queue", { name: "Suporte", color: "#123456", greetingMessage: "" });
    const { whatsappId, session } = await simulatorConnection(env, [queue.id]);
    const socket = connectSocket(env.url, { auth: { token: env.token }, transports: ["websocket"], forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("connect_error", reject);
    });
    await new Promise((resolve) => socket.emit("joinTickets", "pending", resolve));
    const waiting = new Map<string, () => void>();
    socket.on("appMessage", (p: { action: string; message: { wid: string | null } }) => {
      if (p.action !== "create" || !p.message.wid) return;
      waiting.get(p.message.wid)?.();
      waiting.delete(p.message.wid);
    });

    const numbers = Array.from({ length: CONTACTS }, (_, i) => `5511${String(900000000 + i)}`);
    // round-robin over the customers: message k of every customer before message k+1 of any
    const tasks = Array.from({ length: MESSAGES }, (_, i) => ({
      number: numbers[i % CONTACTS],
      text: `mensagem ${Math.floor(i / CONTACTS) + 1} do cliente`,
      // a customer's first message creates their contact and ticket (the transaction's path)
      first: i < CONTACTS,
    }));
    const latencies: number[] = [];
    const firsts: number[] = [];
    const rest: number[] = [];
    const perSecond: number[][] = [];
    let next = 0;
    // every statement the server sends while the load runs (its kind: the first words), to find where a message goes
    const kinds = new Map<string, number>();
    let statements = 0;
    // (the kinds only when asked: reading each statement's text costs this process CPU it would count)
    const byKind = !!process.env.BENCH_STATEMENTS;
    const off = env.database.onQuery((q) => {
      statements++;
      if (!byKind) return;
      const kind = q.replace(/\s+/g, " ").trim().slice(0, 70);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    });
    const cpu0 = process.cpuUsage();
    const pg0 = postgresCpuSeconds();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < tasks.length) {
          const task = tasks[next++];
          const id = `BENCH${next}`;
          const t0 = performance.now();
          const emitted = new Promise<void>((resolve) => waiting.set(id, resolve));
          const name = `Cliente ${task.number.slice(-4)}`;
          if (source === "simulator") await session.customerSend({ number: task.number, name, body: task.text, id });
          else
            await env.app.channels.receive(whatsappId, {
              type: "message",
              message: {
                id,
                fromMe: false,
                chat: { number: task.number, isGroup: false },
                pushName: name,
                timestamp: new Date(),
                body: task.text,
                mediaType: "chat",
              },
            });
          await emitted;
          const t1 = performance.now();
          latencies.push(t1 - t0);
          (task.first ? firsts : rest).push(t1 - t0);
          const sec = Math.floor((t1 - started) / 1000);
          perSecond[sec] ??= [];
          perSecond[sec].push(t1 - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const pgSeconds = postgresCpuSeconds() - pg0;
    off();
    socket.disconnect();
    const counts = await env.app.ctx.db.execute<{ messages: number; tickets: number }>(
      sql.raw("select (select count(*)::int from messages) as messages, (select count(*)::int from tickets) as tickets"),
    );
    console.log(`stored: ${counts.rows[0].messages} messages on ${counts.rows[0].tickets} tickets in ${seconds.toFixed(1)} s`);
    console.log(`channel event → committed + socket emit received: ${fmt(summarize(latencies, seconds))}`);
    console.log(`  a customer's first message (contact + ticket created): ${fmt(summarize(firsts))}`);
    console.log(`  the messages after it:                                   ${fmt(summarize(rest))}`);
    console.log(`  p99 per second of the run (ms): ${perSecond.map((s) => summarize(s).p99.toFixed(0)).join(" ")}`);
    console.log(
      `statements per message (Drizzle's, transactions' begin/commit included): ${(statements / MESSAGES).toFixed(2)}; this process's CPU (server + load): ${((cpu.user + cpu.system) / 1000 / MESSAGES).toFixed(2)} ms per message`,
    );
    // every postgres process on this machine (0 when the server is elsewhere), autovacuum and the WAL writer included
    console.log(`PostgreSQL's CPU (this machine's postgres processes): ${((pgSeconds * 1000) / MESSAGES).toFixed(2)} ms per message`);
    if (process.env.BENCH_STATEMENTS)
      for (const [kind, n] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 20))
        console.log(`  ${(n / MESSAGES).toFixed(2).padStart(6)}  ${kind}`);
  } finally {
    await env.done();
  }
}

// ---------------------------------------------------------------------------------------------

async function explain(env: Env, label: string, query: string) {
  const res = await env.app.ctx.db.execute<{ "QUERY PLAN": string }>(
    sql.raw(`explain (analyze, costs off, timing off, summary on) ${query}`),
  );
  const lines = res.rows.map((r) => r["QUERY PLAN"]);
  const scans = lines.filter((l) => /Scan|Limit|Execution Time/.test(l)).map((l) => `    ${l.trim()}`);
  console.log(`  ${label}\n${scans.join("\n")}`);
}

async function lists() {
  const DURATION_S = Number(process.env.BENCH_SECONDS ?? 20);
  const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
  console.log(
    `\n## List latency — ${SIZES.users} users, ${SIZES.queues} queues, ${SIZES.contacts} contacts, ${SIZES.tickets} tickets, ${SIZES.tickets * SIZES.messagesPerTicket} messages; ${CLIENTS} clients × ${DURATION_S} s per request, PostgreSQL`,
  );
  const env = await environment();
  try {
    const { whatsappId } = await simulatorConnection(env, []);
    // the data spreads open tickets over 60 days: the server's auto-close would close them
    await call(env, "PUT", "/settings/autoCloseHours", { value: "0" });
    const t0 = performance.now();
    await generate(env.database, whatsappId);
    console.log(`data generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const ids = (await env.app.ctx.db.execute<{ id: number }>(sql.raw("select id from tickets order by random() limit 2000"))).rows.map(
      (r) => r.id,
    );

    const requests: [string, string[]][] = [
      ["GET /tickets status=open showAll", ["/tickets?status=open&showAll=true&pageNumber=1"]],
      ["GET /tickets status=pending showAll", ["/tickets?status=pending&showAll=true&pageNumber=1"]],
      ["GET /tickets searchParam=ab", ["/tickets?searchParam=ab&showAll=true&pageNumber=1"]],
      ["GET /messages/{id}", ids.map((id) => `/messages/${id}`)],
      ["GET /contacts searchParam=ab", ["/contacts?searchParam=ab&pageNumber=1"]],
    ];
    // BENCH_REQUESTS=contacts runs only the requests whose label holds that text
    const only = process.env.BENCH_REQUESTS;
    for (const [label, paths] of requests.filter(([label]) => !only || label.includes(only))) {
      for (let i = 0; i < 20; i++) await call(env, "GET", paths[i % paths.length]); // warm-up
      // the clients run in a worker thread: their own event loop, apart from the server's
      const { samples, failures } = await new Promise<{ samples: number[]; failures: number }>((resolve, reject) => {
        const worker = new Worker(new URL("./load-worker.mjs", import.meta.url), {
          workerData: { url: env.url, token: env.token, paths, clients: CLIENTS, seconds: DURATION_S },
        });
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      if (failures) throw new Error(`${label}: ${failures} failed requests`);
      console.log(`${label.padEnd(38)} ${fmt(summarize(samples, DURATION_S))}`);
    }

    console.log("\nPlans (EXPLAIN ANALYZE of the queries these requests run):");
    await explain(
      env,
      "open list: the page's ids",
      "select id from tickets where status = 'open' order by updated_at desc nulls last, id desc nulls last limit 41",
    );
    await explain(env, "open list count", "select count(*) from tickets t where t.status = 'open'");
    await explain(
      env,
      "ticket search 'ab', first window (ordered index scan, per-ticket probe)",
      `with recent as materialized (select id, updated_at from tickets order by updated_at desc nulls last, id desc nulls last limit 164)
       select recent.id, (select lower(c.name) like '%ab%' or exists (select 1 from messages m where m.ticket_id = t.id and lower(m.body) like '%ab%')
                          from tickets t join contacts c on c.id = t.contact_id where t.id = recent.id) as matched
       from recent order by recent.updated_at desc, recent.id desc`,
    );
    await explain(
      env,
      "messages page",
      `select id from messages where ticket_id = ${ids[0]} order by created_at desc nulls last, id desc nulls last limit 41`,
    );
    const contactWhere = (term: string, digits: string) =>
      `(lower(name) like '%${term}%'${digits ? ` or number like '%${digits}%'` : ""} or lower(email) like '%${term}%')`;
    await explain(
      env,
      "contact search 'ab', page (name order, one row past the page)",
      `select id from contacts where ${contactWhere("ab", "")} order by lower(name), id limit 21`,
    );
    await explain(
      env,
      "contact search 'ab', capped count",
      `select count(*) from (select 1 from contacts where ${contactWhere("ab", "")} limit ${CONTACTS_COUNT_CAP}) capped`,
    );
    await explain(
      env,
      "contact search 'ab', uncapped count (before issue 31)",
      `select count(*) from contacts where ${contactWhere("ab", "")}`,
    );
    await explain(
      env,
      "contact search 'silva' (trigram indexes on name and e-mail)",
      `select count(*) from (select 1 from contacts where ${contactWhere("silva", "")} limit ${CONTACTS_COUNT_CAP}) capped`,
    );
    await explain(
      env,
      "contact search '99123' (trigram index on the number)",
      `select count(*) from (select 1 from contacts where ${contactWhere("99123", "99123")} limit ${CONTACTS_COUNT_CAP}) capped`,
    );
  } finally {
    await env.done();
  }
}

/**
 * An agent's send: POST /messages answers from the commit (message stored with the clock and
 * queued); the connection's sender then hands it to the phone. 10 agents, each on their own open
 * ticket: first as people type (each agent sends a message every `BENCH_EVERY_MS`, 1 s by
 * default, with a random 0–20 % jitter: 10 messages a second in all), then as fast as the answers
 * come (the saturation throughput).
 */
async function outbound() {
  const AGENTS = 10;
  const PER_AGENT = Number(process.env.BENCH_SENDS ?? 100);
  const EVERY_MS = Number(process.env.BENCH_EVERY_MS ?? 1000);
  for (const paced of [true, false]) await outboundRun(AGENTS, PER_AGENT, paced ? EVERY_MS : 0);
}

async function outboundRun(AGENTS: number, PER_AGENT: number, EVERY_MS: number) {
  console.log(
    `\n## Agent sends — ${AGENTS} agents × ${PER_AGENT} messages, ${EVERY_MS ? `one per agent every ${EVERY_MS} ms` : "back to back (saturation)"}, PGlite (embedded, on disk), no send pacing`,
  );
  const env = await environment({ engine: "pglite" });
  try {
    const queue = await call<{ id: number }>(env, "POST", "/queue", { name: "Suporte", color: "#123456", greetingMessage: "" });
    const { session } = await simulatorConnection(env, [queue.id]);
    // when the phone gets each message (the simulator's send), by channel id
    const atPhone = new Map<string, number>();
    const send = session.send.bind(session);
    session.send = async (to, content, quoted, opts) => {
      const sent = await send(to, content, quoted, opts);
      atPhone.set(opts.id, performance.now());
      return sent;
    };
    const agents: { token: string; ticketId: number }[] = [];
    for (let a = 0; a < AGENTS; a++) {
      const email = `agente${a}@bench.local`;
      await call(env, "POST", "/users", { name: `Agente ${a}`, email, password: "segredo1", profile: "user", queueIds: [queue.id] });
      const login = await fetch(`${env.url}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "segredo1" }),
      });
      const token = ((await login.json()) as { token: string }).token;
      const number = `55119800000${String(a).padStart(2, "0")}`;
      await session.customerSend({ number, name: `Cliente ${a}`, body: "oi" });
      await env.app.channels.idle();
      const [row] = (
        await env.app.ctx.db.execute<{ id: number }>(
          sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ${number}`,
        )
      ).rows;
      const res = await fetch(`${env.url}/tickets/${row.id}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ status: "open" }),
      });
      if (!res.ok) throw new Error(`accept: ${res.status}`);
      agents.push({ token, ticketId: row.id });
    }
    const answers: number[] = [];
    const sentAt = new Map<string, number>();
    let statements = 0;
    const off = env.database.onQuery(() => statements++);
    const started = performance.now();
    await Promise.all(
      agents.map(async (agent, a) => {
        const begin = performance.now() + Math.random() * EVERY_MS;
        for (let i = 0; i < PER_AGENT; i++) {
          if (EVERY_MS) {
            const at = begin + i * EVERY_MS * (1 + Math.random() * 0.2);
            const wait = at - performance.now();
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          }
          const t0 = performance.now();
          const res = await fetch(`${env.url}/messages/${agent.ticketId}`, {
            method: "POST",
            headers: { authorization: `Bearer ${agent.token}`, "content-type": "application/json", "idempotency-key": `bench-${a}-${i}` },
            body: JSON.stringify({ body: `mensagem ${i} do agente ${a}` }),
          });
          const [m] = (await res.json()) as { wid: string }[];
          answers.push(performance.now() - t0);
          sentAt.set(m.wid, t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await env.app.sender.idle();
    off();
    const toPhone = [...sentAt].map(([wid, t0]) => (atPhone.get(wid) ?? Number.NaN) - t0).filter((v) => !Number.isNaN(v));
    console.log(`POST /messages answered (stored + queued): ${fmt(summarize(answers, seconds))}`);
    console.log(`POST /messages → the customer's phone has it: ${fmt(summarize(toPhone))}`);
    console.log(`statements per sent message (request, send, acks): ${(statements / sentAt.size).toFixed(1)}`);
  } finally {
    await env.done();
  }
}

/**
 * The Disparos screen's reads over 100 000 rows (60 days, every status): the default page, a
 * status filter, a day range, a deep page, and the stats the cards show (counters kept by the
 * table's triggers, compared with counting the rows). 10 clients, on PostgreSQL and PGlite.
 */
async function disparosBench() {
  const ROWS = Number(process.env.BENCH_DISPARO_ROWS ?? 100_000);
  const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
  const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
  for (const engine of ["postgres", "pglite"] as const) {
    console.log(
      `\n## Disparos — ${ROWS} rows; ${CLIENTS} clients × ${DURATION_S} s per request, ${engine === "postgres" ? "PostgreSQL" : "PGlite"}`,
    );
    const env = await environment({ engine });
    try {
      const { whatsappId } = await simulatorConnection(env, []);
      // paused: the rows stay as generated while the requests run
      await call(env, "PUT", `/disparos/connections/${whatsappId}`, { paused: true });
      const t0 = performance.now();
      await env.app.ctx.db.execute(sql`
        insert into disparos (whatsapp_id, number, message, url, mimetype, status, reason, datetime, sent_at, created_at)
        select ${whatsappId}, '5511' || lpad((900000000 + g)::text, 9, '0'),
               'Olá {nome}, sua fatura de ' || (g % 28 + 1) || '/11 está disponível. {Qualquer dúvida|Dúvidas}, responda aqui.',
               case when g % 7 = 0 then '/media/0123456789abcdef0123456789abcdef.png' else '' end,
               case when g % 7 = 0 then 'image/png' else '' end,
               case when g % 20 < 12 then 'enviado' when g % 20 < 17 then 'a enviar' when g % 20 < 19 then 'com erro' else 'cancelado' end,
               case when g % 20 in (17, 18) then 'the number does not receive messages' else '' end,
               now() - make_interval(secs => (g * 51.84)::int), null, now()
        from generate_series(1, ${ROWS}) g`);
      await env.app.ctx.db.execute(sql.raw("analyze disparos"));
      console.log(`rows generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const day = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
      const requests: [string, string[]][] = [
        ["GET /disparos (page 1 of 50)", ["/disparos"]],
        ["GET /disparos status=a enviar", ["/disparos?status=a%20enviar&limit=50&page=1"]],
        ["GET /disparos from/to one day", [`/disparos?from=${day}T00:00:00&to=${day}T23:59:59&limit=50&page=1`]],
        ["GET /disparos page 100 (limit 50)", ["/disparos?limit=50&page=100"]],
        ["GET /disparos limit=200", ["/disparos?limit=200&page=1"]],
        ["GET /disparos/stats", ["/disparos/stats"]],
      ];
      for (const [label, paths] of requests) {
        for (let i = 0; i < 20; i++) await call(env, "GET", paths[i % paths.length]);
        const { samples, failures } = await new Promise<{ samples: number[]; failures: number }>((resolve, reject) => {
          const worker = new Worker(new URL("./load-worker.mjs", import.meta.url), {
            workerData: { url: env.url, token: env.token, paths, clients: CLIENTS, seconds: DURATION_S },
          });
          worker.once("message", resolve);
          worker.once("error", reject);
        });
        if (failures) throw new Error(`${label}: ${failures} failed requests`);
        console.log(`${label.padEnd(38)} ${fmt(summarize(samples, DURATION_S))}`);
      }
      console.log("\nPlans:");
      await explain(env, "page 1", "select id from disparos order by datetime desc nulls last, id desc nulls last limit 50");
      await explain(
        env,
        "status page 1",
        "select id from disparos where status = 'a enviar' order by datetime desc nulls last, id desc nulls last limit 50",
      );
      await explain(env, "stats from the counters", "select status, sum(n) from disparo_counts group by status");
      await explain(env, "stats by counting the rows (what the counters spare)", "select status, count(*) from disparos group by status");
    } finally {
      await env.done();
    }
  }
}

/**
 * GET /metrics (the dashboard) over the list benchmark's data (50 000 tickets, 500 000 messages,
 * their history): warm = the same request again (answered from the few-seconds cache), 10
 * clients; cold = every request a different period end (nothing cached: every figure computed),
 * one client at a time, for the default period (7 days) and for the last 30 days. Targets: warm
 * p99 ≤ 50 ms, cold p99 ≤ 500 ms. On PostgreSQL and PGlite.
 */
async function metricsBench() {
  const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
  const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
  const COLD = Number(process.env.BENCH_COLD ?? 40);
  const engines = (process.env.BENCH_ENGINES ?? "postgres,pglite").split(",") as ("postgres" | "pglite")[];
  for (const engine of engines) {
    console.log(
      `\n## Dashboard — GET /metrics over ${SIZES.tickets} tickets, ${SIZES.tickets * SIZES.messagesPerTicket} messages; ${engine === "postgres" ? "PostgreSQL" : "PGlite"}`,
    );
    const env = await environment({ engine });
    try {
      const { whatsappId } = await simulatorConnection(env, []);
      await call(env, "PUT", "/settings/autoCloseHours", { value: "0" });
      const t0 = performance.now();
      await generate(env.database, whatsappId);
      console.log(`data generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      type First = { firstResponseTime: { overall: { count: number } }; today: number; total: number };
      // PGlite's generation blocks the event loop: the client's kept-alive socket may have been closed meanwhile (one retry)
      const m = await call<First>(env, "GET", "/metrics").catch(() => call<First>(env, "GET", "/metrics"));
      console.log(`(default period: ${m.firstResponseTime.overall.count} first responses; total ${m.total} tickets)`);

      for (let i = 0; i < 20; i++) await call(env, "GET", "/metrics");
      const { samples, failures } = await new Promise<{ samples: number[]; failures: number }>((resolve, reject) => {
        const worker = new Worker(new URL("./load-worker.mjs", import.meta.url), {
          workerData: { url: env.url, token: env.token, paths: ["/metrics"], clients: CLIENTS, seconds: DURATION_S },
        });
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      if (failures) throw new Error(`GET /metrics warm: ${failures} failed requests`);
      console.log(`${"GET /metrics warm (cached)".padEnd(38)} ${fmt(summarize(samples, DURATION_S))}`);

      const end = Date.now() + 86_400_000;
      for (const [label, days] of [
        ["GET /metrics cold, 7 days", 7],
        ["GET /metrics cold, 30 days", 30],
      ] as const) {
        const cold: number[] = [];
        for (let i = 0; i < COLD; i++) {
          // a period end not asked before: nothing cached
          const to = new Date(end - i * 1000);
          const from = new Date(to.getTime() - days * 86_400_000);
          const c0 = performance.now();
          await call(env, "GET", `/metrics?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`);
          cold.push(performance.now() - c0);
        }
        console.log(`${label.padEnd(38)} ${fmt(summarize(cold))}`);
      }
    } finally {
      await env.done();
    }
  }
}

/** The contract's PDF and its signed copy (pure functions of modules/contracts/pdf.ts): what the job and the acceptance spend. */
async function contractsBench() {
  const { buildContractPdf, appendEvidencePage } = await import("../apps/server/src/modules/contracts/pdf.js");
  const { DEFAULT_CONTRACT_TEMPLATE, fillTemplate } = await import("@balcao/contract");
  const { createHash } = await import("node:crypto");
  const texto = fillTemplate(DEFAULT_CONTRACT_TEMPLATE.corpo, { nome: "Maria da Silva", cpf: "529.982.247-25", plano: "Fibra 500" });
  const witnesses = [
    { nome: "Carlos Testemunha", cpf: "111.444.777-35" },
    { nome: "Dora Testemunha", cpf: "123.456.789-09" },
  ];
  console.log("\n== contracts (in process) ==");
  const gen: number[] = [];
  const signed: number[] = [];
  let size = 0;
  let signedSize = 0;
  for (let i = 0; i < 60; i++) {
    let t0 = performance.now();
    const pdf = await buildContractPdf({
      id: i + 1,
      titulo: DEFAULT_CONTRACT_TEMPLATE.titulo,
      texto,
      nome: "Maria da Silva",
      cpf: "529.982.247-25",
      witnesses,
      images: {},
      createdAt: new Date(),
    });
    if (i >= 10) gen.push(performance.now() - t0);
    size = pdf.length;
    t0 = performance.now();
    const out = await appendEvidencePage(pdf, {
      contractId: i + 1,
      titulo: DEFAULT_CONTRACT_TEMPLATE.titulo,
      nome: "Maria da Silva",
      cpf: "529.982.247-25",
      email: "maria@example.com",
      telefone: "5511987654321",
      atendente: "Ana",
      originalSha256: createHash("sha256").update(pdf).digest("hex"),
      templateVersion: 1,
      sentAt: new Date().toISOString(),
      firstViewAt: new Date().toISOString(),
      signedAt: new Date(),
      timeZone: "America/Sao_Paulo",
      ip: "203.0.113.7",
      userAgent: "Mozilla/5.0 (Linux; Android 14)",
      nameTyped: "Maria da Silva",
      witnesses,
    });
    createHash("sha256").update(out).digest("hex");
    if (i >= 10) signed.push(performance.now() - t0);
    signedSize = out.length;
  }
  console.log(`${"generate PDF (default template)".padEnd(38)} ${fmt(summarize(gen))}  ${(size / 1024).toFixed(1)} KiB`);
  console.log(`${"sign: evidence page + SHA-256".padEnd(38)} ${fmt(summarize(signed))}  ${(signedSize / 1024).toFixed(1)} KiB`);
}

// ---------------------------------------------------------------------------------------------

/**
 * POST /api/messages/send as an ISP's billing system calls it: one connection token, distinct
 * customers (most without a ticket: a closed one is made for each), IN_FLIGHT requests at once.
 * "Accepted" = answered 200 (stored + queued in the outbox); the rate limit is raised for the run.
 */
async function messageApiBench() {
  const TOTAL = Number(process.env.BENCH_API_SENDS ?? 2000);
  const IN_FLIGHT = Number(process.env.BENCH_API_IN_FLIGHT ?? 16);
  const CUSTOMERS = 500;
  console.log(
    `\n## POST /api/messages/send — ${TOTAL} calls, ${IN_FLIGHT} in flight, ${CUSTOMERS} customers, one token, PGlite (embedded, on disk), no send pacing`,
  );
  const env = await environment({ engine: "pglite", config: { API_RATE_PER_MIN: "1000000" } });
  try {
    const { whatsappId } = await simulatorConnection(env, []);
    await call(env, "PUT", `/whatsapp/${whatsappId}`, { token: "bench-token" });
    const answers: number[] = [];
    let refused = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < TOTAL) {
          const i = next++;
          const t0 = performance.now();
          const res = await fetch(`${env.url}/api/messages/send`, {
            method: "POST",
            headers: { authorization: "Bearer bench-token", "content-type": "application/json" },
            body: JSON.stringify({
              number: `55119770${String(i % CUSTOMERS).padStart(5, "0")}`,
              body: `Sua fatura nº ${i} está disponível.`,
            }),
          });
          await res.arrayBuffer();
          if (res.ok) answers.push(performance.now() - t0);
          else refused++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`accepted (stored + queued): ${fmt(summarize(answers, seconds))}${refused ? `  refused ${refused}` : ""}`);
    const t0 = performance.now();
    await env.app.sender.idle();
    console.log(`the outbox drained to the phones ${((performance.now() - t0) / 1000).toFixed(1)} s after the last answer`);
  } finally {
    await env.done();
  }
}

/**
 * A busy morning on one number with the DEFAULT connection settings (send pace 1 s + 0–1.5 s,
 * burst 3; typing gap per chat; disparo pace 8–15 s): 20 agents each replying every 2 s in their
 * own chat, 100 customers writing within one minute to the bots (the greeting with the queue menu,
 * then their choice and the queue's greeting), and a disparo of 500 running all along. Prints agent
 * POST → the customer's phone, customer message → the bot's reply on the phone, and the disparo's
 * achieved pace. Bounded: BENCH_REPLY_SECONDS (90) of load, then at most 30 s for what is queued; a
 * message still queued then counts with the time it waited so far (a lower bound).
 */
async function repliesBench() {
  const AGENTS = 20;
  const EVERY_MS = 2000;
  const CUSTOMERS = 100;
  const DISPARO = 500;
  const SECONDS = Number(process.env.BENCH_REPLY_SECONDS ?? 90);
  const engine = (process.env.BENCH_ENGINE ?? "pglite") as "pglite" | "postgres";
  console.log(
    `\n## Replies beside the pace — one number, default send settings, ${AGENTS} agents replying every ${EVERY_MS / 1000} s for ${SECONDS} s, ${CUSTOMERS} customers writing to the bots within 60 s, a disparo of ${DISPARO}; ${engine === "postgres" ? "PostgreSQL" : "PGlite (embedded, on disk)"}`,
  );
  const env = await environment({ engine });
  try {
    const q1 = await call<{ id: number }>(env, "POST", "/queue", {
      name: "Suporte",
      color: "#123456",
      greetingMessage: "Suporte: um atendente já vai falar com você.",
    });
    const q2 = await call<{ id: number }>(env, "POST", "/queue", {
      name: "Financeiro",
      color: "#654321",
      greetingMessage: "Financeiro: em instantes enviamos a sua fatura.",
    });
    // default send settings: nothing about the pace in the request
    const w = await call<{ id: number; sendIntervalMs: number; sendJitterMs: number; sendBurst: number; replyGapMs?: number }>(
      env,
      "POST",
      "/whatsapp",
      {
        name: "Provedor",
        type: "simulator",
        queueIds: [q1.id, q2.id],
        greetingMessage: "Olá! Sou o assistente do provedor.",
      },
    );
    const defaults = { sendIntervalMs: w.sendIntervalMs, sendJitterMs: w.sendJitterMs, sendBurst: w.sendBurst };
    console.log(`connection settings: ${JSON.stringify({ ...defaults, ...(w.replyGapMs !== undefined && { replyGapMs: w.replyGapMs }) })}`);
    await env.app.channels.idle();
    const session = env.app.simulator.get(w.id);
    if (!session || !(await session.scan(session.qrcode))) throw new Error("pairing failed");
    await env.app.channels.idle();

    // when each message reached its phone, by channel id, and to whom
    const atPhone = new Map<string, { at: number; to: string; body: string }>();
    const send = session.send.bind(session);
    session.send = async (to, content, quoted, opts) => {
      const sent = await send(to, content, quoted, opts);
      atPhone.set(opts.id, { at: performance.now(), to: to.number ?? "", body: content.kind === "text" ? content.body : "" });
      return sent;
    };

    // setup, sent quickly (the pace lifted for it): each agent's customer picked Suporte and the agent took the ticket
    await call(env, "PUT", `/whatsapp/${w.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
    const agents: { token: string; ticketId: number }[] = [];
    for (let a = 0; a < AGENTS; a++) {
      const email = `agente${a}@bench.local`;
      await call(env, "POST", "/users", { name: `Agente ${a}`, email, password: "segredo1", profile: "user", queueIds: [q1.id, q2.id] });
      const login = await fetch(`${env.url}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "segredo1" }),
      });
      const token = ((await login.json()) as { token: string }).token;
      const number = `55119800000${String(a).padStart(2, "0")}`;
      await session.customerSend({ number, name: `Cliente ${a}`, body: "oi" });
      await env.app.channels.idle();
      await session.customerSend({ number, name: `Cliente ${a}`, body: "1" });
      await env.app.channels.idle();
      const [row] = (
        await env.app.ctx.db.execute<{ id: number }>(
          sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ${number}`,
        )
      ).rows;
      const res = await fetch(`${env.url}/tickets/${row.id}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ status: "open" }),
      });
      if (!res.ok) throw new Error(`accept: ${res.status} ${await res.text()}`);
      agents.push({ token, ticketId: row.id });
    }
    await env.app.sender.idle();
    await call(env, "PUT", `/whatsapp/${w.id}`, defaults);

    let statements = 0;
    const off = env.database.onQuery(() => statements++);
    // the server runs in this process: how long its event loop was held up (a busy machine shows here)
    const loop = monitorEventLoopDelay({ resolution: 20 });
    loop.enable();
    const phonesBefore = atPhone.size;
    const started = performance.now();
    const endAt = started + SECONDS * 1000;

    // the disparo: 500 numbers that never wrote
    const disparoNumbers = new Set(Array.from({ length: DISPARO }, (_, i) => `55119700${String(i).padStart(5, "0")}`));
    await call(env, "POST", "/disparos", {
      whatsappId: w.id,
      rows: [...disparoNumbers].map((number) => ({ number, message: "Olá {nome}, a sua fatura de novembro já está disponível." })),
    });

    // the bots' customers: "oi" at a random moment of the first minute, their choice ("2") 5 s later
    const botSays = new Map<string, { oi: number; choice?: number }>();
    const botRun = Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        const number = `55119600${String(i).padStart(5, "0")}`;
        await new Promise((r) => setTimeout(r, Math.random() * 60_000));
        botSays.set(number, { oi: performance.now() });
        await session.customerSend({ number, name: `Cliente ${i}`, body: "oi" });
        await new Promise((r) => setTimeout(r, 5000));
        const said = botSays.get(number);
        if (said) said.choice = performance.now();
        await session.customerSend({ number, name: `Cliente ${i}`, body: "2" });
      }),
    );

    // the agents: one reply every 2 s (±10 %), each in their own chat
    const posted = new Map<string, number>();
    const answers: number[] = [];
    const agentRun = Promise.all(
      agents.map(async (agent, a) => {
        let at = started + Math.random() * EVERY_MS;
        for (let i = 0; ; i++) {
          at += EVERY_MS * (0.9 + Math.random() * 0.2);
          if (at > endAt) return;
          const wait = at - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const t0 = performance.now();
          const post = () =>
            fetch(`${env.url}/messages/${agent.ticketId}`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${agent.token}`,
                "content-type": "application/json",
                "idempotency-key": `replies-${a}-${i}`,
              },
              body: JSON.stringify({ body: `resposta ${i} do agente ${a}` }),
            });
          // a kept-alive socket the server closed meanwhile: retried with the same key (one message still)
          const res = await post().catch(() => post());
          const [m] = (await res.json()) as { wid: string }[];
          answers.push(performance.now() - t0);
          posted.set(m.wid, t0);
        }
      }),
    );
    await Promise.all([botRun, agentRun]);
    const loadEnd = performance.now();
    // what is queued for the agents and the bots may arrive for 30 s more
    for (let i = 0; i < 150; i++) {
      const { rows } = await env.app.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from outbox where whatsapp_id = ${w.id} and priority < 3 and failed_at is null`,
      );
      if ([...posted.keys()].every((wid) => atPhone.has(wid)) && Number(rows[0].n) === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const end = performance.now();
    off();
    loop.disable();

    const agentLat = [...posted].map(([wid, t0]) => (atPhone.get(wid)?.at ?? end) - t0);
    const agentMissing = [...posted.keys()].filter((wid) => !atPhone.has(wid)).length;
    const botLat: number[] = [];
    const disparoAt: number[] = [];
    let sentInRun = 0;
    for (const [, m] of [...atPhone].slice(phonesBefore)) {
      sentInRun++;
      const said = botSays.get(m.to);
      if (said) {
        const trigger = m.body.startsWith("Financeiro:") || m.body.startsWith("Suporte:") ? said.choice : said.oi;
        if (trigger !== undefined) botLat.push(m.at - trigger);
      } else if (disparoNumbers.has(m.to)) disparoAt.push(m.at);
    }
    // bot replies still queued at the end: (greeting + menu, queue greeting) not on the phone
    const { rows: botQueued } = await env.app.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from outbox where whatsapp_id = ${w.id} and priority = 1 and failed_at is null`,
    );
    const seconds = (loadEnd - started) / 1000;
    console.log(`POST /messages answered: ${fmt(summarize(answers, seconds))}`);
    console.log(
      `agent POST → customer's phone: ${fmt(summarize(agentLat))}  (${posted.size} replies${agentMissing ? `, ${agentMissing} still queued at the end, counted as waiting until then` : ""})`,
    );
    console.log(
      `customer message → bot reply on the phone: ${fmt(summarize(botLat))}  (${botLat.length} bot messages${Number(botQueued[0].n) ? `, ${botQueued[0].n} still queued at the end` : ""})`,
    );
    disparoAt.sort((x, y) => x - y);
    const gaps = disparoAt.slice(1).map((t, i) => (t - disparoAt[i]) / 1000);
    const mean = gaps.length ? gaps.reduce((x, y) => x + y, 0) / gaps.length : Number.NaN;
    console.log(
      `disparo: ${disparoAt.length} of ${DISPARO} reached phones in ${((end - started) / 1000).toFixed(0)} s (its pace: one every 8–15 s); achieved: ${gaps.length ? `one every ${mean.toFixed(1)} s (min ${Math.min(...gaps).toFixed(1)}, max ${Math.max(...gaps).toFixed(1)})` : "n/a"}`,
    );
    console.log(
      `the process's event loop held up (the server${engine === "pglite" ? " and PGlite" : ""} run in it): p50 ${(loop.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`,
    );
    console.log(
      `statements per message sent (everything the run did: inbound, bots, disparo, sends): ${(statements / Math.max(1, sentInRun)).toFixed(1)} (${statements} / ${sentInRun})`,
    );
  } finally {
    await env.done();
  }
}

const which = process.argv[2];
if (!which || which === "inbound") {
  // BENCH_JOURNAL=only: the journaled runs alone (profiles); BENCH_SOURCE=simulator|channel: that source alone
  const sources = (process.env.BENCH_SOURCE ? [process.env.BENCH_SOURCE] : ["simulator", "channel"]) as ("simulator" | "channel")[];
  for (const source of sources) await inbound(true, source);
  if (process.env.BENCH_JOURNAL !== "only") await inbound(false);
}
if (!which || which === "outbound") await outbound();
if (!which || which === "lists") await lists();
if (!which || which === "disparos") await disparosBench();
if (!which || which === "metrics") await metricsBench();
if (!which || which === "contracts") await contractsBench();
if (!which || which === "api") await messageApiBench();
if (!which || which === "replies") await repliesBench();
if (!which || which === "serializer") (await import("./serializer.js")).serializerBench();
if (which === "cluster") await (await import("./cluster.js")).clusterBench();
process.exit(0);
