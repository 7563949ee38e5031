import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../src/app.js";
import { DEMO_ADMIN } from "../src/config.js";
import { bearer, createTestDatabase, testConfig } from "./helpers.js";

/** Issue 12, item 12: a failed write's parameters (secrets, hashes) never reach the log. */

let app: App;
let drop: () => Promise<void>;
let token: string;
const lines: string[] = [];

beforeAll(async () => {
  const db = await createTestDatabase();
  drop = db.drop;
  app = await buildApp(testConfig({ LOG_LEVEL: "info" }), {
    database: db.database,
    serveWeb: false,
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await app.app.ready();
  const res = await app.app.inject({ method: "POST", url: "/auth/login", payload: DEMO_ADMIN });
  token = res.json().token;
});
afterAll(async () => {
  await app.close();
  await drop();
});

describe("the log of a failed write", () => {
  it("does not hold the secret setting that was being written", async () => {
    const secret = "Mail-Secret-7f3a9c";
    await app.ctx.database.exec("ALTER TABLE settings ADD CONSTRAINT test_refuse_all CHECK (value NOT LIKE 'Mail-Secret%') NOT VALID");
    try {
      const res = await app.app.inject({
        method: "PUT",
        url: "/settings/mail_password",
        headers: bearer(token),
        payload: { value: secret },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await app.ctx.database.exec("ALTER TABLE settings DROP CONSTRAINT test_refuse_all");
    }
    const log = lines.join("");
    expect(log).toContain("test_refuse_all");
    expect(log).not.toContain(secret);
  });

  it("does not hold the password hash of a user being created", async () => {
    await app.ctx.database.exec("ALTER TABLE users ADD CONSTRAINT test_refuse_user CHECK (name <> 'Falha Registrada')");
    try {
      const res = await app.app.inject({
        method: "POST",
        url: "/users",
        headers: bearer(token),
        payload: { name: "Falha Registrada", email: "falha@example.com", password: "Pass-Secret-91" },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await app.ctx.database.exec("ALTER TABLE users DROP CONSTRAINT test_refuse_user");
    }
    const log = lines.join("");
    expect(log).toContain("test_refuse_user");
    expect(log).not.toContain("scrypt$");
    expect(log).not.toContain("Pass-Secret-91");
    expect(log).not.toContain("falha@example.com");
  });
});
