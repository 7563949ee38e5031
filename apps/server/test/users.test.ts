import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, tickets } from "../src/db/schema/index.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let agent: { id: number; token: string; email: string };
let queueId: number;
beforeAll(async () => {
  t = await createTestApp();
  const q = await t.app.inject({
    method: "POST",
    url: "/queue",
    headers: bearer(t.adminToken),
    payload: { name: "Financeiro", color: "#00aa00" },
  });
  queueId = q.json().id;
  agent = await t.createUser({ name: "Agente", queueIds: [queueId] });
});
afterAll(() => t.teardown());

const as = (token: string) => ({ headers: bearer(token) });

describe("users", () => {
  it("admin creates a user with queues; the answer never carries the password", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      ...as(t.adminToken),
      payload: { name: "Carla Souza", email: "Carla@Example.com", password: "12345", profile: "superv", queueIds: [queueId] },
    });
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({
      name: "Carla Souza",
      email: "carla@example.com",
      profile: "superv",
      queues: [{ id: queueId, name: "Financeiro" }],
    });
    expect(JSON.stringify(user)).not.toContain("12345");
  });

  it("validates with the spec's messages", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      ...as(t.adminToken),
      payload: { name: "A", email: "bad", password: "123", profile: "boss" },
    });
    expect(res.statusCode).toBe(400);
    const { fields } = res.json();
    expect(fields.name).toContain("Too Short!");
    expect(fields.email).toEqual(["Invalid email"]);
    expect(fields.password).toEqual(["Too Short!"]);
    expect(fields.profile).toBeDefined();
    const long = await t.app.inject({
      method: "POST",
      url: "/users",
      ...as(t.adminToken),
      payload: { name: "x".repeat(51), email: "a@b.co", password: "x".repeat(51) },
    });
    expect(long.json().fields).toMatchObject({ name: ["Too Long!"], password: ["Too Long!"] });
    const missing = await t.app.inject({ method: "POST", url: "/users", ...as(t.adminToken), payload: {} });
    expect(missing.json().fields).toMatchObject({ name: ["Required"], email: ["Required"], password: ["Required"] });
  });

  it("refuses a duplicated e-mail with 409", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      ...as(t.adminToken),
      payload: { name: "Dup", email: agent.email.toUpperCase(), password: "12345" },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: "ERR_USER_EMAIL_ALREADY_EXISTS" });
  });

  it("refuses an unknown queue", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      ...as(t.adminToken),
      payload: { name: "Zed", email: "zed@x.com", password: "12345", queueIds: [9999] },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
    const list = await t.app.inject({ method: "GET", url: "/users?searchParam=zed", ...as(t.adminToken) });
    expect(list.json().count).toBe(0); // nothing half-written
  });

  it("lists with search and pages in SQL", async () => {
    for (let i = 0; i < 5; i++) await t.createUser({ name: `Paginado ${i}` });
    const p1 = await t.app.inject({ method: "GET", url: "/users/?searchParam=paginado&pageNumber=1&rowsPerPage=2", ...as(agent.token) });
    expect(p1.statusCode).toBe(200);
    expect(p1.json()).toMatchObject({ count: 5, hasMore: true });
    expect(p1.json().users.map((u: { name: string }) => u.name)).toEqual(["Paginado 0", "Paginado 1"]);
    const p3 = await t.app.inject({ method: "GET", url: "/users?searchParam=paginado&pageNumber=3&rowsPerPage=2", ...as(agent.token) });
    expect(p3.json()).toMatchObject({ count: 5, hasMore: false });
    expect(p3.json().users).toHaveLength(1);
  });

  it("caps the page size at the documented maximum", async () => {
    const res = await t.app.inject({ method: "GET", url: "/users?rowsPerPage=10000", ...as(t.adminToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json().users.length).toBeLessThanOrEqual(200);
  });

  it("only admins create, delete or change profiles and queues", async () => {
    const create = await t.app.inject({
      method: "POST",
      url: "/users",
      ...as(agent.token),
      payload: { name: "Hacker", email: "h@x.com", password: "12345" },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    const promote = await t.app.inject({ method: "PUT", url: `/users/${agent.id}`, ...as(agent.token), payload: { profile: "admin" } });
    expect(promote.statusCode).toBe(403);
    const other = await t.createUser({ name: "Outro" });
    const editOther = await t.app.inject({ method: "PUT", url: `/users/${other.id}`, ...as(agent.token), payload: { name: "Renamed" } });
    expect(editOther.statusCode).toBe(403);
    const del = await t.app.inject({ method: "DELETE", url: `/users/${other.id}`, ...as(agent.token) });
    expect(del.statusCode).toBe(403);
  });

  it("a profile change applies to the user's very next request", async () => {
    const u = await t.createUser({ name: "Promovido", profile: "admin" });
    const adminCall = () =>
      t.app.inject({
        method: "POST",
        url: "/queue",
        ...as(u.token),
        payload: { name: `Fila ${Date.now()}`, color: `#${Math.random().toString(16).slice(2, 8)}` },
      });
    expect((await adminCall()).statusCode).toBe(200);
    await t.app.inject({ method: "PUT", url: `/users/${u.id}`, ...as(t.adminToken), payload: { profile: "user" } });
    expect((await adminCall()).statusCode).toBe(403);
  });

  it("a user edits their own name", async () => {
    const res = await t.app.inject({ method: "PUT", url: `/users/${agent.id}`, ...as(agent.token), payload: { name: "Agente Renomeado" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Agente Renomeado", profile: "user", queues: [{ id: queueId }] });
  });

  it("admin edits profile and queues; an empty password keeps the old one", async () => {
    const u = await t.createUser({ name: "Mutavel", password: "keepme" });
    const res = await t.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      ...as(t.adminToken),
      payload: { profile: "superv", queueIds: [queueId], password: "" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: "superv", queues: [{ id: queueId }] });
    expect(await t.login(u.email, "keepme")).toMatch(/^ey/);
  });

  it("unknown ids answer ERR_NO_USER_FOUND", async () => {
    for (const method of ["GET", "PUT", "DELETE"] as const) {
      const res = await t.app.inject({
        method,
        url: "/users/999999",
        ...as(t.adminToken),
        ...(method === "PUT" && { payload: { name: "Nobody" } }),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: "ERR_NO_USER_FOUND" });
    }
    expect((await t.app.inject({ method: "GET", url: "/users/abc", ...as(t.adminToken) })).statusCode).toBe(400);
  });

  it("keeps at least one admin and refuses self-deletion", async () => {
    const me = await t.app.inject({ method: "GET", url: "/users?searchParam=admin@balcao", ...as(t.adminToken) });
    const adminId = me.json().users[0].id;
    const self = await t.app.inject({ method: "DELETE", url: `/users/${adminId}`, ...as(t.adminToken) });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ error: "ERR_CANNOT_DELETE_SELF" });
    const demote = await t.app.inject({ method: "PUT", url: `/users/${adminId}`, ...as(t.adminToken), payload: { profile: "user" } });
    expect(demote.statusCode).toBe(400);
    expect(demote.json()).toEqual({ error: "ERR_LAST_ADMIN" });
  });

  it("deleting a user moves their open tickets back to their queue, waiting", async () => {
    const u = await t.createUser({ name: "Saindo", queueIds: [queueId] });
    const db = t.ctx.database.db;
    const [c] = await db.insert(contacts).values({ name: "Cliente", number: "5511900000001" }).returning();
    const [open] = await db.insert(tickets).values({ contactId: c.id, userId: u.id, queueId, status: "open" }).returning();
    const [c2] = await db.insert(contacts).values({ name: "Cliente 2", number: "5511900000002" }).returning();
    const [closed] = await db.insert(tickets).values({ contactId: c2.id, userId: u.id, queueId, status: "closed" }).returning();
    const res = await t.app.inject({ method: "DELETE", url: `/users/${u.id}`, ...as(t.adminToken) });
    expect(res.statusCode).toBe(200);
    const [after] = await db.select().from(tickets).where(eq(tickets.id, open.id));
    expect(after).toMatchObject({ status: "pending", userId: null, queueId });
    const [afterClosed] = await db.select().from(tickets).where(eq(tickets.id, closed.id));
    expect(afterClosed).toMatchObject({ status: "closed", userId: null });
    // the deleted user's token stops working at once
    expect((await t.app.inject({ method: "GET", url: "/users", ...as(u.token) })).statusCode).toBe(403);
  });
});
