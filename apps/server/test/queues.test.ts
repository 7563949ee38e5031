import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, tickets } from "../src/db/schema/index.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let agentToken: string;
beforeAll(async () => {
  t = await createTestApp();
  agentToken = (await t.createUser({ name: "Agente" })).token;
});
afterAll(() => t.teardown());

const post = (payload: object, token = t.adminToken) => t.app.inject({ method: "POST", url: "/queue", headers: bearer(token), payload });

describe("queues", () => {
  it("creates, lists, reads, updates and deletes", async () => {
    const created = await post({ name: "Suporte", color: "#0000ff", greetingMessage: "Olá do suporte" });
    expect(created.statusCode).toBe(200);
    const q = created.json();
    expect(q).toMatchObject({ name: "Suporte", color: "#0000ff", greetingMessage: "Olá do suporte" });
    const list = await t.app.inject({ method: "GET", url: "/queue", headers: bearer(agentToken) });
    expect(list.json().map((x: { id: number }) => x.id)).toContain(q.id);
    const upd = await t.app.inject({
      method: "PUT",
      url: `/queue/${q.id}`,
      headers: bearer(t.adminToken),
      payload: { name: "Suporte Técnico" },
    });
    expect(upd.json()).toMatchObject({ name: "Suporte Técnico", color: "#0000ff", greetingMessage: "Olá do suporte" });
    const del = await t.app.inject({ method: "DELETE", url: `/queue/${q.id}`, headers: bearer(t.adminToken) });
    expect(del.statusCode).toBe(200);
    const gone = await t.app.inject({ method: "GET", url: `/queue/${q.id}`, headers: bearer(t.adminToken) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
  });

  it("validates name 2–50 and color 3–9 with 'Obrigatório*' when missing", async () => {
    const missing = await post({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toMatchObject({ name: ["Obrigatório*"], color: ["Obrigatório*"] });
    const short = await post({ name: "A", color: "#1" });
    expect(short.json().fields).toMatchObject({ name: ["Too Short!"], color: ["Too Short!"] });
    const long = await post({ name: "x".repeat(51), color: "#1234567890" });
    expect(long.json().fields).toMatchObject({ name: ["Too Long!"], color: ["Too Long!"] });
  });

  it("refuses a colour already in use, in any case", async () => {
    expect((await post({ name: "Vendas", color: "#ABCDEF" })).statusCode).toBe(200);
    const dup = await post({ name: "Outra", color: "#abcdef" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" });
  });

  it("only admins write queues", async () => {
    const res = await post({ name: "Nope", color: "#999999" }, agentToken);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
  });

  it("deleting a queue keeps its tickets, left without a queue", async () => {
    const q = (await post({ name: "Temporária", color: "#333333" })).json();
    const db = t.ctx.database.db;
    const [c] = await db.insert(contacts).values({ name: "Cliente", number: "5511911112222" }).returning();
    const [tk] = await db.insert(tickets).values({ contactId: c.id, queueId: q.id, status: "pending" }).returning();
    await t.app.inject({ method: "DELETE", url: `/queue/${q.id}`, headers: bearer(t.adminToken) });
    const [after] = await db.select().from(tickets).where(eq(tickets.id, tk.id));
    expect(after).toMatchObject({ id: tk.id, queueId: null, status: "pending" });
  });
});
