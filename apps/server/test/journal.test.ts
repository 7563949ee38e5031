import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJournal } from "../src/modules/messages/journal.js";
import { api, createQueue, customerSays, pairedSimulator, type SimConnection, settle } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * The inbound journal: every event is written before it is handled and marked done with its
 * effects; what was journaled but not handled is handled when the session starts again; a
 * handler that keeps failing leaves the event failed (never dropped) and visible to admins. And
 * the simulator, like WhatsApp's server, delivers again what the product never journaled.
 */

let t: TestApp;
let sim: SimConnection;

beforeAll(async () => {
  t = await createTestApp({}, { journalRetryDelayMs: () => 1 });
  const queue = await createQueue(t, "Suporte");
  sim = await pairedSimulator(t, { queueIds: [queue] });
});
afterAll(() => t.teardown());

const rowsOf = async (wid: string) =>
  (
    await t.ctx.db.execute<{ state: string; attempts: number }>(
      sql`select state, attempts from inbound_events where event->'message'->>'id' = ${wid} or event->>'id' = ${wid}`,
    )
  ).rows;
const stored = async (wid: string) =>
  (await t.ctx.db.execute<{ body: string }>(sql`select body from messages where whatsapp_id = ${sim.whatsappId} and wid = ${wid}`)).rows;

describe("the inbound journal", () => {
  it("a customer's message is journaled, then stored, and its journal row marked done in the same transaction", async () => {
    const id = await customerSays(t, sim, "5511940000001", "minha internet caiu");
    expect(await stored(id)).toEqual([{ body: "minha internet caiu" }]);
    expect(await rowsOf(id)).toEqual([{ state: "done", attempts: 0 }]);
  });

  it("an event journaled before a crash, never handled, is handled when the connection's session starts again", async () => {
    // what the channel layer wrote just before the process died
    const journal = createJournal(t.ctx.db);
    const wid = "SIMINCRASHED000001";
    await journal.append(sim.whatsappId, "5511940000002", {
      type: "message",
      message: {
        id: wid,
        fromMe: false,
        chat: { number: "5511940000002", isGroup: false, name: "Rita" },
        pushName: "Rita",
        timestamp: new Date(),
        body: "ficou sem sinal",
        mediaType: "chat",
      },
    });
    expect(await stored(wid)).toEqual([]);
    await api(t, t.adminToken, "POST", `/whatsappsession/${sim.whatsappId}`);
    await settle(t);
    expect(await stored(wid)).toEqual([{ body: "ficou sem sinal" }]);
    expect(await rowsOf(wid)).toEqual([{ state: "done", attempts: 0 }]);
    sim = { ...sim, session: t.simulator.get(sim.whatsappId) ?? sim.session };
  });

  it("a handler that keeps failing: tried again, then kept as failed with its error and listed for admins; nothing else waits on it", async () => {
    const journal = createJournal(t.ctx.db);
    // a message without any address cannot be stored
    await t.channels.receive(sim.whatsappId, {
      type: "message",
      message: { id: "SIMINBROKEN0001", fromMe: false, chat: { isGroup: false }, timestamp: new Date(), body: "?", mediaType: "chat" },
    });
    await settle(t);
    expect(await rowsOf("SIMINBROKEN0001")).toEqual([{ state: "failed", attempts: 8 }]);
    expect(await journal.pending(sim.whatsappId)).toEqual([]);
    const jobs = await api(t, t.adminToken, "GET", "/jobs");
    expect(jobs.body.failedEvents).toEqual([
      expect.objectContaining({
        whatsappId: sim.whatsappId,
        type: "message",
        attempts: 8,
        lastError: "inbound message without an address",
      }),
    ]);
    const agent = await t.createUser({ name: "Ana" });
    expect((await api(t, agent.token, "GET", "/jobs")).status).toBe(403);
    // the next message is handled as usual
    const ok = await customerSays(t, sim, "5511940000003", "alô");
    expect(await stored(ok)).toEqual([{ body: "alô" }]);
  });

  it("a NUL in a customer's text or name from a channel is dropped, the message kept", async () => {
    await t.channels.receive(sim.whatsappId, {
      type: "message",
      message: {
        id: "SIMINNUL000001",
        fromMe: false,
        chat: { number: "5511940000004", isGroup: false, name: "Jo\u0000ão" },
        pushName: "Jo\u0000ão",
        timestamp: new Date(),
        body: "sem\u0000 sinal",
        mediaType: "chat",
      },
    });
    await settle(t);
    expect(await stored("SIMINNUL000001")).toEqual([{ body: "sem sinal" }]);
    const { rows } = await t.ctx.db.execute<{ name: string }>(sql`select name from contacts where number = '5511940000004'`);
    expect(rows).toEqual([{ name: "João" }]);
  });
});

describe("the journal's group commit", () => {
  it("events appended together are written together, in the order they came, each exactly as it was", async () => {
    const journal = createJournal(t.ctx.db);
    // a connection no session runs: nothing handles these events, they stay pending to be read back
    const [{ id: whatsappId }] = (
      await t.ctx.db.execute<{ id: number }>(sql`insert into whatsapps (name, type) values ('Journal only', 'simulator') returning id`)
    ).rows;
    const bodies = [
      "aspas \"duplas\" e 'simples'",
      'barra \\ invertida e \\" junto',
      "linha 1\nlinha 2\ttab",
      "{chaves, vírgulas}",
      "emoji 🚀 e acentuação çãé",
      "",
      "NULL",
      ...Array.from({ length: 30 }, (_, i) => `mensagem ${i}`),
    ];
    const events = bodies.map((body, i) => ({
      type: "message" as const,
      message: {
        id: `GROUP${i}`,
        fromMe: false,
        chat: { number: `55119400100${String(i % 3).padStart(2, "0")}`, isGroup: false },
        timestamp: new Date(Date.UTC(2026, 10, 27, 12, 0, i)),
        body,
        mediaType: "chat" as const,
      },
    }));
    // all at once: the first goes alone, the rest wait for it and go in one insert
    const ids = await Promise.all(events.map((e) => journal.append(whatsappId, e.message.chat.number, e)));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const batches = await t.ctx.db.execute<{ n: number }>(
      sql`select count(distinct xmin::text)::int as n from inbound_events where whatsapp_id = ${whatsappId}`,
    );
    expect(batches.rows[0].n).toBe(2);
    const back = await journal.pending(whatsappId);
    expect(back.map((p) => p.id)).toEqual(ids);
    expect(back.map((p) => p.event)).toEqual(events);
    const rows = await t.ctx.db.execute<{ chat: string; type: string }>(
      sql`select chat, type from inbound_events where whatsapp_id = ${whatsappId} order by id`,
    );
    expect(rows.rows).toEqual(events.map((e) => ({ chat: e.message.chat.number, type: "message" })));
  });
});

describe("the simulator, like WhatsApp's server", () => {
  it("a customer message the product never journaled is delivered again when the session reconnects", async () => {
    // the customer's phone sent it; the server died before the channel layer wrote it
    await t.ctx.db.execute(sql`insert into simulator_chats (whatsapp_id, number, name) values (${sim.whatsappId}, '5511940000005', 'Leo')`);
    await t.ctx.db.execute(sql`
      insert into simulator_messages (whatsapp_id, id, chat, from_me, body, ack, delivered, sender_name)
      values (${sim.whatsappId}, 'SIMINUNDELIVERED01', '5511940000005', false, 'alguém aí?', 2, false, 'Leo')`);
    await api(t, t.adminToken, "POST", `/whatsappsession/${sim.whatsappId}`);
    await t.simulator.get(sim.whatsappId)?.redelivered();
    await settle(t);
    expect(await stored("SIMINUNDELIVERED01")).toEqual([{ body: "alguém aí?" }]);
    const again = (
      await t.ctx.db.execute<{ delivered: boolean }>(sql`select delivered from simulator_messages where id = 'SIMINUNDELIVERED01'`)
    ).rows;
    expect(again).toEqual([{ delivered: true }]);
  });

  it("the same client-chosen id twice is one message, at the simulator and in the product", async () => {
    const res1 = await api(t, t.adminToken, "POST", `/simulator/api/connections/${sim.whatsappId}/messages`, {
      number: "5511940000006",
      body: "uma",
      id: "CLIENTCHOSEN0001",
    });
    const res2 = await api(t, t.adminToken, "POST", `/simulator/api/connections/${sim.whatsappId}/messages`, {
      number: "5511940000006",
      body: "uma",
      id: "CLIENTCHOSEN0001",
    });
    expect([res1.body, res2.body]).toEqual([{ id: "CLIENTCHOSEN0001" }, { id: "CLIENTCHOSEN0001" }]);
    await settle(t);
    expect(await stored("CLIENTCHOSEN0001")).toEqual([{ body: "uma" }]);
    const atSim = (await t.ctx.db.execute(sql`select id from simulator_messages where id = 'CLIENTCHOSEN0001'`)).rows;
    expect(atSim).toHaveLength(1);
  });
});
