import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type App, type BuildOptions, buildApp } from "../src/app.js";
import { type Config, DEMO_ADMIN, loadConfig } from "../src/config.js";
import { type Database, openDatabase } from "../src/db/client.js";

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL, dropped afterwards.
 */
export async function createTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const templatePath = inject("pgliteTemplate");
    const template = templatePath ? new Blob([readFileSync(templatePath)]) : undefined;
    const database = await openDatabase({ dataDir: "memory://", template });
    return { database, drop: () => database.close() };
  }
  const name = `balcao_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 5 });
  return {
    database,
    drop: async () => {
      // closed already by a failed start, or by its app: the database goes anyway
      await database.close().catch(() => {});
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** What the test apps let outgoing requests reach: the fakes on loopback. */
export const TEST_ALLOWED_PRIVATE_HOSTS = "127.0.0.0/8,localhost";

export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(join(tmpdir(), "balcao-test-"));
  return loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
    LOG_LEVEL: "silent",
    // generous login limits so suites can sign in many users; the rate-limit tests set their own
    LOGIN_RATE_PER_IP: "10000",
    LOGIN_RATE_PER_EMAIL: "1000",
    // the fakes of outside systems listen on loopback; outgoing-http.test.ts proves the unset default refuses it
    ALLOWED_PRIVATE_HOSTS: TEST_ALLOWED_PRIVATE_HOSTS,
    ...env,
  });
}

export interface TestApp extends App {
  config: Config;
  /** Signs in and answers the access token. */
  login(email?: string, password?: string): Promise<string>;
  adminToken: string;
  /** Creates a user through the API and answers its id and token. */
  createUser(input: {
    name?: string;
    email?: string;
    password?: string;
    profile?: "admin" | "superv" | "user";
    queueIds?: number[];
  }): Promise<{ id: number; token: string; email: string }>;
  teardown(): Promise<void>;
}

let userSeq = 0;

export async function createTestApp(env: Record<string, string> = {}, options: Partial<BuildOptions> = {}): Promise<TestApp> {
  const { database, drop } = await createTestDatabase();
  // an app that fails to start (a test of a refused start) leaves no database behind
  return createTestAppOn(database, drop, env, options).catch(async (err: unknown) => {
    await drop().catch(() => {});
    throw err;
  });
}

/** PostgreSQL for tests of several server processes, in both CI passes (PGlite cannot be shared). */
export const CLUSTER_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** Redis for the same tests; each test uses a REDIS_KEY_PREFIX of its own. */
export const CLUSTER_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A new PostgreSQL database (on CLUSTER_POSTGRES_URL's server) that several apps open, and its removal. */
export async function createSharedDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `balcao_cluster_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: CLUSTER_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(CLUSTER_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: CLUSTER_POSTGRES_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * One server process of a cluster, in this test process: an app of its own (pool, event bus,
 * sockets, job runner) on a shared database, as a second `node` would have. Its teardown closes it
 * and leaves the database to whoever created it.
 */
export async function createProcessApp(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: Partial<BuildOptions> = {},
): Promise<TestApp> {
  const database = await openDatabase({ databaseUrl, poolSize: 5 });
  return createTestAppOn(database, () => database.close(), env, options);
}

async function createTestAppOn(
  database: Database,
  drop: () => Promise<void>,
  env: Record<string, string>,
  options: Partial<BuildOptions>,
): Promise<TestApp> {
  const config = testConfig(env);
  const built = await buildApp(config, { database, logger: false, serveWeb: false, ...options });
  await built.app.ready();
  const login = async (
    email: string = env.ADMIN_EMAIL ?? DEMO_ADMIN.email,
    password: string = env.ADMIN_PASSWORD ?? DEMO_ADMIN.password,
  ) => {
    const res = await built.app.inject({ method: "POST", url: "/auth/login", payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };
  const adminToken = await login();
  return {
    ...built,
    config,
    login,
    adminToken,
    async createUser(input) {
      const email = input.email ?? `user${++userSeq}-${randomBytes(3).toString("hex")}@test.local`;
      const password = input.password ?? "secret1";
      const res = await built.app.inject({
        method: "POST",
        url: "/users",
        headers: { authorization: `Bearer ${adminToken}` },
        payload: { name: input.name ?? "Test User", email, password, profile: input.profile ?? "user", queueIds: input.queueIds ?? [] },
      });
      if (res.statusCode !== 200) throw new Error(`createUser failed: ${res.statusCode} ${res.body}`);
      return { id: res.json().id, email, token: await login(email, password) };
    },
    async teardown() {
      await built.close();
      await drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
