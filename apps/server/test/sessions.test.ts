import { SignJWT } from "jose";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { listen, socketFor } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** Issue 12, items 5–8: sessions end when they should, tokens need an expiry, two tabs may refresh at once. */

let t: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.teardown();
});

type InjectRes = { headers: Record<string, unknown>; statusCode: number };
const refreshCookie = (res: InjectRes) => {
  const raw = res.headers["set-cookie"];
  const list = (Array.isArray(raw) ? raw : [raw]).map(String);
  const c = list.find((x) => x.startsWith("jrt=") && !x.startsWith("jrt=;"));
  return c ? c.split(";")[0] : undefined;
};
const signIn = async (email: string, password: string) => {
  const res = await t.app.inject({ method: "POST", url: "/auth/login", payload: { email, password } });
  expect(res.statusCode).toBe(200);
  return { token: res.json().token as string, cookie: refreshCookie(res) as string };
};
const refresh = (cookie: string) => t.app.inject({ method: "POST", url: "/auth/refresh_token", headers: { cookie } });
const me = (token: string) => t.app.inject({ method: "GET", url: "/queue", headers: bearer(token) });

/** A connected socket of this token and a promise of its server-side disconnection. */
async function openSocket(token: string) {
  const s = await socketFor(url, token);
  sockets.push(s);
  const closed = new Promise<string>((resolve) => s.on("disconnect", (reason) => resolve(reason)));
  return { s, closed };
}

describe("ending sessions (item 5)", () => {
  it("after logout the old access token is refused at once and the user's sockets close", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const { token, cookie } = await signIn(u.email, "first-pass");
    const { closed } = await openSocket(token);
    expect((await me(token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: "DELETE", url: "/auth/logout", headers: { cookie, ...bearer(token) } });
    expect(out.statusCode).toBe(204);
    expect(await closed).toBe("io server disconnect");
    expect((await me(token)).statusCode).toBe(403);
    // the user's other sign-in ends as well: one token version per user
    expect((await me(u.token)).statusCode).toBe(403);
    expect((await signIn(u.email, "first-pass")).token).toBeTruthy();
  });

  it("a password change refuses the old access tokens and closes the sockets", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const { closed } = await openSocket(u.token);
    const change = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: bearer(u.token),
      payload: { password: "second-pass", currentPassword: "first-pass" },
    });
    expect(change.statusCode).toBe(200);
    expect(await closed).toBe("io server disconnect");
    expect((await me(u.token)).statusCode).toBe(403);
  });

  it("a profile change by an admin refuses the old access tokens and closes the sockets", async () => {
    const u = await t.createUser({ profile: "superv" });
    const { closed } = await openSocket(u.token);
    const change = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: bearer(t.adminToken),
      payload: { profile: "user" },
    });
    expect(change.statusCode).toBe(200);
    expect(await closed).toBe("io server disconnect");
    expect((await me(u.token)).statusCode).toBe(403);
  });

  it("a name change keeps the session", async () => {
    const u = await t.createUser({});
    const change = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: bearer(t.adminToken),
      payload: { name: "Outro Nome" },
    });
    expect(change.statusCode).toBe(200);
    expect((await me(u.token)).statusCode).toBe(200);
  });

  it("a deleted user's tokens are refused and sockets closed", async () => {
    const u = await t.createUser({});
    const { closed } = await openSocket(u.token);
    expect((await t.app.inject({ method: "DELETE", url: `/users/${u.id}`, headers: bearer(t.adminToken) })).statusCode).toBe(200);
    expect(await closed).toBe("io server disconnect");
    expect((await me(u.token)).statusCode).toBe(403);
  });
});

describe("one's own password (item 6)", () => {
  it("needs the current password; a wrong one is refused and nothing changes", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const missing = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: bearer(u.token),
      payload: { password: "stolen-pass" },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { currentPassword: ["Required"] } });
    const wrong = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: bearer(u.token),
      payload: { password: "stolen-pass", currentPassword: "guess" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: "ERR_WRONG_PASSWORD" });
    expect(
      (await t.app.inject({ method: "POST", url: "/auth/login", payload: { email: u.email, password: "first-pass" } })).statusCode,
    ).toBe(200);
  });

  it("an admin sets another user's password without theirs, but needs their own for themselves", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const other = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: bearer(t.adminToken),
      payload: { password: "reset-pass" },
    });
    expect(other.statusCode).toBe(200);
    const admin = await t.createUser({ profile: "admin", password: "admin-pass" });
    const own = await t.app.inject({
      method: "PUT",
      url: `/users/${admin.id}`,
      headers: bearer(admin.token),
      payload: { password: "new-admin" },
    });
    expect(own.statusCode).toBe(400);
  });
});

describe("refresh (item 7)", () => {
  it("two tabs refreshing at the same moment both get the same new pair, and the session lives on", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const { cookie } = await signIn(u.email, "first-pass");
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(refreshCookie(a)).toBe(refreshCookie(b));
    const next = await refresh(refreshCookie(a) as string);
    expect(next.statusCode).toBe(200);
    expect((await me(next.json().token)).statusCode).toBe(200);
  });

  it("a rotated token presented after the grace is reuse: the whole family is revoked", async () => {
    const u = await t.createUser({ password: "first-pass" });
    const { cookie } = await signIn(u.email, "first-pass");
    const first = await refresh(cookie);
    expect(first.statusCode).toBe(200);
    // the rotation happened long ago (no waiting: the clock of the row is moved)
    await t.ctx.db.execute(
      sql`update refresh_tokens set revoked_at = now() - interval '1 hour' where revoked_at is not null and user_id = ${u.id}`,
    );
    expect((await refresh(cookie)).statusCode).toBe(401);
    expect((await refresh(refreshCookie(first) as string)).statusCode).toBe(401);
  });
});

describe("tokens (item 8)", () => {
  it("a token without an expiry is refused, even signed with the right secret", async () => {
    const forever = await new SignJWT({ profile: "admin", v: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setIssuedAt()
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await me(forever);
    expect(res.statusCode).toBe(403);
    await expect(socketFor(url, forever)).rejects.toThrow();
  });
});
