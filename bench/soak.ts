/**
 * The soak: a working day compressed onto PostgreSQL, printed per interval, asserting nothing.
 *   cd apps/server && npm run soak                      60 minutes, a row per 5 minutes
 *   SOAK_MINUTES=12 SOAK_INTERVAL_MINUTES=2 npm run soak
 * 20 agents (each polls its lists every 3 s, opens a ticket's messages and answers its customers), 3 numbers
 * (simulator connections: a queue menu with two queues, a sole queue, a sole queue with a chat entry), 10 customer
 * messages a second spread over 600 customers (the bots answer the new ones: menu, shortcut), a disparo of 2 000 at
 * its pace, a schedule due every 10 s, and the dashboard (GET /metrics) every 5 s. Per interval: the process's RSS
 * (server and load share it, as in the other benchmarks), p50/p99 of each request kind, and lost / twice: customer
 * messages sent more than 30 s ago and not stored, channel ids stored twice, agent replies on the phone twice, and
 * the CPU (% of one core) of this process and of PostgreSQL.
 * Writes bench/results/soak-<date>.md (the table) and .svg (RSS and p99 per interval).
 * Not covered: the billing self-service (it needs an SGP / MK-AUTH fake; the bots here are the menu and chat entries).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.js";
import { DEMO_ADMIN, loadConfig } from "../apps/server/src/config.js";
import { openDatabase } from "../apps/server/src/db/client.js";
import { postgresCpuSeconds } from "./stats.js";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const INTERVAL_MIN = Number(process.env.SOAK_INTERVAL_MINUTES ?? 5);
const RATE = Number(process.env.SOAK_RATE ?? 10);
const AGENTS = 20;
const CUSTOMERS = 600;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const name = `balcao_soak_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const dbUrl = new URL(SERVER_URL);
dbUrl.pathname = `/${name}`;
const dataDir = mkdtempSync(join(tmpdir(), "balcao-soak-"));
const database = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 20 });
const config = loadConfig({ NODE_ENV: "development", DATA_DIR: dataDir, LOG_LEVEL: "silent", JWT_SECRET: randomBytes(32).toString("hex") });
const built = await buildApp(config, { database, logger: false, serveWeb: false, simulatorAckDelayMs: 50 });
await built.app.listen({ port: 0, host: "127.0.0.1" });
const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;

// The web client refreshes its access token before it expires (ACCESS_TOKEN_TTL, 15 min); here a
// user signs in again when a request is refused (401, or 403 once it expired), and the first token stays the user's handle.
const credentials = new Map<string, { email: string; password: string }>();
const renewed = new Map<string, string>();
let signIns = 0;
async function login(body: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const token = ((await res.json()) as { token: string }).token;
  credentials.set(token, body);
  return token;
}
async function call<T>(handle: string, method: string, path: string, body?: unknown): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${renewed.get(handle) ?? handle}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const who = credentials.get(handle);
    // an expired access token answers 403 ERR_SESSION_EXPIRED (a missing one 401), as the spec's client expects
    if ((res.status === 401 || res.status === 403) && attempt === 0 && who) {
      await res.arrayBuffer();
      signIns++;
      renewed.set(handle, await login(who));
      continue;
    }
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
}

const adminToken = await login(DEMO_ADMIN);
await call(adminToken, "PUT", "/settings/autoCloseHours", { value: "0" }).catch(() => undefined);
const q1 = await call<{ id: number }>(adminToken, "POST", "/queue", {
  name: "Suporte",
  color: "#123456",
  greetingMessage: "Suporte: já vamos atender.",
});
const q2 = await call<{ id: number }>(adminToken, "POST", "/queue", { name: "Financeiro", color: "#654321", greetingMessage: "" });
await call(adminToken, "POST", "/chatbot", { shortcut: "horario", message: "Atendemos das 8h às 20h." }).catch(() => undefined);
const numbers: { id: number; session: NonNullable<ReturnType<typeof built.simulator.get>> }[] = [];
for (const [i, queueIds] of [[q1.id, q2.id], [q1.id], [q2.id]].entries()) {
  const w = await call<{ id: number }>(adminToken, "POST", "/whatsapp", {
    name: `Número ${i + 1}`,
    type: "simulator",
    queueIds,
    greetingMessage: "Olá! Escolha uma opção:",
  });
  await built.channels.idle();
  const session = built.simulator.get(w.id);
  if (!session || !(await session.scan(session.qrcode))) throw new Error("pairing failed");
  await built.channels.idle();
  numbers.push({ id: w.id, session });
}
const agents: string[] = [];
for (let a = 0; a < AGENTS; a++) {
  const email = `agente${a}@soak.local`;
  await call(adminToken, "POST", "/users", { name: `Agente ${a}`, email, password: "segredo1", profile: "user", queueIds: [q1.id, q2.id] });
  agents.push(await login({ email, password: "segredo1" }));
}

// what each request kind took, per interval
type Kind = "GET /tickets" | "GET /messages/{id}" | "POST /messages/{id}" | "PUT /tickets/{id}" | "GET /metrics" | "customer → stored";
let samples = new Map<Kind, number[]>();
const record = (k: Kind, ms: number) => {
  const list = samples.get(k) ?? [];
  if (!list.length) samples.set(k, list);
  list.push(ms);
};
async function timed<T>(k: Kind, f: () => Promise<T>): Promise<T | undefined> {
  const t0 = performance.now();
  try {
    return await f();
  } catch {
    return undefined;
  } finally {
    record(k, performance.now() - t0);
  }
}

const started = performance.now();
const endAt = started + MINUTES * 60_000;
const running = () => performance.now() < endAt;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// customers: RATE messages a second, ids kept to check lost / twice
const sentAt = new Map<string, number>();
let seq = 0;
const customers = (async () => {
  while (running()) {
    const t = performance.now();
    for (let i = 0; i < RATE; i++) {
      const n = seq++;
      const c = n % CUSTOMERS;
      const { session } = numbers[c % numbers.length];
      const id = `SOAK${n}`;
      sentAt.set(id, performance.now());
      const body = n < CUSTOMERS ? "oi" : n % 50 === 0 ? "horario" : n % 7 === 0 ? "1" : `mensagem ${n}`;
      void session.customerSend({ number: `55119${String(10000000 + c)}`, name: `Cliente ${c}`, body, id }).catch(() => undefined);
    }
    await sleep(Math.max(0, 1000 - (performance.now() - t)));
  }
})();
const stored = new Map<string, number>();
built.ctx.events.on("message.created", ({ message }) => {
  if (message.wid?.startsWith("SOAK")) {
    const t0 = sentAt.get(message.wid);
    if (t0 !== undefined && !stored.has(message.wid)) record("customer → stored", performance.now() - t0);
    stored.set(message.wid, (stored.get(message.wid) ?? 0) + 1);
  }
});

// agents: their lists every 3 s, a pending ticket accepted now and then, its messages read and answered
let replies = 0;
const agentLoops = agents.map(async (token, a) => {
  await sleep(a * 150);
  while (running()) {
    const open = await timed("GET /tickets", () => call<{ tickets: { id: number }[] }>(token, "GET", "/tickets?status=open&pageNumber=1"));
    const pending = await timed("GET /tickets", () =>
      call<{ tickets: { id: number }[] }>(token, "GET", "/tickets?status=pending&pageNumber=1"),
    );
    if (pending?.tickets.length && (open?.tickets.length ?? 0) < 5) {
      const t = pending.tickets[a % pending.tickets.length];
      await timed("PUT /tickets/{id}", () => call(token, "PUT", `/tickets/${t.id}`, { status: "open" }));
    }
    const mine = open?.tickets ?? [];
    if (mine.length) {
      const t = mine[Math.floor(Math.random() * mine.length)];
      await timed("GET /messages/{id}", () => call(token, "GET", `/messages/${t.id}`));
      await timed("POST /messages/{id}", () => call(token, "POST", `/messages/${t.id}`, { body: `resposta ${replies++} do agente ${a}` }));
      // a closed conversation now and then: the customer's next message opens a new one
      if (Math.random() < 0.1) await timed("PUT /tickets/{id}", () => call(token, "PUT", `/tickets/${t.id}`, { status: "closed" }));
    }
    await sleep(3000);
  }
});
const dashboard = (async () => {
  while (running()) {
    await timed("GET /metrics", () => call(adminToken, "GET", "/metrics"));
    await sleep(5000);
  }
})();
// a disparo at its pace, and a schedule due every 10 s
await call(adminToken, "POST", "/disparos", {
  whatsappId: numbers[0].id,
  rows: Array.from({ length: 2000 }, (_, i) => ({
    number: `55118${String(10000000 + i)}`,
    message: "Olá {nome}, a sua fatura já está disponível.",
  })),
}).catch((err) => console.log(`disparo: ${(err as Error).message}`));
const schedules = (async () => {
  while (running()) {
    await sleep(10_000);
    const { rows } = await built.ctx.db.execute<{ id: number }>(
      sql`select id from tickets where status <> 'closed' order by random() limit 1`,
    );
    if (!rows[0]) continue;
    const when = new Date(Date.now() + 10_000).toISOString();
    await call(adminToken, "POST", "/schedules", { ticketId: rows[0].id, message: "Lembrete: sua visita técnica é amanhã.", when }).catch(
      () => undefined,
    );
  }
})();

let cpuMark = { at: performance.now(), node: process.cpuUsage(), pg: postgresCpuSeconds() };

// the table, per interval
const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const kinds: Kind[] = [
  "customer → stored",
  "GET /tickets",
  "GET /messages/{id}",
  "POST /messages/{id}",
  "PUT /tickets/{id}",
  "GET /metrics",
];
const header = `| minute | RSS MiB | heap MiB | ${kinds.map((k) => `${k} n · p50 / p99 ms`).join(" | ")} | customer msgs sent | not stored 30 s after sending | stored twice | replies on the phone twice | disparo rows done | schedules sent | CPU % this process · PostgreSQL |`;
const rows: string[] = [header, `|${"---:|".repeat(kinds.length + 10)}`];
const series: { minute: number; rss: number; p99: Record<string, number> }[] = [];
console.log(
  `\n## Soak — ${MINUTES} min, PostgreSQL, ${AGENTS} agents, 3 numbers, ${RATE} customer messages/s, disparo + schedules + dashboard\n`,
);
console.log(header);
while (running()) {
  await sleep(Math.min(INTERVAL_MIN * 60_000, Math.max(0, endAt - performance.now())));
  const minute = Math.round((performance.now() - started) / 6_000) / 10;
  const now = performance.now();
  const due = [...sentAt].filter(([, t]) => now - t > 30_000).map(([id]) => id);
  const lost = due.filter((id) => !stored.has(id)).length;
  const { rows: dup } = await built.ctx.db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select wid from messages where wid like 'SOAK%' group by whatsapp_id, wid having count(*) > 1) d`,
  );
  const { rows: dupOut } = await built.ctx.db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select body from simulator_messages where from_me and body like 'resposta %' group by whatsapp_id, body having count(*) > 1) d`,
  );
  const { rows: progress } = await built.ctx.db.execute<{ d: number; s: number }>(
    sql`select (select count(*)::int from disparos where status <> 'a enviar') as d, (select count(*)::int from schedules where status = 'sent') as s`,
  );
  // CPU over the interval, in % of one core: this process (server, simulator phones, load) and PostgreSQL
  const cpu = { at: performance.now(), node: process.cpuUsage(), pg: postgresCpuSeconds() };
  const wallS = (cpu.at - cpuMark.at) / 1000;
  const nodePct = ((cpu.node.user + cpu.node.system - cpuMark.node.user - cpuMark.node.system) / 1e6 / wallS) * 100;
  const pgPct = ((cpu.pg - cpuMark.pg) / wallS) * 100;
  cpuMark = cpu;
  const mem = process.memoryUsage();
  const rss = mem.rss / 1048576;
  const p99: Record<string, number> = {};
  const cells = kinds.map((k) => {
    const xs = samples.get(k) ?? [];
    p99[k] = pct(xs, 99);
    return `${xs.length} · ${pct(xs, 50).toFixed(0)} / ${pct(xs, 99).toFixed(0)}`;
  });
  const row = `| ${minute} | ${rss.toFixed(0)} | ${(mem.heapUsed / 1048576).toFixed(0)} | ${cells.join(" | ")} | ${seq} | ${lost} | ${dup[0].n} | ${dupOut[0].n} | ${progress[0].d} | ${progress[0].s} | ${nodePct.toFixed(0)} · ${pgPct.toFixed(0)} |`;
  console.log(row);
  rows.push(row);
  series.push({ minute, rss, p99 });
  samples = new Map();
}
await Promise.all([customers, ...agentLoops, dashboard, schedules]);
// lost: what is still not stored once the load stopped and the backlog had 2 minutes to drain
for (let i = 0; i < 120 && [...sentAt.keys()].some((id) => !stored.has(id)); i++) await sleep(1000);
const lostAtEnd = [...sentAt.keys()].filter((id) => !stored.has(id)).length;
const twiceAtEnd = [...stored.values()].filter((n) => n > 1).length;
const summary = `customer messages: ${sentAt.size} sent, ${lostAtEnd} lost (not stored 2 min after the load stopped), ${twiceAtEnd} stored twice; ${signIns} sign-ins again after the 15-minute access token expired`;
console.log(summary);
rows.push("", summary);

// the plot: RSS (left axis) and the p99 of each kind (right axis) per interval
function svg(): string {
  const W = 900;
  const H = 420;
  const L = 60;
  const R = 60;
  const T = 30;
  const B = 50;
  const xs = series.map((s) => s.minute);
  const xMax = Math.max(1, ...xs);
  const rssMax = Math.max(1, ...series.map((s) => s.rss)) * 1.1;
  const pMax = Math.max(1, ...series.flatMap((s) => Object.values(s.p99).filter(Number.isFinite))) * 1.1;
  const X = (m: number) => L + (m / xMax) * (W - L - R);
  const Y = (v: number, max: number) => H - B - (v / max) * (H - T - B);
  const colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];
  const line = (pts: [number, number][], color: string, width = 2) =>
    `<polyline fill="none" stroke="${color}" stroke-width="${width}" points="${pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ")}"/>`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<title>Soak: RSS and p99 per request kind</title>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${L}" y="18">Soak (${MINUTES} min): RSS (black, left axis, MiB) and p99 per request kind (right axis, ms)</text>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#999"/><line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#999"/>`,
    `<line x1="${W - R}" y1="${T}" x2="${W - R}" y2="${H - B}" stroke="#999"/>`,
    `<text x="${L - 5}" y="${T + 4}" text-anchor="end">${rssMax.toFixed(0)}</text><text x="${L - 5}" y="${H - B}" text-anchor="end">0</text>`,
    `<text x="${W - R + 5}" y="${T + 4}">${pMax.toFixed(0)}</text><text x="${W - R + 5}" y="${H - B}">0</text>`,
    `<text x="${X(xMax)}" y="${H - B + 16}" text-anchor="end">${xMax} min</text>`,
    line(
      series.map((s) => [X(s.minute), Y(s.rss, rssMax)]),
      "black",
      3,
    ),
  ];
  kinds.forEach((k, i) => {
    const pts = series.filter((s) => Number.isFinite(s.p99[k])).map((s) => [X(s.minute), Y(s.p99[k], pMax)] as [number, number]);
    parts.push(line(pts, colors[i]));
    parts.push(
      `<text x="${L + 10 + (i % 3) * 270}" y="${H - 22 + Math.floor(i / 3) * 14}" fill="${colors[i]}">${k.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n");
}
const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
const out = join(import.meta.dirname, "results");
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, `soak-${stamp}.md`),
  `## Soak — ${MINUTES} min (a row per ${INTERVAL_MIN} min), PostgreSQL, ${AGENTS} agents, 3 numbers, ${RATE} customer messages/s, disparo + schedules + dashboard\n\n${rows.join("\n")}\n\n![plot](soak-${stamp}.svg)\n`,
);
writeFileSync(join(out, `soak-${stamp}.svg`), svg());
console.log(`\nwritten: bench/results/soak-${stamp}.md and .svg`);

await built.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
const c = new pg.Client({ connectionString: SERVER_URL });
await c.connect();
await c.query(`drop database if exists ${name} with (force)`);
await c.end();
process.exit(0);
