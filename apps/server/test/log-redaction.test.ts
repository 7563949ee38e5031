import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactUrl } from "../src/lib/redact.js";
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

/** Issue 33, item 2: credentials in URLs (a signing link's token, `?token=`) never reach the log. */
describe("the log of a request URL", () => {
  it("keeps only the first characters of a signing link's token", async () => {
    const token = randomBytes(32).toString("base64url");
    for (const url of [`/assinar/${token}`, `/assinar/${token}/documento.pdf`]) {
      const res = await app.app.inject({ method: "GET", url });
      expect(res.statusCode).toBeGreaterThanOrEqual(200);
    }
    const log = lines.join("");
    expect(log).toContain(`/assinar/${token.slice(0, 6)}`);
    expect(log).toContain("/documento.pdf");
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(6, 20));
  });

  it("drops a token given in the query of a refused message API call", async () => {
    const token = `api-${randomBytes(16).toString("hex")}`;
    const res = await app.app.inject({
      method: "POST",
      url: `/api/messages/send?token=${token}&number=5549991234567`,
      payload: { number: "5549991234567", body: "oi" },
    });
    expect(res.statusCode).toBe(401);
    const log = lines.join("");
    expect(log).toContain("/api/messages/send?token=<redacted>&number=5549991234567");
    expect(log).not.toContain(token);
  });

  it("redacts access_token, key and password parameters, whatever their case", () => {
    expect(redactUrl("/x?access_token=abc&Key=k1&password=p%40ss&page=2")).toBe(
      "/x?access_token=<redacted>&Key=<redacted>&password=<redacted>&page=2",
    );
    expect(redactUrl("https://user:pw@example.com/a?b=1")).toBe("https://<redacted>@example.com/a?b=1");
    expect(redactUrl("/assinar/abc")).toBe("/assinar/<redacted>");
  });
});

/** Issue 31: one line per completed request at most; failures and slow requests always logged. */
describe("the request log", () => {
  const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  /** Every line of the requests whose URL holds `marker`. */
  function linesOf(marker: string, from = parsed()) {
    const ids = new Set(from.filter((l) => String(l.url ?? (l.req as { url?: string })?.url ?? "").includes(marker)).map((l) => l.reqId));
    expect(ids.size).toBeGreaterThan(0);
    return from.filter((l) => ids.has(l.reqId));
  }

  it("writes one line for a successful request: method, URL, route pattern, status, time", async () => {
    const marker = `linha${randomBytes(4).toString("hex")}`;
    const res = await app.app.inject({ method: "GET", url: `/contacts?searchParam=${marker}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const mine = linesOf(marker);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 30, method: "GET", route: "/contacts", statusCode: 200, msg: "request" });
    expect(typeof mine[0].ms).toBe("number");
  });

  it("logs a 5xx at error level, with its error", async () => {
    await app.ctx.database.exec("ALTER TABLE tags ADD CONSTRAINT test_refuse_tag CHECK (name <> 'Falha 500') NOT VALID");
    try {
      const res = await app.app.inject({
        method: "POST",
        url: "/tags?marca=falha500",
        headers: bearer(token),
        payload: { name: "Falha 500", color: "#112233" },
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await app.ctx.database.exec("ALTER TABLE tags DROP CONSTRAINT test_refuse_tag");
    }
    const mine = linesOf("marca=falha500");
    expect(mine.find((l) => l.msg === "request failed")).toMatchObject({ level: 50, method: "POST", route: "/tags", statusCode: 500 });
    expect(mine.some((l) => l.msg === "unhandled error" && JSON.stringify(l.err).includes("test_refuse_tag"))).toBe(true);
  });

  it("logs a request at warn when it takes LOG_SLOW_MS or more, and only that at LOG_LEVEL=warn", async () => {
    const db = await createTestDatabase();
    const own: string[] = [];
    const slow = await buildApp(testConfig({ LOG_LEVEL: "warn", LOG_SLOW_MS: "0" }), {
      database: db.database,
      serveWeb: false,
      logStream: { write: (line: string) => void own.push(line) },
    });
    try {
      await slow.app.ready();
      const res = await slow.app.inject({ method: "GET", url: "/assinar/lento123456789" });
      expect(res.statusCode).toBeGreaterThanOrEqual(200);
      const mine = own.map((l) => JSON.parse(l)).filter((l) => String(l.url).startsWith("/assinar/"));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ level: 40, msg: "slow request", method: "GET", url: "/assinar/lento1…<redacted>" });
    } finally {
      await slow.close();
      await db.drop();
    }
  });
});
