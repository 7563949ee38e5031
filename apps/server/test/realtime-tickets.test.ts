import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createQueue,
  customerSays,
  emitAck,
  listen,
  pairedSimulator,
  eventually,
  heardUpTo,
  recorder,
  type SimConnection,
  socketFor,
} from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

type AppMessage = {
  action: string;
  message: { body: string; ticketId: number; ack: number };
  ticket: { id: number };
  contact: { number: string };
};
type TicketEvent = { action: string; ticket?: { id: number; status: string; queueId: number | null }; ticketId?: number };

let t: TestApp;
let url: string;
let support: number;
let billing: number;
let simSupport: SimConnection;
let simBilling: SimConnection;
let agent: { id: number; token: string };
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
  support = await createQueue(t, "Suporte");
  billing = await createQueue(t, "Financeiro");
  agent = await t.createUser({ name: "Ana", queueIds: [support] });
  simSupport = await pairedSimulator(t, { name: "Suporte WA", queueIds: [support] });
  simBilling = await pairedSimulator(t, { name: "Financeiro WA", queueIds: [billing] });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.teardown();
});

async function open(token: string) {
  const s = await socketFor(url, token);
  sockets.push(s);
  return s;
}

async function ticketIdOf(number: string): Promise<number> {
  const res = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${number}`);
  return res.body.tickets[0].id;
}

describe("socket rooms", () => {
  it("a socket without a valid token is refused", async () => {
    await expect(socketFor(url, "not-a-token")).rejects.toThrow();
  });

  it("nothing about tickets is heard before a join; after joinTickets only the user's queues", async () => {
    const s = await open(agent.token);
    const msgs = recorder<AppMessage>(s, "appMessage");
    await customerSays(t, simSupport, "5511930000001", "antes do join");
    await heardUpTo(t, s, support);
    expect(msgs.seen).toHaveLength(0);

    expect(await emitAck(s, "joinTickets", "pending")).toEqual({ ok: true });
    await customerSays(t, simBilling, "5511930000002", "de outra fila");
    await customerSays(t, simSupport, "5511930000001", "da minha fila");
    await msgs.waitFor((p) => p.message.body === "da minha fila");
    expect(msgs.seen.map((p) => p.message.body)).toEqual(["da minha fila"]);
    expect(msgs.seen[0]).toMatchObject({ action: "create", contact: { number: "5511930000001" } });
  });

  it("joinChatBox is refused for a ticket of another queue, and its messages are not heard", async () => {
    await customerSays(t, simBilling, "5511930000003", "oi");
    const foreign = await ticketIdOf("5511930000003");
    const s = await open(agent.token);
    const msgs = recorder<AppMessage>(s, "appMessage");
    expect(await emitAck(s, "joinChatBox", foreign)).toEqual({ ok: false, error: "ERR_NO_PERMISSION" });
    expect(await emitAck(s, "joinChatBox", 999999)).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    expect(await emitAck(s, "joinChatBox", "abc")).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    await customerSays(t, simBilling, "5511930000003", "segredo");
    await heardUpTo(t, s, support);
    expect(msgs.seen).toHaveLength(0);
    // an admin may join it
    const admin = await open(t.adminToken);
    expect(await emitAck(admin, "joinChatBox", foreign)).toEqual({ ok: true });
  });

  it("a ticket transferred out of the agent's queues leaves their chat box and their list", async () => {
    await customerSays(t, simSupport, "5511930000004", "oi");
    const id = await ticketIdOf("5511930000004");
    await api(t, agent.token, "PUT", `/tickets/${id}`, { status: "open" });
    const s = await open(agent.token);
    const tickets = recorder<TicketEvent>(s, "ticket");
    const msgs = recorder<AppMessage>(s, "appMessage");
    expect(await emitAck(s, "joinChatBox", id)).toEqual({ ok: true });
    expect(await emitAck(s, "joinNotification")).toEqual({ ok: true });
    await api(t, agent.token, "PUT", `/tickets/${id}`, { queueId: billing, status: "pending", userId: null, transf: true });
    // a removal (not the ticket: it is out of the agent's reach now) so the list drops it
    const moved = await tickets.waitFor((p) => p.action === "delete" && p.ticketId === id);
    expect(moved).toEqual({ action: "delete", ticketId: id, moved: true });
    await customerSays(t, simSupport, "5511930000004", "depois da transferência");
    await heardUpTo(t, s, support);
    expect(msgs.seen.filter((p) => p.ticket.id === id)).toHaveLength(0);
  });

  it("updateUnread when a ticket is read, and delete when an admin deletes it", async () => {
    await customerSays(t, simSupport, "5511930000005", "oi");
    const id = await ticketIdOf("5511930000005");
    const s = await open(agent.token);
    const tickets = recorder<TicketEvent>(s, "ticket");
    await emitAck(s, "joinTickets", "open");
    await api(t, agent.token, "GET", `/messages/${id}`);
    await tickets.waitFor((p) => p.action === "updateUnread" && p.ticketId === id);
    await api(t, t.adminToken, "DELETE", `/tickets/${id}`);
    await tickets.waitFor((p) => p.action === "delete" && p.ticketId === id);
  });

  it("an agent given a new queue hears it without reconnecting", async () => {
    const s = await open(agent.token);
    const msgs = recorder<AppMessage>(s, "appMessage");
    await emitAck(s, "joinTickets", "pending");
    await api(t, t.adminToken, "PUT", `/users/${agent.id}`, { queueIds: [support, billing] });
    // the server moves the socket into the new queue's room on its own
    await eventually(async () => (await t.io.in(`tickets:queue:${billing}`).fetchSockets()).some((x) => x.id === s.id), "the new room");
    await customerSays(t, simBilling, "5511930000006", "nova fila");
    await msgs.waitFor((p) => p.message.body === "nova fila");
    await api(t, t.adminToken, "PUT", `/users/${agent.id}`, { queueIds: [support] });
  });
});
