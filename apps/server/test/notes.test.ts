import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mentionedIn } from "../src/modules/messages/notes.js";
import {
  api,
  createQueue,
  customerSays,
  heardUpTo,
  listen,
  pairedSimulator,
  phoneOf,
  recorder,
  type SimConnection,
  settle,
  socketFor,
  ticketOfContact,
} from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let sim: SimConnection;
let queueA: number;
let queueB: number;
let agent: { id: number; token: string };
let bruna: { id: number; token: string };
let carlos: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp();
  queueA = await createQueue(t, "Suporte");
  queueB = await createQueue(t, "Financeiro");
  agent = await t.createUser({ name: "Ana Souza", queueIds: [queueA] });
  bruna = await t.createUser({ name: "Bruna Lima", queueIds: [queueA] });
  carlos = await t.createUser({ name: "Carlos Dias", queueIds: [queueB] });
  sim = await pairedSimulator(t, { queueIds: [queueA] });
});
afterAll(() => t.teardown());

describe("mentionedIn", () => {
  const people = [
    { id: 1, name: "Bruna Lima" },
    { id: 2, name: "João Pedro" },
    { id: 3, name: "João Paulo" },
    { id: 4, name: "Ana" },
  ];
  it("finds full names and unique first names, accents and case ignored, whole words only", () => {
    expect(mentionedIn("@bruna veja isso", people)).toEqual([1]);
    expect(mentionedIn("@Joao Paulo e @João Pedro", people).sort()).toEqual([2, 3]);
    // "João" alone names two users: nobody
    expect(mentionedIn("@João veja", people)).toEqual([]);
    expect(mentionedIn("@Anabela", people)).toEqual([]);
    expect(mentionedIn("mail ana@x.com", people)).toEqual([]);
  });
});

describe("internal notes", () => {
  it("are stored in the conversation, never queued nor sent, out of previews, unread counts and reply times; @mentions reach who may see the ticket", async () => {
    const number = "5511970000001";
    await customerSays(t, sim, number, "minha internet caiu");
    const [ticket] = await ticketOfContact(t, number);
    expect(ticket.queueId).toBe(queueA);
    // the agent takes it
    expect((await api(t, agent.token, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: agent.id })).status).toBe(200);

    const url = await listen(t);
    const brunaSocket = await socketFor(url, bruna.token);
    const carlosSocket = await socketFor(url, carlos.token);
    const brunaHears = recorder<{ ticketId: number; byName: string; body: string }>(brunaSocket, "mention");
    const carlosHears = recorder(carlosSocket, "mention");
    try {
      const before = (await api(t, t.adminToken, "GET", `/tickets/${ticket.id}`)).body;
      const res = await api(t, agent.token, "POST", `/messages/${ticket.id}`, {
        body: "cliente já ligou 3 vezes, @Bruna Lima e @Carlos Dias vejam",
        internal: true,
      });
      expect(res.status).toBe(200);
      const [note] = res.body;
      expect(note).toMatchObject({ internal: true, source: "note", fromMe: true, userId: agent.id });
      await settle(t);

      // never queued, never on the customer's phone
      const queued = await t.ctx.db.execute(sql`select 1 from outbox where message_id = ${note.id}`);
      expect(queued.rows).toHaveLength(0);
      expect((await phoneOf(sim, number)).map((m: { body: string }) => m.body)).not.toContain(note.body);

      // the list's preview and unread count did not move (read before anyone opens the chat, which clears the count)
      const after = (await api(t, t.adminToken, "GET", `/tickets/${ticket.id}`)).body;
      expect(after.lastMessage).toBe(before.lastMessage);
      expect(after.unreadMessages).toBe(before.unreadMessages);

      // in the conversation, marked
      const list = await api(t, agent.token, "GET", `/messages/${ticket.id}`);
      expect(list.body.messages.find((m: { id: number }) => m.id === note.id)).toMatchObject({ internal: true, body: note.body });
      // a supervisor or anyone who may see the ticket reads it; an agent of another queue may not
      expect((await api(t, bruna.token, "GET", `/messages/${ticket.id}`)).body.messages.some((m: { id: number }) => m.id === note.id)).toBe(
        true,
      );
      expect((await api(t, carlos.token, "GET", `/messages/${ticket.id}`)).status).toBe(403);

      // the mention reached Bruna (same queue), not Carlos (cannot see the ticket)
      const heard = await brunaHears.waitFor((p) => p.ticketId === ticket.id);
      expect(heard).toMatchObject({ byName: "Ana Souza" });
      await heardUpTo(t, carlosSocket, queueA);
      expect(carlosHears.seen).toHaveLength(0);

      // the dashboard's first reply is still waiting: a note is no reply
      const cycle = async () =>
        (
          await t.ctx.db.execute<{ reply_at: unknown }>(
            sql`select reply_at from ticket_cycles where ticket_id = ${ticket.id} order by id desc limit 1`,
          )
        ).rows[0];
      expect((await cycle()).reply_at).toBeNull();
      const reply = await api(t, agent.token, "POST", `/messages/${ticket.id}`, { body: "Olá! Vou verificar." });
      expect(reply.status).toBe(200);
      await settle(t);
      expect((await cycle()).reply_at).not.toBeNull();
      const phone = (await phoneOf(sim, number)).filter((m: { fromMe: boolean }) => m.fromMe).map((m: { body: string }) => m.body);
      expect(phone).toContain("Olá! Vou verificar.");
      expect(phone.some((b: string) => b.includes("cliente já ligou"))).toBe(false);
    } finally {
      brunaSocket.close();
      carlosSocket.close();
    }
  });

  it("an agent of another queue cannot write one; an empty note is refused; files are refused", async () => {
    const number = "5511970000002";
    await customerSays(t, sim, number, "oi");
    const [ticket] = await ticketOfContact(t, number);
    expect((await api(t, carlos.token, "POST", `/messages/${ticket.id}`, { body: "x", internal: true })).status).toBe(403);
    expect((await api(t, agent.token, "POST", `/messages/${ticket.id}`, { body: "  ", internal: true })).status).toBe(400);
    // a pending ticket takes notes too (a supervisor's hint before anyone accepts it)
    expect((await api(t, bruna.token, "POST", `/messages/${ticket.id}`, { body: "cliente VIP", internal: true })).status).toBe(200);
  });
});
