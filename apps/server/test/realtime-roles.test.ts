import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createQueue, customerSays, emitAck, listen, pairedSimulator, type SimConnection, socketFor } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * Issue 12, item 2: a ticket event reaches only the sockets allowed to see the ticket in its new
 * state; those that could see it before and not now get a removal; nobody else hears of it. For
 * create, transfer, accept, finish and delete, as each role. "Nothing heard" is read after a
 * barrier event sent to every socket after the action (events of one socket arrive in order).
 */

type TicketEvent = { action: string; ticket?: { id: number; status: string; queueId: number | null }; ticketId?: number; moved?: boolean };
type Role = "admin" | "superv" | "agentA" | "agentB" | "agentNone";
const ROLES: Role[] = ["admin", "superv", "agentA", "agentB", "agentNone"];

let t: TestApp;
let url: string;
let queueA: number;
let queueB: number;
let simB: SimConnection;
const users = {} as Record<Role, { id: number; token: string }>;
const sockets = {} as Record<Role, Socket>;
const heard = {} as Record<Role, TicketEvent[]>;
let barrier = 0;

beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
  queueA = await createQueue(t, "Fila A");
  queueB = await createQueue(t, "Fila B");
  await pairedSimulator(t, { name: "WA A", queueIds: [queueA], isDefault: true });
  simB = await pairedSimulator(t, { name: "WA B", queueIds: [queueB] });
  users.admin = { id: 1, token: t.adminToken };
  users.superv = await t.createUser({ name: "Supervisora A", profile: "superv", queueIds: [queueA] });
  users.agentA = await t.createUser({ name: "Agente A", queueIds: [queueA] });
  users.agentB = await t.createUser({ name: "Agente B", queueIds: [queueB] });
  users.agentNone = await t.createUser({ name: "Agente sem fila", queueIds: [] });
  for (const role of ROLES) {
    const s = await socketFor(url, users[role].token);
    sockets[role] = s;
    heard[role] = [];
    s.on("ticket", (p: TicketEvent) => heard[role].push(p));
    expect(await emitAck(s, "joinTickets", "open")).toEqual({ ok: true });
  }
});
afterAll(async () => {
  for (const s of Object.values(sockets)) s.disconnect();
  await t.teardown();
});

/** Every socket has received everything sent before this point; answers what each heard about the ticket, and forgets it. */
async function settle(ticketId: number): Promise<Record<Role, string[]>> {
  const n = ++barrier;
  const arrived = ROLES.map((role) => new Promise<void>((resolve) => sockets[role].once(`barrier-${n}`, () => resolve())));
  // biome-ignore lint/suspicious/noExplicitAny: a test-only event outside the typed contract
  (t.io as any).emit(`barrier-${n}`);
  await Promise.all(arrived);
  const out = {} as Record<Role, string[]>;
  for (const role of ROLES) {
    out[role] = heard[role]
      .filter((p) => (p.ticket?.id ?? p.ticketId) === ticketId)
      .map((p) => (p.action === "delete" && p.moved ? "removed" : p.action));
    heard[role] = heard[role].filter((p) => (p.ticket?.id ?? p.ticketId) !== ticketId);
  }
  return out;
}

describe("ticket events by role", () => {
  it("a customer's new ticket of queue B reaches admins and queue B only (not through the no-queue room)", async () => {
    await customerSays(t, simB, "5511944440001", "quero falar com o financeiro");
    const ticket = (await api(t, t.adminToken, "GET", "/tickets?showAll=true&searchParam=5511944440001")).body.tickets[0];
    expect(ticket.queueId).toBe(queueB);
    expect(await settle(ticket.id)).toEqual({ admin: ["update"], superv: [], agentA: [], agentB: ["update"], agentNone: [] });
  });

  it("accept, transfer to another queue, finish and delete, each heard by exactly who may see it", async () => {
    await customerSays(t, simB, "5511944440002", "oi");
    const id = (await api(t, t.adminToken, "GET", "/tickets?showAll=true&searchParam=5511944440002")).body.tickets[0].id as number;
    await settle(id);

    // accept by the queue B agent
    expect((await api(t, users.agentB.token, "PUT", `/tickets/${id}`, { status: "open" })).status).toBe(200);
    expect(await settle(id)).toEqual({ admin: ["update"], superv: [], agentA: [], agentB: ["update"], agentNone: [] });

    // transfer to queue A: queue A hears it, the queue B agent (its owner until now) gets a removal
    const moved = await api(t, users.agentB.token, "PUT", `/tickets/${id}`, {
      queueId: queueA,
      userId: null,
      status: "pending",
      transf: true,
    });
    expect(moved.status).toBe(200);
    expect(await settle(id)).toEqual({ admin: ["update"], superv: ["update"], agentA: ["update"], agentB: ["removed"], agentNone: [] });

    // accept by the queue A agent, then finish
    expect((await api(t, users.agentA.token, "PUT", `/tickets/${id}`, { status: "open" })).status).toBe(200);
    expect(await settle(id)).toEqual({ admin: ["update"], superv: ["update"], agentA: ["update"], agentB: [], agentNone: [] });
    expect((await api(t, users.agentA.token, "PUT", `/tickets/${id}`, { status: "closed" })).status).toBe(200);
    expect(await settle(id)).toEqual({ admin: ["update"], superv: ["update"], agentA: ["update"], agentB: [], agentNone: [] });

    // delete (admins)
    expect((await api(t, t.adminToken, "DELETE", `/tickets/${id}`)).status).toBe(200);
    expect(await settle(id)).toEqual({ admin: ["delete"], superv: ["delete"], agentA: ["delete"], agentB: [], agentNone: [] });
  });

  it("a ticket an agent opens in their queue is heard by that queue and admins; transferred to a user of another queue, the new owner hears it", async () => {
    const contact = await api(t, users.agentA.token, "POST", "/contacts", { name: "Cliente Novo", number: "5511944440003" });
    expect(contact.status).toBe(200);
    const created = await api(t, users.agentA.token, "POST", "/tickets", { contactId: contact.body.id, queueId: queueA, status: "open" });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(await settle(id)).toEqual({ admin: ["update"], superv: ["update"], agentA: ["update"], agentB: [], agentNone: [] });

    // to the agent without queues, same queue: the owner now sees it too
    expect((await api(t, t.adminToken, "PUT", `/tickets/${id}`, { userId: users.agentNone.id, transf: true })).status).toBe(200);
    expect(await settle(id)).toEqual({ admin: ["update"], superv: ["update"], agentA: ["update"], agentB: [], agentNone: ["update"] });
  });

  it("a ticket moved out of reach also closes the chat box of whoever had it open, and its messages stop", async () => {
    await customerSays(t, simB, "5511944440004", "oi");
    const id = (await api(t, t.adminToken, "GET", "/tickets?showAll=true&searchParam=5511944440004")).body.tickets[0].id as number;
    expect(await emitAck(sockets.agentB, "joinChatBox", id)).toEqual({ ok: true });
    await settle(id);
    expect((await api(t, t.adminToken, "PUT", `/tickets/${id}`, { queueId: queueA, transf: true })).status).toBe(200);
    expect((await settle(id)).agentB).toEqual(["removed"]);
    const messages: unknown[] = [];
    sockets.agentB.on("appMessage", (p: { ticket: { id: number } }) => {
      if (p.ticket.id === id) messages.push(p);
    });
    await customerSays(t, simB, "5511944440004", "depois da transferência");
    await settle(id);
    expect(messages).toEqual([]);
  });
});
