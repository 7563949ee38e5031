import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../src/config.js";

/**
 * Nothing lost, nothing twice — with the server process killed (SIGKILL) in the middle of the
 * work and started again on the same database. 50 customers send 2 000 messages through the
 * simulator while agents send 300 messages, 10 at a time; every request that fails because the
 * server died is sent again after the restart (customer messages with their message id, agent
 * sends with their Idempotency-Key). Then, counted by body and by channel id: every customer
 * message stored once, every agent message stored once and received once by the customer's phone.
 * Runs on PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite.
 */

const CUSTOMERS = 50;
const INBOUND = 2000;
const OUTBOUND = 300;
const OUT_PARALLEL = 10;
const IN_PARALLEL = 20;
/** the kill comes when this many agent sends have been answered (customer messages are still flowing then) */
const KILL_AFTER_OUTBOUND = 150;

const serverDir = resolve(import.meta.dirname, "..");
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

async function database(): Promise<{ env: Record<string, string>; engine: string }> {
  const url = process.env.TEST_DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), "balcao-crash-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (!url) return { env: { DATA_DIR: dataDir }, engine: "PGlite" };
  const name = `balcao_crash_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return { env: { DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString() }, engine: "PostgreSQL" };
}

class Server {
  proc?: ChildProcess;
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}
  get base() {
    return `http://127.0.0.1:${this.port}`;
  }
  async start() {
    const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: serverDir,
      env: {
        ...process.env,
        ...this.env,
        PORT: String(this.port),
        HOST: "127.0.0.1",
        NODE_ENV: "test",
        ENABLE_SIMULATOR: "true",
        LOG_LEVEL: "error",
        JWT_SECRET: "crash-test-secret-crash-test-secret-0123456789",
        LOGIN_RATE_PER_IP: "100000",
        LOGIN_RATE_PER_EMAIL: "100000",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr?.on("data", (d) => {
      stderr = (stderr + d).slice(-4000);
    });
    this.proc = proc;
    cleanups.push(() => {
      if (proc.exitCode === null) proc.kill("SIGKILL");
    });
    for (let i = 0; i < 600; i++) {
      if (proc.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      const up = await fetch(`${this.base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not start: ${stderr}`);
  }
  kill() {
    this.proc?.kill("SIGKILL");
    return new Promise<void>((r) => this.proc?.once("exit", () => r()));
  }
}

async function call(base: string, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw Object.assign(new Error(`${method} ${path}: ${res.status} ${text}`), { status: res.status });
  return text ? JSON.parse(text) : undefined;
}

/** Polls the admins' view until nothing waits in the journal or the outbox. */
async function quiet(base: string, token: string) {
  for (let i = 0; i < 1200; i++) {
    const jobs = await call(base, token, "GET", "/jobs");
    if (jobs.outbox.queued === 0 && jobs.inbound.pending === 0) return jobs;
    await new Promise((r) => setTimeout(r, 100));
  }
  return call(base, token, "GET", "/jobs");
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password }),
  });
  return ((await res.json()) as { token: string }).token;
}

/** Runs tasks `parallel` at a time; a task that fails (the server died) is kept for later. */
async function pool<T>(items: T[], parallel: number, task: (item: T) => Promise<void>, failed: T[], onDone?: () => void) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const item = items[next++];
        try {
          await task(item);
          onDone?.();
        } catch {
          failed.push(item);
        }
      }
    }),
  );
}

describe("a server killed mid-burst loses nothing and sends nothing twice", () => {
  it("2 000 customer messages in, 300 agent messages out, SIGKILL in the middle", async () => {
    const { env, engine } = await database();
    const server = new Server(await freePort(), env);
    await server.start();
    let token = await login(server.base);

    // a paired simulator connection that sends without pacing, and 50 customers with an open ticket each
    const conn = await call(server.base, token, "POST", "/simulator/api/connections", { name: "Crash" });
    await call(server.base, token, "PUT", `/whatsapp/${conn.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
    const [shown] = await call(server.base, token, "GET", "/simulator/api/connections");
    await call(server.base, token, "POST", `/simulator/api/connections/${conn.id}/scan`, { qrcode: shown.qrcode });
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `55119600${String(i).padStart(5, "0")}`);
    for (const number of customers) {
      await call(server.base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, {
        number,
        name: `C${number.slice(-3)}`,
        body: `hello ${number}`,
      });
    }
    await quiet(server.base, token);
    const ticketOf = new Map<string, number>();
    for (let page = 1; ticketOf.size < CUSTOMERS && page < 10; page++) {
      const list = await call(server.base, token, "GET", `/tickets?showAll=true&status=pending&rowsPerPage=200&pageNumber=${page}`);
      for (const t of list.tickets) ticketOf.set(t.contact.number, t.id);
    }
    expect(ticketOf.size).toBe(CUSTOMERS);
    for (const id of ticketOf.values()) await call(server.base, token, "PUT", `/tickets/${id}`, { status: "open" });

    const inbound = Array.from({ length: INBOUND }, (_, i) => ({
      i,
      number: customers[i % CUSTOMERS],
      id: `CRASHIN${String(i).padStart(6, "0")}`,
    }));
    const outbound = Array.from({ length: OUTBOUND }, (_, i) => ({ i, number: customers[i % CUSTOMERS], key: `crash-out-${i}` }));
    const sendIn = (m: (typeof inbound)[number]) =>
      call(server.base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, { number: m.number, body: `in ${m.i}`, id: m.id });
    const sendOut = (m: (typeof outbound)[number]) =>
      call(server.base, token, "POST", `/messages/${ticketOf.get(m.number)}`, { body: `agent ${m.i}` }, { "idempotency-key": m.key });

    // the burst, and the kill in its middle
    const failedIn: typeof inbound = [];
    const failedOut: typeof outbound = [];
    let doneOut = 0;
    let killed: Promise<void> | undefined;
    const burst = Promise.all([
      pool(inbound, IN_PARALLEL, sendIn, failedIn),
      pool(outbound, OUT_PARALLEL, sendOut, failedOut, () => {
        if (++doneOut === KILL_AFTER_OUTBOUND) killed = server.kill();
      }),
    ]);
    await burst;
    expect(killed).toBeDefined();
    await killed;

    // started again on the same database; the clients retry what failed, with the same ids and keys
    await server.start();
    token = await login(server.base);
    const stillIn: typeof inbound = [];
    const stillOut: typeof outbound = [];
    await pool(failedIn, IN_PARALLEL, sendIn, stillIn);
    await pool(failedOut, OUT_PARALLEL, sendOut, stillOut);
    expect([stillIn.length, stillOut.length]).toEqual([0, 0]);

    // everything handled and sent
    const health = await quiet(server.base, token);
    expect(health).toMatchObject({ outbox: { queued: 0, failed: 0 }, inbound: { pending: 0, failed: 0 } });

    // count, by body and by channel id, in the product and on the customers' phones
    const productBodies = new Map<string, number>();
    const productWids = new Map<string, number>();
    const widOfAgent = new Map<string, string>();
    for (const [number, ticketId] of ticketOf) {
      const all: { body: string; wid: string; fromMe: boolean }[] = [];
      for (let page = 1; ; page++) {
        const res = await call(server.base, token, "GET", `/messages/${ticketId}?rowsPerPage=200&pageNumber=${page}`);
        all.push(...res.messages);
        if (!res.hasMore) break;
      }
      for (const m of all) {
        productBodies.set(m.body, (productBodies.get(m.body) ?? 0) + 1);
        productWids.set(m.wid, (productWids.get(m.wid) ?? 0) + 1);
        if (m.fromMe) widOfAgent.set(m.body, m.wid);
      }
      void number;
    }
    const phoneBodies = new Map<string, number>();
    const phoneIdOf = new Map<string, string>();
    for (const number of customers) {
      const chat = await call(server.base, token, "GET", `/simulator/api/connections/${conn.id}/chats/${number}?limit=2000`);
      for (const m of chat.messages as { body: string; id: string; fromMe: boolean }[]) {
        if (!m.fromMe) continue;
        phoneBodies.set(m.body, (phoneBodies.get(m.body) ?? 0) + 1);
        phoneIdOf.set(m.body, m.id);
      }
    }
    const count = (map: Map<string, number>, keys: string[]) => ({
      lost: keys.filter((k) => !map.has(k)).length,
      twice: keys.filter((k) => (map.get(k) ?? 0) > 1).length,
    });
    const inBodies = inbound.map((m) => `in ${m.i}`);
    const outBodies = outbound.map((m) => `agent ${m.i}`);
    const figures = {
      engine,
      failedRequestsRetried: { inbound: failedIn.length, outbound: failedOut.length },
      inbound: {
        byBody: count(productBodies, inBodies),
        byId: count(
          productWids,
          inbound.map((m) => m.id),
        ),
      },
      outboundStored: { byBody: count(productBodies, outBodies) },
      outboundReceived: {
        byBody: count(phoneBodies, outBodies),
        sameIdAsStored: outBodies.filter((b) => phoneIdOf.get(b) !== undefined && phoneIdOf.get(b) === widOfAgent.get(b)).length,
      },
    };
    console.log(`crash test (${engine}): ${JSON.stringify(figures)}`);
    // the kill did interrupt both sides
    expect(failedIn.length).toBeGreaterThan(0);
    expect(failedOut.length).toBeGreaterThan(0);
    expect(figures.inbound).toEqual({ byBody: { lost: 0, twice: 0 }, byId: { lost: 0, twice: 0 } });
    expect(figures.outboundStored).toEqual({ byBody: { lost: 0, twice: 0 } });
    expect(figures.outboundReceived).toEqual({ byBody: { lost: 0, twice: 0 }, sameIdAsStored: OUTBOUND });
    await server.kill();
  }, 600_000);
});
