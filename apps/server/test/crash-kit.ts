import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { DEMO_ADMIN } from "../src/config.js";

/**
 * What the crash tests share: the real server as a child process on a database of its own
 * (PostgreSQL with TEST_DATABASE_URL, else the embedded PGlite in a data folder), killed with
 * SIGKILL and started again; HTTP calls as a browser or an outside client makes them; a pool that
 * keeps the requests the kill made fail, to send them again.
 */

const serverDir = resolve(import.meta.dirname, "..");
const cleanups: (() => Promise<void> | void)[] = [];
/** Kills what is left and drops the databases (the test file's afterAll). */
export async function cleanupAll() {
  for (const c of cleanups.splice(0).reverse()) await c();
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

export async function database(): Promise<{ env: Record<string, string>; engine: string }> {
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

export class Server {
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
      // CRASH_SERVER_LOG=1 shows the servers' own log (LOG_LEVEL=error: what failed, e.g. behind a 500)
      stdio: ["ignore", process.env.CRASH_SERVER_LOG ? "inherit" : "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr?.on("data", (d) => {
      stderr = (stderr + d).slice(-4000);
    });
    this.proc = proc;
    cleanups.push(() => {
      if (proc.exitCode === null) proc.kill("SIGKILL");
    });
    // a loaded machine (PGlite's start-up and tsx's compile share two cores with the suite) may take minutes
    for (let i = 0; i < 3000; i++) {
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

export async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw Object.assign(new Error(`${method} ${path}: ${res.status} ${text}`), { status: res.status });
  return text ? JSON.parse(text) : undefined;
}

/**
 * A simulator connection paired as its page does (its QR code "scanned"), with the number's pace
 * given; answers once it is connected.
 */
export async function pairedConnection(
  base: string,
  token: string,
  name: string,
  pace: { sendIntervalMs: number; sendJitterMs: number; sendBurst: number },
): Promise<{ id: number }> {
  const conn = await call(base, token, "POST", "/simulator/api/connections", { name });
  // no warm-up: a new number's first day would cap its unsolicited sends at 20
  await call(base, token, "PUT", `/whatsapp/${conn.id}`, { ...pace, warmupEnabled: false });
  // the QR code once its session's status is stored (the page hears it over the socket; the create answers first)
  let shown: { status: string; qrcode: string } | undefined;
  for (let i = 0; i < 200 && !(shown?.status === "qrcode" && shown.qrcode); i++) {
    if (i) await new Promise((r) => setTimeout(r, 50));
    shown = (await call(base, token, "GET", "/simulator/api/connections")).find((c: { id: number }) => c.id === conn.id);
  }
  await call(base, token, "POST", `/simulator/api/connections/${conn.id}/scan`, { qrcode: shown?.qrcode });
  for (let i = 0; i < 200; i++) {
    const c = (await call(base, token, "GET", "/simulator/api/connections")).find((x: { id: number }) => x.id === conn.id);
    if (c?.status === "CONNECTED") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { id: conn.id };
}

/** Polls the admins' view until nothing waits in the journal or the outbox. */
export async function quiet(base: string, token: string) {
  for (let i = 0; i < 1200; i++) {
    const jobs = await call(base, token, "GET", "/jobs");
    if (jobs.outbox.queued === 0 && jobs.inbound.pending === 0) return jobs;
    await new Promise((r) => setTimeout(r, 100));
  }
  return call(base, token, "GET", "/jobs");
}

export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password }),
  });
  return ((await res.json()) as { token: string }).token;
}

/** Runs tasks `parallel` at a time; a task that fails (the server died) is kept for later. */
export async function pool<T>(items: T[], parallel: number, task: (item: T) => Promise<void>, failed: T[], onDone?: () => void) {
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

/**
 * Customers write through the simulator's API (`parallel` at a time, each message with its own id,
 * as a phone keeps it); the server is killed (SIGKILL) once `killAfter` were taken, started again,
 * and the phones send what the kill refused again with the same ids (a message the server had
 * taken is not taken twice). Answers the admin's new token and how many the kill refused.
 */
export async function customersWriteThroughAKill(
  server: Server,
  connId: number,
  numbers: string[],
  opts: { body: string; idPrefix: string; killAfter: number; token: string; parallel?: number },
): Promise<{ token: string; failedByKill: number }> {
  let token = opts.token;
  const write = (number: string) =>
    call(server.base, token, "POST", `/simulator/api/connections/${connId}/messages`, {
      number,
      name: `Cliente ${number.slice(-4)}`,
      body: opts.body,
      id: `${opts.idPrefix}${number}`,
    });
  const failed: string[] = [];
  let written = 0;
  let killed: Promise<void> | undefined;
  await pool(numbers, opts.parallel ?? 10, write, failed, () => {
    if (++written === opts.killAfter) killed = server.kill();
  });
  if (!killed) throw new Error(`only ${written} customers' messages were taken: no kill`);
  await killed;
  await server.start();
  token = await login(server.base);
  const stillFailing: string[] = [];
  await pool([...failed], 5, write, stillFailing);
  if (stillFailing.length) throw new Error(`${stillFailing.length} customers' messages refused after the restart`);
  return { token, failedByKill: failed.length };
}
