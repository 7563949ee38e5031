import { and, desc, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEntries, users } from "../src/db/schema/index.js";
import { listen, socketFor } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** Issue 53, item 3: "Meu perfil" — GET and PUT /profile, the signed-in user's own account and preferences. */

let t: TestApp;
let url: string;
let queueId: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
  const q = await t.app.inject({
    method: "POST",
    url: "/queue",
    headers: bearer(t.adminToken),
    payload: { name: "Suporte", color: "#0055aa" },
  });
  queueId = q.json().id;
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
const signIn = (email: string, password: string) => t.app.inject({ method: "POST", url: "/auth/login", payload: { email, password } });
const session = async (email: string, password: string) => {
  const res = await signIn(email, password);
  expect(res.statusCode).toBe(200);
  return { token: res.json().token as string, cookie: refreshCookie(res) as string };
};
const refresh = (cookie: string) => t.app.inject({ method: "POST", url: "/auth/refresh_token", headers: { cookie } });
const getProfile = (token: string) => t.app.inject({ method: "GET", url: "/profile", headers: bearer(token) });
const putProfile = (token: string, payload: object) => t.app.inject({ method: "PUT", url: "/profile", headers: bearer(token), payload });
const rowOf = async (id: number) => (await t.ctx.db.select().from(users).where(eq(users.id, id)))[0];
const lastAudit = async (userId: number) =>
  (
    await t.ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, "user.update"), eq(auditEntries.target, `user:${userId}`)))
      .orderBy(desc(auditEntries.id))
      .limit(1)
  )[0];

describe("GET /profile", () => {
  it("answers the caller's own account with the default preferences, never the password", async () => {
    const u = await t.createUser({ name: "Ana Agente", password: "ana-pass", queueIds: [queueId] });
    const res = await getProfile(u.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: u.id,
      name: "Ana Agente",
      email: u.email,
      profile: "user",
      language: null,
      theme: "default",
      notificationSound: true,
    });
    expect(res.body).not.toContain("ana-pass");
    expect(res.body).not.toContain("scrypt");
  });

  it("needs a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/profile" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "PUT", url: "/profile", payload: { name: "Ninguém" } })).statusCode).toBe(401);
  });
});

describe("PUT /profile", () => {
  it("an agent changes their own name: answered, seen by everyone, audited", async () => {
    const u = await t.createUser({ name: "Bruno Antigo", password: "bruno-pass" });
    const res = await putProfile(u.token, { name: "  Bruno Novo  " });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: u.id, name: "Bruno Novo", profile: "user" });
    expect(res.json().token).toBeUndefined();
    expect(refreshCookie(res)).toBeUndefined();
    const seen = await t.app.inject({ method: "GET", url: `/users/${u.id}`, headers: bearer(t.adminToken) });
    expect(seen.json().name).toBe("Bruno Novo");
    // the session goes on: a name is not a credential
    expect((await getProfile(u.token)).statusCode).toBe(200);
    const entry = await lastAudit(u.id);
    expect(entry).toMatchObject({ userId: u.id, action: "user.update", before: { name: "Bruno Antigo" }, after: { name: "Bruno Novo" } });
  });

  it("validates the name with the users' rules", async () => {
    const u = await t.createUser({ name: "Carla" });
    const short = await putProfile(u.token, { name: "C" });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { name: ["Too Short!"] } });
    const long = await putProfile(u.token, { name: "x".repeat(51) });
    expect(long.json().fields).toMatchObject({ name: ["Too Long!"] });
    expect((await rowOf(u.id)).name).toBe("Carla");
  });

  it("a new password: the old stops working, the new works, every other session ends and this device goes on", async () => {
    const u = await t.createUser({ name: "Davi", password: "old-pass" });
    const here = await session(u.email, "old-pass");
    const elsewhere = await session(u.email, "old-pass");
    const socket = await socketFor(url, elsewhere.token);
    sockets.push(socket);
    const closed = new Promise<string>((resolve) => socket.on("disconnect", (reason) => resolve(reason)));

    const res = await putProfile(here.token, { currentPassword: "old-pass", password: "new-pass-1" });
    expect(res.statusCode).toBe(200);
    const { token, ...profile } = res.json();
    expect(profile).toMatchObject({ id: u.id, name: "Davi" });
    expect(typeof token).toBe("string");
    const cookie = refreshCookie(res);
    expect(cookie).toBeTruthy();
    expect(String(res.headers["set-cookie"])).toContain("HttpOnly");

    // the credentials
    expect((await signIn(u.email, "old-pass")).statusCode).toBe(401);
    expect((await signIn(u.email, "new-pass-1")).statusCode).toBe(200);
    // every session from before is over: access tokens, refresh tokens, sockets
    expect(await closed).toBe("io server disconnect");
    expect((await getProfile(elsewhere.token)).statusCode).toBe(403);
    expect((await refresh(elsewhere.cookie)).statusCode).toBe(401);
    expect((await getProfile(here.token)).statusCode).toBe(403);
    expect((await refresh(here.cookie)).statusCode).toBe(401);
    expect((await getProfile(u.token)).statusCode).toBe(403);
    // this device's new session lives on and refreshes
    expect((await getProfile(token)).statusCode).toBe(200);
    const again = await refresh(cookie as string);
    expect(again.statusCode).toBe(200);
    expect((await getProfile(again.json().token)).statusCode).toBe(200);

    // audited as a fact, never a value
    const entry = await lastAudit(u.id);
    expect(entry.after).toEqual({ passwordChanged: true });
    expect(JSON.stringify(entry)).not.toMatch(/old-pass|new-pass-1/);
  });

  it("refuses a wrong current password with ERR_WRONG_PASSWORD and changes nothing", async () => {
    const u = await t.createUser({ name: "Eva", password: "eva-pass" });
    const wrong = await putProfile(u.token, { name: "Eva Trocada", currentPassword: "guess", password: "stolen-pass" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: "ERR_WRONG_PASSWORD" });
    expect((await signIn(u.email, "eva-pass")).statusCode).toBe(200);
    expect((await signIn(u.email, "stolen-pass")).statusCode).toBe(401);
    expect((await rowOf(u.id)).name).toBe("Eva");
    // the session was not ended
    expect((await getProfile(u.token)).statusCode).toBe(200);
  });

  it("a new password needs the current one and follows the password rules", async () => {
    const u = await t.createUser({ password: "fabio-pass" });
    const missing = await putProfile(u.token, { password: "new-pass-2" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { currentPassword: ["Required"] } });
    const short = await putProfile(u.token, { currentPassword: "fabio-pass", password: "1234" });
    expect(short.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { password: ["Too Short!"] } });
    const long = await putProfile(u.token, { currentPassword: "fabio-pass", password: "x".repeat(51) });
    expect(long.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { password: ["Too Long!"] } });
    // an empty new password keeps the current one
    const empty = await putProfile(u.token, { password: "", currentPassword: "" });
    expect(empty.statusCode).toBe(200);
    expect((await signIn(u.email, "fabio-pass")).statusCode).toBe(200);
  });

  it("cannot change the role, the e-mail, the queues or another user's row", async () => {
    const agent = await t.createUser({ name: "Gil", password: "gil-pass", queueIds: [queueId] });
    const other = await t.createUser({ name: "Helena", password: "helena-pass" });
    const before = await rowOf(agent.id);
    for (const payload of [
      { profile: "admin" },
      { email: "gil@hacker.example" },
      { queueIds: [] },
      { id: other.id, name: "Helena Hackeada" },
      { userId: other.id, name: "Helena Hackeada" },
      { tokenVersion: 0 },
    ]) {
      const res = await putProfile(agent.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    const after = await rowOf(agent.id);
    expect(after).toMatchObject({ profile: "user", email: before.email, name: "Gil", tokenVersion: before.tokenVersion });
    const me = await t.app.inject({ method: "GET", url: `/users/${agent.id}`, headers: bearer(t.adminToken) });
    expect(me.json().queues.map((q: { id: number }) => q.id)).toEqual([queueId]);
    expect((await rowOf(other.id)).name).toBe("Helena");
    // the agent's own save touches only the agent's row
    expect((await putProfile(agent.token, { name: "Gil Novo" })).statusCode).toBe(200);
    expect((await rowOf(other.id)).name).toBe("Helena");
    // and the admins' route stays refused for another user
    const direct = await t.app.inject({
      method: "PUT",
      url: `/users/${other.id}`,
      headers: bearer(agent.token),
      payload: { name: "Helena Hackeada" },
    });
    expect(direct.statusCode).toBe(403);
    expect((await rowOf(other.id)).name).toBe("Helena");
  });

  it("keeps language, theme and notification sound on the account, for the next sign-in", async () => {
    const u = await t.createUser({ name: "Iris", password: "iris-pass", profile: "superv" });
    const res = await putProfile(u.token, { language: "es", theme: "dark", notificationSound: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ language: "es", theme: "dark", notificationSound: false });
    const next = await session(u.email, "iris-pass");
    expect((await getProfile(next.token)).json()).toMatchObject({ language: "es", theme: "dark", notificationSound: false });
    // back to the installation's theme; what is not sent stays
    const back = await putProfile(next.token, { theme: "default" });
    expect(back.json()).toMatchObject({ language: "es", theme: "default", notificationSound: false });
    for (const payload of [{ language: "de" }, { theme: "blue" }, { notificationSound: "yes" }]) {
      expect((await putProfile(next.token, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    const entry = await lastAudit(u.id);
    expect(entry).toMatchObject({ before: { theme: "dark" }, after: { theme: "default" } });
  });

  it("an admin uses it on their own account too, and nothing changed writes nothing", async () => {
    const admin = await t.createUser({ name: "Joana Admin", password: "joana-pass", profile: "admin" });
    const res = await putProfile(admin.token, { name: "Joana", theme: "light" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Joana", profile: "admin", theme: "light" });
    const entry = await lastAudit(admin.id);
    const same = await putProfile(admin.token, { name: "Joana", theme: "light" });
    expect(same.statusCode).toBe(200);
    expect((await lastAudit(admin.id)).id).toBe(entry.id);
  });
});
