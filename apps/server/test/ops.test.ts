import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:net";
import { hostname } from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../src/app.js";
import { committedMigrations } from "../src/db/client.js";
import { createQueue, pairedSimulator, type SimConnection } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp, testConfig } from "./helpers.js";
import { type S3Fake, startS3 } from "./s3-kit.js";

/**
 * Issue 28 §6: GET /health (alive, which process, the sessions it owns), GET /ready (database,
 * migrations, Redis, S3; 503 when one fails), GET /metrics/prometheus (its figures, its token, not
 * served in production without one), and migrations applied once when three processes start
 * together on a fresh PostgreSQL database.
 */

const PROCESS = `${hostname()}:${process.pid}`;
let t: TestApp;
let sim: SimConnection;

beforeAll(async () => {
  t = await createTestApp();
  const queue = await createQueue(t, "Suporte");
  sim = await pairedSimulator(t, { queueIds: [queue] });
});
afterAll(() => t?.teardown());

const get = (app: App, url: string, headers: Record<string, string> = {}) => app.app.inject({ method: "GET", url, headers });

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const srv: Server = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe("GET /health", () => {
  it("answers without sign-in which process it is and the sessions it owns", async () => {
    const r = await get(t, "/health");
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ok: true, engine: t.ctx.database.engine, process: PROCESS, sessions: [sim.whatsappId] });
  });
});

describe("GET /ready", () => {
  it("is ready when the database answers and holds every migration", async () => {
    const r = await get(t, "/ready");
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ok: true, process: PROCESS, checks: { database: "ok", migrations: "ok" } });
  });

  it("answers 503 while a committed migration is not applied", async () => {
    const [last] = await t.ctx.database.query<{ id: number; hash: string; created_at: string }>(
      "select id, hash, created_at from drizzle.__drizzle_migrations order by id desc limit 1",
    );
    await t.ctx.database.query("delete from drizzle.__drizzle_migrations where id = $1", [last.id]);
    try {
      const r = await get(t, "/ready");
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ ok: false, checks: { database: "ok", migrations: "1 not applied" } });
    } finally {
      await t.ctx.database.query("insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)", [
        last.id,
        last.hash,
        last.created_at,
      ]);
    }
    expect((await get(t, "/ready")).statusCode).toBe(200);
  });

  it("checks Redis when REDIS_URL is set: ready with it; a process whose Redis does not answer does not start (the password never shown)", async () => {
    const up = await createTestApp({ REDIS_URL: "redis://127.0.0.1:6379" });
    try {
      const ok = await get(up, "/ready");
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().checks).toEqual({ database: "ok", migrations: "ok", redis: "ok" });
    } finally {
      await up.teardown();
    }
    // events and limits go through Redis (lib/cluster): without it the process refuses to start, so the
    // load balancer never sends it traffic; a Redis lost later turns /ready to 503 through the same ping
    const failure = await createTestApp({ REDIS_URL: `redis://:Redis-Pass-71c2@127.0.0.1:${await closedPort()}` }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).not.toContain("Redis-Pass-71c2");
  });

  it("checks the S3 bucket when files go to S3", async () => {
    const s3: S3Fake = await startS3();
    const withS3 = await createTestApp(s3.env);
    const missing = await createTestApp({ ...s3.env, S3_BUCKET: "nao-existe" });
    try {
      expect((await get(withS3, "/ready")).json().checks).toEqual({ database: "ok", migrations: "ok", storage: "ok" });
      const bad = await get(missing, "/ready");
      expect(bad.statusCode).toBe(503);
      expect(bad.json().checks.storage).toMatch(/^storage check failed: .*404/);
    } finally {
      await withS3.teardown();
      await missing.teardown();
      await s3.close();
    }
  });
});

describe("GET /metrics/prometheus", () => {
  it("exposes requests by route and status, the queues, sessions by owner, sockets and event-loop lag", async () => {
    expect((await get(t, "/tickets?showAll=true", bearer(t.adminToken))).statusCode).toBe(200);
    expect((await get(t, "/tickets/999999", bearer(t.adminToken))).statusCode).toBe(404);
    const r = await get(t, "/metrics/prometheus");
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^text\/plain/);
    const text = r.body;
    const line = (re: RegExp) => text.split("\n").find((l) => re.test(l));
    expect(line(/^balcao_http_request_duration_seconds_count\{.*route="\/tickets".*status="200"/)).toMatch(/ 1$/);
    expect(line(/^balcao_http_request_duration_seconds_count\{.*route="\/tickets\/:id".*status="404"/)).toMatch(/ 1$/);
    expect(line(/^balcao_outbox_queued\{/)).toMatch(/ 0$/);
    expect(line(/^balcao_outbox_failed\{/)).toMatch(/ 0$/);
    expect(line(/^balcao_outbox_oldest_age_seconds\{/)).toMatch(/ 0$/);
    expect(line(/^balcao_journal_pending\{/)).toMatch(/ 0$/);
    expect(line(/^balcao_jobs\{state="queued"/)).toMatch(/ \d+$/);
    expect(line(/^balcao_jobs\{state="dead"/)).toMatch(/ 0$/);
    expect(line(new RegExp(`^balcao_sessions\\{status="CONNECTED",owner="${PROCESS}"`))).toMatch(/ 1$/);
    expect(line(/^balcao_sockets\{/)).toMatch(/ 0$/);
    expect(line(/^nodejs_eventloop_lag_seconds\{/)).toBeDefined();
    expect(text).toContain(`process="${PROCESS}"`);
  });

  it("asks for the METRICS_TOKEN when one is set", async () => {
    const token = `m-${randomBytes(12).toString("hex")}`;
    const app = await createTestApp({ METRICS_TOKEN: token });
    try {
      expect((await get(app, "/metrics/prometheus")).statusCode).toBe(401);
      expect((await get(app, "/metrics/prometheus", bearer("wrong-token-wrong-token"))).statusCode).toBe(401);
      // a user's sign-in is not the metrics token
      expect((await get(app, "/metrics/prometheus", bearer(app.adminToken))).statusCode).toBe(401);
      const ok = await get(app, "/metrics/prometheus", bearer(token));
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain("balcao_outbox_queued");
    } finally {
      await app.teardown();
    }
  });

  it("is not served in production without METRICS_TOKEN, and is with it", async () => {
    const prod = { NODE_ENV: "production", ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "root-pass-1" };
    const closed = await createTestApp(prod);
    const token = `m-${randomBytes(12).toString("hex")}`;
    const open = await createTestApp({ ...prod, METRICS_TOKEN: token });
    try {
      expect((await get(closed, "/metrics/prometheus")).statusCode).toBe(404);
      expect((await get(closed, "/metrics/prometheus", bearer(closed.adminToken))).statusCode).toBe(404);
      expect((await get(open, "/metrics/prometheus", bearer(token))).statusCode).toBe(200);
      // health and readiness stay open for the load balancer
      expect((await get(closed, "/health")).statusCode).toBe(200);
      expect((await get(closed, "/ready")).statusCode).toBe(200);
    } finally {
      await closed.teardown();
      await open.teardown();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("three processes starting together on a fresh PostgreSQL database", () => {
  it("all come up and the migrations are applied once", async () => {
    const url = process.env.TEST_DATABASE_URL as string;
    const name = `balcao_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const apps: App[] = [];
    try {
      const started = await Promise.allSettled(
        [1, 2, 3].map(() => buildApp(testConfig({ DATABASE_URL: dbUrl.toString() }), { logger: false, serveWeb: false })),
      );
      for (const s of started) if (s.status === "fulfilled") apps.push(s.value);
      expect(started.map((s) => (s.status === "rejected" ? String(s.reason) : "up"))).toEqual(["up", "up", "up"]);
      for (const app of apps) {
        expect((await get(app, "/ready")).json()).toMatchObject({ ok: true, checks: { database: "ok", migrations: "ok" } });
      }
      const [row] = await apps[0].ctx.database.query<{ n: number; hashes: number }>(
        "select count(*)::int as n, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations",
      );
      expect(row).toEqual({ n: committedMigrations(), hashes: committedMigrations() });
      const [users] = await apps[0].ctx.database.query<{ n: number }>("select count(*)::int as n from users");
      expect(users.n).toBe(1);
      const [templates] = await apps[0].ctx.database.query<{ n: number }>("select count(*)::int as n from contract_templates where padrao");
      expect(templates.n).toBe(1);
    } finally {
      for (const app of apps) await app.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
