import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.js";
import { ConfigError, DEMO_ADMIN, loadConfig } from "../src/config.js";
import { bearer } from "./helpers.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "balcao-start-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const env = (dataDir: string, extra: Record<string, string> = {}) => ({
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  ...extra,
});

describe("configuration", () => {
  it("defaults to port 8080 and ./data, and generates a token secret kept in DATA_DIR", () => {
    const dir = tempDir();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.PORT).toBe(8080);
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(a.jwtSecret);
    expect(loadConfig({ DATA_DIR: tempDir() }).jwtSecret).not.toBe(a.jwtSecret);
  });

  it("explains each invalid variable", () => {
    expect(() => loadConfig({ PORT: "http", DATABASE_URL: "mysql://x", ADMIN_EMAIL: "nope", DATA_DIR: tempDir() })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: "http", DATABASE_URL: "mysql://x", ADMIN_EMAIL: "nope", DATA_DIR: tempDir() });
    } catch (err) {
      const msg = (err as Error).message;
      expect(msg).toContain("PORT");
      expect(msg).toContain("DATABASE_URL: must start with postgres://");
      expect(msg).toContain("ADMIN_EMAIL");
    }
  });

  it("takes the PostgreSQL pool's size from DATABASE_POOL_SIZE (20 when unset) and refuses one that cannot serve a request and a transaction", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).DATABASE_POOL_SIZE).toBe(20);
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_POOL_SIZE: "7" }).DATABASE_POOL_SIZE).toBe(7);
    for (const bad of ["1", "0", "muitos", "2.5"])
      expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
  });
});

// each test starts real file-backed PGlite instances (initdb + migrations): slow on a busy machine
describe("first start and restart on the embedded database", { timeout: 180_000 }, () => {
  it("seeds the admin from ADMIN_EMAIL/ADMIN_PASSWORD, and a restart keeps the data", async () => {
    const dir = tempDir();
    const config = loadConfig(env(dir, { ADMIN_EMAIL: "chefe@provedor.com.br", ADMIN_PASSWORD: "s3nha-forte" }));
    const first = await buildApp(config, { logger: false, serveWeb: false });
    const login = await first.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: "chefe@provedor.com.br", password: "s3nha-forte" },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().token;
    await first.app.inject({ method: "POST", url: "/queue", headers: bearer(token), payload: { name: "Persistente", color: "#123456" } });
    await first.app.inject({ method: "PUT", url: "/settings/topbarColor", headers: bearer(token), payload: { value: "#222222" } });
    await first.close();

    const second = await buildApp(loadConfig(env(dir, { ADMIN_EMAIL: "other@x.com", ADMIN_PASSWORD: "ignored1" })), {
      logger: false,
      serveWeb: false,
    });
    const again = await second.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: "chefe@provedor.com.br", password: "s3nha-forte" },
    });
    expect(again.statusCode).toBe(200);
    // the same secret: the token of the first run is still valid
    const queues = await second.app.inject({ method: "GET", url: "/queue", headers: bearer(token) });
    expect(queues.json().map((q: { name: string }) => q.name)).toEqual(["Persistente"]);
    expect((await second.app.inject({ method: "GET", url: "/colors" })).json().topbarColor).toBe("#222222");
    // no second admin was seeded
    const other = await second.app.inject({ method: "POST", url: "/auth/login", payload: { email: "other@x.com", password: "ignored1" } });
    expect(other.statusCode).toBe(401);
    await second.close();
  });

  it("uses the documented demo admin in the embedded mode without ADMIN_*", async () => {
    const app = await buildApp(loadConfig(env(tempDir())), { logger: false, serveWeb: false });
    const res = await app.app.inject({ method: "POST", url: "/auth/login", payload: DEMO_ADMIN });
    expect(res.statusCode).toBe(200);
    await app.close();
  });

  it("in production generates a random admin password and prints it once", async () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const dir = tempDir();
    try {
      const app = await buildApp(loadConfig(env(dir, { NODE_ENV: "production" })), { logger: false, serveWeb: false });
      const printed = write.mock.calls.map((c) => String(c[0])).join("");
      const password = printed.match(/Password[^:]*: (\S+)/)?.[1];
      expect(password).toBeDefined();
      expect(password).not.toBe(DEMO_ADMIN.password);
      const demo = await app.app.inject({ method: "POST", url: "/auth/login", payload: DEMO_ADMIN });
      expect(demo.statusCode).toBe(401);
      const real = await app.app.inject({ method: "POST", url: "/auth/login", payload: { email: DEMO_ADMIN.email, password } });
      expect(real.statusCode).toBe(200);
      await app.close();
      write.mockClear();
      const again = await buildApp(loadConfig(env(dir, { NODE_ENV: "production" })), { logger: false, serveWeb: false });
      expect(write.mock.calls.map((c) => String(c[0])).join("")).not.toContain("Password");
      await again.close();
    } finally {
      write.mockRestore();
    }
  });
});
