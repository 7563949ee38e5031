/**
 * One process vs three (issue 28): the built server (apps/server/dist, `npm run build`) started by
 * deploy/cluster.mjs behind HAProxy, on a fresh PostgreSQL database with Redis, measured through
 * the load balancer:
 *   inbound: customers' messages through the simulator's HTTP API on the session's owner (WhatsApp
 *            delivers a number's messages to the process holding its socket; BENCH_PHONE_VIA_LB=1
 *            sends them through the load balancer instead), messages stored per second, until every
 *            one is in the database;
 *   agent POST: 20 agents sending back to back through the load balancer, POST /messages answer times,
 *            in two rounds: processes cold (their first sends), then warm (the comparison's figure).
 *   Each phase also prints the CPU the server processes and PostgreSQL spent per message.
 *   npm run bench -- cluster        (BENCH_CLUSTER_MESSAGES, BENCH_CLUSTER_SENDS, BENCH_REDIS_URL, BENCH_PHONE_VIA_LB,
 *                                    BENCH_POST_VIA=owner|other, BENCH_CLUSTER_ONLY=3, BENCH_NODE_ARGS,
 *                                    BENCH_POOL_TOTAL: connections of all the pools together, default 20)
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
// @ts-expect-error a plain ES module without types (deploy/cluster.mjs)
import { startCluster } from "../deploy/cluster.mjs";
import { fmt, summarize } from "./stats.js";

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const MESSAGES = Number(process.env.BENCH_CLUSTER_MESSAGES ?? 4000);
const CUSTOMERS = 200;
const IN_FLIGHT = 32;
const AGENTS = 20;
const SENDS = Number(process.env.BENCH_CLUSTER_SENDS ?? 50);
const VIA_LB = process.env.BENCH_PHONE_VIA_LB === "1";
/** PostgreSQL connections of all the processes together: the product's default pool (20) */
const POOL_TOTAL = Number(process.env.BENCH_POOL_TOTAL ?? 20);
/** BENCH_CLUSTER_ONLY=3: the three-process run alone (experiments) */
const ONLY_THREE = process.env.BENCH_CLUSTER_ONLY === "3";

interface Cluster {
  base: string;
  servers: { name: string; port: number; url: string; proc: { pid?: number } }[];
  stop(): Promise<void>;
}

/** CPU seconds (user + system) a process has used, from /proc (0 when it is gone). */
function cpuSeconds(pid: number, withEnded = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12]) + (withEnded ? Number(fields[13]) + Number(fields[14]) : 0)) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of the server processes and of PostgreSQL (every `postgres` process on the machine, and those that ended: the postmaster's reaped children). */
function cpuNow(c: Cluster): { servers: number; postgres: number; each: number[]; machineBusy: number; machineTotal: number } {
  let postgres = 0;
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, "utf8").trim() === "postgres") postgres += cpuSeconds(Number(d), true);
    } catch {}
  }
  const each = c.servers.map((s) => (s.proc.pid ? cpuSeconds(s.proc.pid) : 0));
  // the whole machine (load generator, HAProxy, Redis included): busy and total ticks of /proc/stat's first line
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { servers: each.reduce((a, b) => a + b, 0), postgres, each, machineBusy: total - f[3] - f[4], machineTotal: total };
}

type Cpu = ReturnType<typeof cpuNow>;
const cpuLine = (a: Cpu, b: Cpu, n: number, what: string) =>
  `CPU per ${what}: servers ${(((b.servers - a.servers) * 1000) / n).toFixed(2)} ms${
    b.each.length > 1 ? ` (${b.each.map((x, i) => (((x - (a.each[i] ?? 0)) * 1000) / n).toFixed(2)).join(" + ")})` : ""
  } + PostgreSQL ${(((b.postgres - a.postgres) * 1000) / n).toFixed(2)} ms; machine busy ${(
    ((b.machineBusy - a.machineBusy) / Math.max(1, b.machineTotal - a.machineTotal)) * cpus().length
  ).toFixed(2)} of ${cpus().length} cores`;

async function json<T>(base: string, token: string | undefined, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { "content-type": "application/json" }) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function until<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out: ${what}`);
}

async function run(processes: number): Promise<{ inbound: number; postP99: number }> {
  const name = `balcao_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dbUrl = new URL(SERVER_URL);
  dbUrl.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  let cluster: Cluster | undefined;
  try {
    cluster = (await startCluster({
      processes,
      stdio: "ignore",
      // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": each server process's profile, written at its SIGTERM
      nodeArgs: process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [],
      env: {
        DATABASE_URL: dbUrl.toString(),
        // the same PostgreSQL connections in total whatever the number of processes (deploy/README.md: size
        // each pool to the database), so three processes do not bring three times the backends to two cores
        DATABASE_POOL_SIZE: String(Math.ceil(POOL_TOTAL / processes)),
        REDIS_URL,
        NODE_ENV: "development",
        LOG_LEVEL: "warn",
        ENABLE_SIMULATOR: "true",
        LOGIN_RATE_PER_IP: "100000",
        API_RATE_PER_MIN: "100000",
      },
    })) as Cluster;
    const c = cluster;
    await db.connect();
    const login = async (email: string, password: string) =>
      (await json<{ token: string }>(c.base, undefined, "POST", "/auth/login", { email, password })).token;
    const token = await login("admin@balcao.local", "admin123");
    const queue = await json<{ id: number }>(c.base, token, "POST", "/queue", { name: "Suporte", color: "#123456", greetingMessage: "" });
    const conn = await json<{ id: number }>(c.base, token, "POST", "/simulator/api/connections", { name: "Bench", queueIds: [queue.id] });
    await json(c.base, token, "PUT", `/whatsapp/${conn.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20, replyGapMs: 0 });
    // the phone's side: the process that owns the session (any process once calls reach the owner)
    const owner = await until(async () => {
      for (const s of c.servers)
        if ((await json<{ sessions: number[] }>(s.url, undefined, "GET", "/health")).sessions.includes(conn.id)) return s;
      return undefined;
    }, "the session's owner");
    const qr = await until(async () => {
      const all = await json<{ id: number; status: string; qrcode: string }[]>(owner.url, token, "GET", "/simulator/api/connections");
      const x = all.find((a) => a.id === conn.id);
      return x?.status === "qrcode" && x.qrcode;
    }, "the QR code");
    await json(owner.url, token, "POST", `/simulator/api/connections/${conn.id}/scan`, { qrcode: qr });
    await until(async () => {
      const r = await db.query("select status from whatsapps where id = $1", [conn.id]);
      return r.rows[0]?.status === "CONNECTED";
    }, "pairing");

    // inbound: customers write through the simulator's API on the session's owner, as WhatsApp
    // delivers a real number's messages to the socket its owner holds (BENCH_PHONE_VIA_LB=1: through
    // the load balancer, so two of three land on a process that hands each to the owner)
    const phoneBase = VIA_LB ? c.base : owner.url;
    const numbers = Array.from({ length: CUSTOMERS }, (_, i) => `5511${String(910000000 + i)}`);
    let next = 0;
    const cpuIn = cpuNow(c);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < MESSAGES) {
          const i = next++;
          await json(phoneBase, token, "POST", `/simulator/api/connections/${conn.id}/messages`, {
            number: numbers[i % CUSTOMERS],
            name: `Cliente ${i % CUSTOMERS}`,
            body: `mensagem ${Math.floor(i / CUSTOMERS)}`,
          });
        }
      }),
    );
    await until(
      async () => {
        const r = await db.query("select count(*)::int as n from messages where from_me = false");
        return r.rows[0].n >= MESSAGES;
      },
      "every inbound message stored",
      600_000,
    );
    const inboundSeconds = (performance.now() - started) / 1000;
    const inbound = MESSAGES / inboundSeconds;
    console.log(
      `  inbound: ${MESSAGES} messages from ${CUSTOMERS} customers stored in ${inboundSeconds.toFixed(1)} s = ${inbound.toFixed(0)} messages/s; ${cpuLine(cpuIn, cpuNow(c), MESSAGES, "message")}`,
    );

    // agents: each accepts one customer's ticket and sends back to back through the load balancer
    const tickets = (await db.query("select id from tickets order by id limit $1", [AGENTS])).rows.map((r) => Number(r.id));
    const agents: { token: string; ticketId: number }[] = [];
    for (let a = 0; a < AGENTS; a++) {
      const email = `agente${a}@bench.local`;
      await json(c.base, token, "POST", "/users", {
        name: `Agente ${a}`,
        email,
        password: "segredo1",
        profile: "user",
        queueIds: [queue.id],
      });
      const t = await login(email, "segredo1");
      await json(c.base, t, "PUT", `/tickets/${tickets[a]}`, { status: "open" });
      agents.push({ token: t, ticketId: tickets[a] });
    }
    // BENCH_POST_VIA=owner | other: every send straight to the session's owner, or to one process that is not it
    const postBase =
      process.env.BENCH_POST_VIA === "owner"
        ? owner.url
        : process.env.BENCH_POST_VIA === "other"
          ? (c.servers.find((x) => x !== owner) ?? owner).url
          : c.base;
    // two rounds of the same sends: the first meets each process's code cold (V8 compiles what runs
    // hot as it runs, and with three processes each compiles its own, a third of the sends apiece);
    // the second is a process that has served for a while, the state a deployment runs in
    const round = async (label: string, tag: string) => {
      const answers: number[] = [];
      const cpuOut = cpuNow(c);
      const t0 = performance.now();
      await Promise.all(
        agents.map(async (agent, a) => {
          for (let i = 0; i < SENDS; i++) {
            const s = performance.now();
            const res = await fetch(`${postBase}/messages/${agent.ticketId}`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${agent.token}`,
                "content-type": "application/json",
                "idempotency-key": `bench-${tag}-${a}-${i}`,
              },
              body: JSON.stringify({ body: `resposta ${i} do agente ${a}` }),
            });
            if (!res.ok) throw new Error(`POST /messages: ${res.status} ${await res.text()}`);
            await res.arrayBuffer();
            answers.push(performance.now() - s);
          }
        }),
      );
      const sent = AGENTS * SENDS;
      // the CPU of a send includes the owner's sending it: counted once the round's messages all left
      await until(async () => {
        const r = await db.query("select count(*)::int as n from messages where from_me and ack >= 1 and body like 'resposta %'");
        return r.rows[0].n >= sent * (tag === "cold" ? 1 : 2);
      }, "the round's messages sent");
      const s = summarize(answers, (performance.now() - t0) / 1000);
      console.log(
        `  agent POST /messages (${AGENTS} agents back to back, ${label}): ${fmt(s)}; ${cpuLine(cpuOut, cpuNow(c), answers.length, "send")}`,
      );
      return s;
    };
    const cold = await round("first round, cold processes", "cold");
    const s = await round("second round, warm", "warm");
    console.log(`  agent POST p99: ${cold.p99.toFixed(1)} ms cold, ${s.p99.toFixed(1)} ms warm`);
    return { inbound, postP99: s.p99 };
  } finally {
    await db.end().catch(() => undefined);
    await cluster?.stop();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

export async function clusterBench(): Promise<void> {
  console.log(
    `\n## One process vs three — behind HAProxy, PostgreSQL + Redis: ${MESSAGES} inbound messages (${IN_FLIGHT} in flight, ${VIA_LB ? "through the load balancer" : "to the session's owner, as WhatsApp delivers them"}), ${AGENTS} agents × ${SENDS} sends through the load balancer`,
  );
  const results: Record<number, { inbound: number; postP99: number }> = {};
  for (const n of ONLY_THREE ? [3] : [1, 3]) {
    console.log(`### ${n} process${n > 1 ? "es" : ""} (pool of ${Math.ceil(POOL_TOTAL / n)} connections each)`);
    results[n] = await run(n);
  }
  if (ONLY_THREE) return;
  console.log(
    `one process: ${results[1].inbound.toFixed(0)} inbound messages/s, agent POST p99 ${results[1].postP99.toFixed(1)} ms (warm)\n` +
      `three processes: ${results[3].inbound.toFixed(0)} inbound messages/s, agent POST p99 ${results[3].postP99.toFixed(1)} ms (warm)`,
  );
}
