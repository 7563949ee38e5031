import { io as ioClient } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { randomBytes, scryptSync } from "node:crypto";
import { users } from "../src/db/schema/index.js";
import { DEMO_ADMIN } from "../src/config.js";
import { signAccessToken } from "../src/modules/auth/tokens.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.teardown());

type InjectRes = { headers: Record<string, unknown>; statusCode: number; json: () => any };
const refreshCookie = (res: InjectRes) => {
  const raw = res.headers["set-cookie"];
  const list = (Array.isArray(raw) ? raw : [raw]).map(String);
  const c = list.find((x) => x.startsWith("jrt=") && !x.startsWith("jrt=;"));
  return c ? c.split(";")[0] : undefined;
};
const login = (email: string = DEMO_ADMIN.email, password: string = DEMO_ADMIN.password) =>
  t.app.inject({ method: "POST", url: "/auth/login", payload: { email, password } });
const refresh = (cookie?: string) => t.app.inject({ method: "POST", url: "/auth/refresh_token", headers: cookie ? { cookie } : {} });

describe("POST /auth/login", () => {
  it("answers a token and the user with their queues, and sets an httpOnly refresh cookie scoped to /auth", async () => {
    const res = await login();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^ey/);
    expect(body.user).toMatchObject({ email: DEMO_ADMIN.email, profile: "admin", queues: [] });
    expect(body.user).not.toHaveProperty("passwordHash");
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("Path=/auth");
    expect(setCookie).toContain("SameSite=Strict");
  });

  it("accepts the e-mail in any case", async () => {
    expect((await login(DEMO_ADMIN.email.toUpperCase())).statusCode).toBe(200);
  });

  it("refuses a wrong password and an unknown e-mail alike with ERR_INVALID_CREDENTIALS", async () => {
    const wrong = await login(DEMO_ADMIN.email, "wrong-password");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: "ERR_INVALID_CREDENTIALS" });
    const unknown = await login("nobody@example.com", "whatever");
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: "ERR_INVALID_CREDENTIALS" });
  });

  it("validates the body and names the fields", async () => {
    const res = await t.app.inject({ method: "POST", url: "/auth/login", payload: { email: "nope" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { email: ["Invalid email"], password: ["Required"] } });
  });

  it("stores passwords with a slow salted hash, never in clear", async () => {
    const { id } = await t.createUser({ password: "plain-secret" });
    const rows = await t.ctx.database.db.query.users.findMany();
    const row = rows.find((r) => r.id === id)!;
    expect(row.passwordHash).toMatch(/^scrypt\$\d+\$/);
    // scrypt's N: 2^15 or more (32 MiB a hash)
    expect(Number(row.passwordHash.split("$")[1])).toBeGreaterThanOrEqual(32768);
    expect(row.passwordHash).not.toContain("plain-secret");
    const other = await t.createUser({ password: "plain-secret" });
    const row2 = (await t.ctx.database.db.query.users.findMany()).find((r) => r.id === other.id)!;
    expect(row2.passwordHash).not.toBe(row.passwordHash);
  });

  it("a password stored with older scrypt parameters still signs in, and is stored with today's after", async () => {
    const { id, email } = await t.createUser({ password: "senha-antiga-1" });
    const salt = randomBytes(16);
    const key = scryptSync("senha-antiga-1", salt, 32, { N: 16384, r: 8, p: 1 });
    const old = `scrypt$16384$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    await t.ctx.db.update(users).set({ passwordHash: old }).where(eq(users.id, id));
    const hashOf = async () => (await t.ctx.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id)))[0].h;

    // a wrong password changes nothing
    expect((await login(email, "senha-errada")).statusCode).toBe(401);
    expect(await hashOf()).toBe(old);
    expect((await login(email, "senha-antiga-1")).statusCode).toBe(200);
    const upgraded = await hashOf();
    expect(upgraded).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect((await login(email, "senha-antiga-1")).statusCode).toBe(200);
    expect(await hashOf()).toBe(upgraded);
  });
});

describe("tokens", () => {
  it("a missing token answers 401 ERR_SESSION_EXPIRED", async () => {
    const res = await t.app.inject({ method: "GET", url: "/users" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
  });

  it("an invalid or expired token answers 403, so the client refreshes once", async () => {
    const bad = await t.app.inject({ method: "GET", url: "/users", headers: bearer("not.a.jwt") });
    expect(bad.statusCode).toBe(403);
    expect(bad.json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
    const expired = await signAccessToken({ ...t.config, ACCESS_TOKEN_TTL: -10 }, { id: 1, profile: "admin", tokenVersion: 0 });
    const res = await t.app.inject({ method: "GET", url: "/users", headers: bearer(expired) });
    expect(res.statusCode).toBe(403);
  });

  it("a token signed with another secret is refused", async () => {
    const forged = await signAccessToken({ ...t.config, jwtSecret: "x".repeat(48) }, { id: 1, profile: "admin", tokenVersion: 0 });
    expect((await t.app.inject({ method: "GET", url: "/users", headers: bearer(forged) })).statusCode).toBe(403);
  });
});

describe("refresh token", () => {
  it("rotates: the new cookie works, the old one no longer does, and reusing it revokes the whole family", async () => {
    const first = refreshCookie(await login())!;
    const r1 = await refresh(first);
    expect(r1.statusCode).toBe(200);
    expect(r1.json().token).toMatch(/^ey/);
    expect(r1.json().user.email).toBe(DEMO_ADMIN.email);
    const second = refreshCookie(r1)!;
    expect(second).not.toBe(first);

    // presented again within the grace (two tabs): the same successor, not reuse
    const again = await refresh(first);
    expect(again.statusCode).toBe(200);
    expect(refreshCookie(again)).toBe(second);
    // after the grace (the rotation's clock moved back instead of waiting) it is reuse
    await t.ctx.db.execute(sql`update refresh_tokens set revoked_at = now() - interval '1 hour' where revoked_at is not null`);
    const reuse = await refresh(first);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
    // the leaked family is revoked: the legitimate successor stops working too
    expect((await refresh(second)).statusCode).toBe(401);
  });

  it("without a cookie answers 401 ERR_SESSION_EXPIRED", async () => {
    const res = await refresh();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
  });

  it("logout revokes the refresh token and clears the cookie", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const cookie = refreshCookie(await login(u.email, "first-pass"))!;
    const out = await t.app.inject({ method: "DELETE", url: "/auth/logout", headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers["set-cookie"])).toMatch(/jrt=;/);
    expect((await refresh(cookie)).statusCode).toBe(401);
  });

  it("a password change ends the user's other sessions at their next refresh", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const cookie = refreshCookie(await login(u.email, "first-pass"))!;
    const change = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: bearer(u.token),
      payload: { password: "second-pass", currentPassword: "first-pass" },
    });
    expect(change.statusCode).toBe(200);
    expect((await refresh(cookie)).statusCode).toBe(401);
    expect((await login(u.email, "second-pass")).statusCode).toBe(200);
  });
});

describe("POST /auth/signup", () => {
  it("is refused with ERR_USER_CREATION_DISABLED while userCreation is disabled (the default)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/signup",
      payload: { name: "Ana", email: "ana@x.com", password: "12345" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: "ERR_USER_CREATION_DISABLED" });
  });

  it("creates a plain user when userCreation is enabled", async () => {
    await t.app.inject({ method: "PUT", url: "/settings/userCreation", headers: bearer(t.adminToken), payload: { value: "enabled" } });
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/signup",
      payload: { name: "Bia", email: "bia@x.com", password: "12345", profile: "admin" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ name: "Bia", email: "bia@x.com", profile: "user" });
    const dup = await t.app.inject({
      method: "POST",
      url: "/auth/signup",
      payload: { name: "Bia", email: "BIA@x.com", password: "12345" },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: "ERR_USER_EMAIL_ALREADY_EXISTS" });
    await t.app.inject({ method: "PUT", url: "/settings/userCreation", headers: bearer(t.adminToken), payload: { value: "disabled" } });
  });
});

describe("sockets", () => {
  it("refuses a socket without a valid token and accepts one with it", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}`;
    const refused = await new Promise<string>((resolve) => {
      const s = ioClient(url, { transports: ["websocket"], auth: { token: "bogus" }, reconnection: false });
      s.on("connect", () => resolve("connected"));
      s.on("connect_error", (e) => resolve(e.message));
    });
    expect(refused).toBe("ERR_SESSION_EXPIRED");
    const anonymous = await new Promise<string>((resolve) => {
      const s = ioClient(url, { transports: ["websocket"], reconnection: false });
      s.on("connect", () => resolve("connected"));
      s.on("connect_error", (e) => resolve(e.message));
    });
    expect(anonymous).toBe("ERR_SESSION_EXPIRED");

    const s = ioClient(url, { transports: ["websocket"], auth: { token: t.adminToken }, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      s.on("connect", () => resolve());
      s.on("connect_error", reject);
    });
    const event = new Promise<any>((resolve) => s.on("queue", resolve));
    await t.app.inject({ method: "POST", url: "/queue", headers: bearer(t.adminToken), payload: { name: "Suporte", color: "#112233" } });
    expect(await event).toMatchObject({ action: "create", queue: { name: "Suporte", color: "#112233" } });
    s.close();
  });
});
