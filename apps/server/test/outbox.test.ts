import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueMessage } from "../src/modules/outbox/enqueue.js";
import { loadTicket } from "../src/modules/tickets/queries.js";
import { api, createQueue, customerSays, pairedSimulator, phoneOf, type SimConnection, settle } from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * The outbox and its sender: stored first and answered from the commit, sent with the stored id,
 * replies in live chats at once (a typing gap per chat), unsolicited sends at the number's pace
 * without holding a reply back, priorities, order per chat, a disconnected connection holding its
 * queue, failures and 'Reenviar', idempotent requests. The sender runs on a fake clock: what waits
 * for the pace or a typing gap goes only when the test moves the clock.
 */

let t: TestApp;
const fake = fakeClock(Date.now());
let queue: number;
let agent: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp({}, { clock: fake.clock, sender: { backoffMs: (n) => 1000 * n } });
  queue = await createQueue(t, "Suporte");
  agent = await t.createUser({ name: "Ana", queueIds: [queue] });
});
afterAll(() => t.teardown());

let seq = 0;
async function openTicket(sim: SimConnection) {
  const number = `55119300${String(++seq).padStart(5, "0")}`;
  await customerSays(t, sim, number, "oi");
  const { rows } = await t.ctx.db.execute<{ id: number }>(
    sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ${number} and t.status <> 'closed'`,
  );
  await api(t, agent.token, "PUT", `/tickets/${rows[0].id}`, { status: "open" });
  return { id: rows[0].id, number };
}

/** Queues a message as another sender would (schedules, the API, disparos come through the same door). */
async function queueAs(source: "bot" | "schedule" | "api" | "disparo", ticketId: number, body: string) {
  const ticket = await loadTicket(t.ctx.db, ticketId);
  const q = await enqueueMessage(t.ctx.db, { ticket, source, userId: null, body, content: { kind: "text", body } });
  await t.conv.outbox.committed([q]);
  return q;
}

/** What the simulated phones received from this connection, in the order they received it. */
async function sentOrder(sim: SimConnection) {
  const { rows } = await t.ctx.db.execute<{ body: string }>(
    sql`select body from simulator_messages where whatsapp_id = ${sim.whatsappId} and from_me order by seq`,
  );
  return rows.map((r) => r.body);
}

describe("the outbox", () => {
  it("a disconnected connection holds its queue; on reconnect the agent goes first, then bots, schedules and the API, then disparos, each chat in order; live chats do not wait for the pace", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queue], sendIntervalMs: 1000, sendJitterMs: 0, sendBurst: 0 });
    const a = await openTicket(sim);
    const b = await openTicket(sim);
    const c = await openTicket(sim);
    const d = await openTicket(sim);
    await settle(t);
    // the phone loses its connection
    await sim.session.stop();
    await queueAs("disparo", a.id, "promoção A");
    await queueAs("disparo", b.id, "promoção B");
    await queueAs("schedule", c.id, "lembrete C");
    await queueAs("bot", b.id, "menu B");
    const reply = await api(t, agent.token, "POST", `/messages/${d.id}`, { body: "resposta D" });
    expect(reply.body[0]).toMatchObject({ ack: 0, sendError: null });
    await api(t, agent.token, "POST", `/messages/${c.id}`, { body: "resposta C" });
    await settle(t);
    expect(await sentOrder(sim)).toEqual([]);

    const clockBefore = fake.at();
    await sim.session.start();
    await settle(t);
    // the agent's reply first; in chat C the reminder was stored before the reply, in chat B the
    // promotion before the menu: a chat keeps its order
    expect(await sentOrder(sim)).toEqual(["resposta D", "lembrete C", "resposta C", "promoção A", "promoção B", "menu B"]);
    // every customer wrote today: six replies, none waited for the number's pace (the clock never moved)
    expect(fake.at()).toBe(clockBefore);
    expect((await t.ctx.db.execute(sql`select id from outbox where whatsapp_id = ${sim.whatsappId}`)).rows).toHaveLength(0);
  });

  it("with the default settings, replies in 10 live chats reach every phone without waiting for each other or the pace; a chat's next reply follows its typing gap, in order", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queue], defaultPace: true });
    const settings = (await api(t, t.adminToken, "GET", `/whatsapp/${sim.whatsappId}`)).body;
    expect(settings).toMatchObject({ sendIntervalMs: 1000, sendJitterMs: 1500, sendBurst: 3, replyGapMs: 300 });
    const chats = [];
    for (let i = 0; i < 10; i++) chats.push(await openTicket(sim));
    await settle(t);
    for (const [i, chat] of chats.entries()) {
      for (const n of [1, 2, 3])
        expect((await api(t, agent.token, "POST", `/messages/${chat.id}`, { body: `resposta ${n} ao cliente ${i}` })).status).toBe(200);
    }
    const replies = async (chat: { number: string }) => (await phoneOf(sim, chat.number)).filter((m) => m.fromMe).map((m) => m.body);
    await settle(t);
    // the clock has not moved: every chat's first reply is on its phone, the next ones wait for their typing gap
    for (const [i, chat] of chats.entries()) expect(await replies(chat)).toEqual([`resposta 1 ao cliente ${i}`]);
    fake.advance(300);
    await settle(t);
    for (const [i, chat] of chats.entries())
      expect(await replies(chat)).toEqual([`resposta 1 ao cliente ${i}`, `resposta 2 ao cliente ${i}`]);
    fake.advance(300);
    await settle(t);
    for (const [i, chat] of chats.entries()) expect(await replies(chat)).toEqual([1, 2, 3].map((n) => `resposta ${n} ao cliente ${i}`));
  });

  it("unsolicited sends (the message API to numbers that never wrote) keep the number's pace and hold no reply back; a quiet chat whose customer writes gets its waiting message at once", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queue], defaultPace: true });
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { token: "tok-pace" })).status).toBe(200);
    const live = [await openTicket(sim), await openTicket(sim)];
    const later = await openTicket(sim);
    await settle(t);
    const quiet = Array.from({ length: 5 }, (_, i) => `55119400${String(++seq).padStart(4, "0")}${i}`);
    for (const number of quiet) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/messages/send",
        headers: { authorization: "Bearer tok-pace" },
        payload: { number, body: `aviso para ${number}` },
      });
      expect(res.statusCode).toBe(200);
    }
    for (const chat of live) await api(t, agent.token, "POST", `/messages/${chat.id}`, { body: `resposta a ${chat.number}` });
    const got = async (number: string) => (await phoneOf(sim, number)).filter((m) => m.fromMe).map((m) => m.body);
    const noticesSent = async () => (await Promise.all(quiet.map(got))).filter((x) => x.length > 0).length;
    await settle(t);
    // the burst of 3 went, the 4th waits for the pace; both replies are on their phones
    expect(await noticesSent()).toBe(3);
    for (const chat of live) expect(await got(chat.number)).toEqual([`resposta a ${chat.number}`]);
    // a reply written while the pace is closed goes at once
    await api(t, agent.token, "POST", `/messages/${later.id}`, { body: "uma resposta depois" });
    await settle(t);
    expect(await got(later.number)).toEqual(["uma resposta depois"]);
    expect(await noticesSent()).toBe(3);
    // 1 s plus up to 1.5 s of jitter later, the 4th; the 5th waits its own interval
    fake.advance(2500);
    await settle(t);
    expect(await noticesSent()).toBe(4);
    // the 5th's customer writes: the chat is live now, and its waiting message goes without the pace
    const waiting = [];
    for (const n of quiet) if ((await got(n)).length === 0) waiting.push(n);
    expect(waiting).toHaveLength(1);
    await customerSays(t, sim, waiting[0], "oi, recebi?");
    await settle(t);
    expect(await got(waiting[0])).toEqual([`aviso para ${waiting[0]}`]);
    expect(await noticesSent()).toBe(5);
  });

  it("a refused number: the message fails with its reason after one attempt (permanent), the preview says so; 'Reenviar' sends it with the same id once allowed", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queue] });
    const tk = await openTicket(sim);
    await sim.session.setRefused(tk.number, true);
    const [sent] = (await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "sua fatura" })).body;
    await settle(t);
    const failed = await api(t, agent.token, "GET", `/messages/${tk.id}`);
    expect(failed.body.messages.at(-1)).toMatchObject({ id: sent.id, ack: 0, sendError: "the number does not receive messages" });
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body).toMatchObject({
      lastMessage: "sua fatura",
      lastMessageFailed: true,
    });
    expect((await phoneOf(sim, tk.number)).some((m) => m.body === "sua fatura")).toBe(false);

    // only a failed message can be sent again, by who may write in the ticket
    const other = await t.createUser({ name: "Beto", queueIds: [queue] });
    expect((await api(t, other.token, "POST", `/messages/${sent.id}/resend`)).body).toEqual({ error: "ERR_NO_PERMISSION" });
    await sim.session.setRefused(tk.number, false);
    const again = await api(t, agent.token, "POST", `/messages/${sent.id}/resend`);
    expect(again.body).toMatchObject({ id: sent.id, sendError: null, ack: 0 });
    await settle(t);
    expect((await phoneOf(sim, tk.number)).filter((m) => m.body === "sua fatura").map((m) => m.id)).toEqual([sent.wid]);
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body.lastMessageFailed).toBe(false);
    expect((await api(t, agent.token, "POST", `/messages/${sent.id}/resend`)).body).toEqual({ error: "ERR_MESSAGE_NOT_FAILED" });
  });

  it("a transient failure is retried with backoff on the sender's clock; after the last attempt the message fails", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queue] });
    const tk = await openTicket(sim);
    // the phone takes the message only at the third attempt
    const realSend = sim.session.send.bind(sim.session);
    let calls = 0;
    sim.session.send = async (...args) => {
      calls++;
      if (calls < 3) throw new Error("stream errored");
      return realSend(...args);
    };
    try {
      const [sent] = (await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "tentando" })).body;
      await settle(t);
      expect(calls).toBe(1);
      const [row] = (
        await t.ctx.db.execute<{ attempts: number; last_error: string }>(
          sql`select attempts, last_error from outbox where message_id = ${sent.id}`,
        )
      ).rows;
      expect(row).toMatchObject({ attempts: 1, last_error: "stream errored" });
      fake.advance(1000);
      await settle(t);
      expect(calls).toBe(2);
      fake.advance(2000);
      await settle(t);
      expect(calls).toBe(3);
      expect((await phoneOf(sim, tk.number)).filter((m) => m.body === "tentando").map((m) => m.id)).toEqual([sent.wid]);
    } finally {
      sim.session.send = realSend;
    }

    // always failing: six attempts, then failed with the last reason
    sim.session.send = async () => {
      throw new Error("still broken");
    };
    try {
      const [doomed] = (await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "sem sorte" })).body;
      await settle(t);
      for (let i = 1; i <= 6; i++) {
        fake.advance(1000 * i);
        await settle(t);
      }
      const [m] = (await api(t, agent.token, "GET", `/messages/${tk.id}`)).body.messages.filter((x: { id: number }) => x.id === doomed.id);
      expect(m.sendError).toBe("still broken");
    } finally {
      sim.session.send = realSend;
    }
  });

  it("a message deleted before it was sent never reaches the phone", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queue] });
    const tk = await openTicket(sim);
    await sim.session.stop();
    const [sent] = (await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "rascunho" })).body;
    expect((await api(t, agent.token, "DELETE", `/messages/${sent.id}`)).body).toMatchObject({ id: sent.id, isDeleted: true });
    await sim.session.start();
    await settle(t);
    expect((await phoneOf(sim, tk.number)).some((m) => m.body === "rascunho")).toBe(false);
  });
});

describe("Idempotency-Key", () => {
  it("the same key from the same agent answers the first message and sends nothing new; another agent's key is their own", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queue] });
    const tk = await openTicket(sim);
    const post = (token: string, key: string, body: string) =>
      t.app.inject({
        method: "POST",
        url: `/messages/${tk.id}`,
        headers: { authorization: `Bearer ${token}`, "idempotency-key": key },
        payload: { body },
      });
    const first = await post(agent.token, "compose-1", "uma vez só");
    // a browser retrying after a lost answer, twice at once
    const [retry1, retry2] = await Promise.all([
      post(agent.token, "compose-1", "uma vez só"),
      post(agent.token, "compose-1", "uma vez só"),
    ]);
    expect(first.statusCode).toBe(200);
    expect(retry1.json()).toEqual(first.json());
    expect(retry2.json()).toEqual(first.json());
    await settle(t);
    expect((await phoneOf(sim, tk.number)).filter((m) => m.body === "uma vez só")).toHaveLength(1);
    const { rows } = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from messages where ticket_id = ${tk.id} and body = 'uma vez só'`,
    );
    expect(rows[0].n).toBe(1);

    // a double click: two first requests with one key at the same moment store and send one message
    const [twinA, twinB] = await Promise.all([
      post(agent.token, "compose-3", "clique duplo"),
      post(agent.token, "compose-3", "clique duplo"),
    ]);
    expect([twinA.statusCode, twinB.statusCode]).toEqual([200, 200]);
    expect(twinB.json()[0].id).toBe(twinA.json()[0].id);
    await settle(t);
    expect((await phoneOf(sim, tk.number)).filter((m) => m.body === "clique duplo")).toHaveLength(1);

    const second = await post(agent.token, "compose-2", "outra");
    expect(second.json()[0].id).not.toBe(first.json()[0].id);
    const admin = await post(t.adminToken, "compose-1", "do admin");
    expect(admin.json()[0].body).toBe("do admin");
    expect((await post(agent.token, "x".repeat(300), "longa")).statusCode).toBe(400);
  });
});
