import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, database, freePort, login, pool, quiet, Server, pairedConnection } from "./crash-kit.js";

/**
 * Nothing lost, nothing twice — with the server process killed (SIGKILL) in the middle of the
 * work and started again on the same database. 50 customers send 2 000 messages through the
 * simulator while agents send 300 messages, 10 at a time; every request that fails because the
 * server died is sent again after the restart (customer messages with their message id, agent
 * sends with their Idempotency-Key). Then, counted by body and by channel id: every customer
 * message stored once, every agent message stored once and received once by the customer's phone.
 * Runs on PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite.
 */

const CUSTOMERS = 50;
const INBOUND = 2000;
const OUTBOUND = 300;
const OUT_PARALLEL = 10;
const IN_PARALLEL = 20;
/** the kill comes when this many agent sends have been answered (customer messages are still flowing then) */
const KILL_AFTER_OUTBOUND = 150;

afterAll(cleanupAll);

describe("a server killed mid-burst loses nothing and sends nothing twice", () => {
  it("2 000 customer messages in, 300 agent messages out, SIGKILL in the middle", async () => {
    const { env, engine } = await database();
    const server = new Server(await freePort(), env);
    await server.start();
    let token = await login(server.base);

    // a paired simulator connection that sends without pacing, and 50 customers with an open ticket each
    const conn = await pairedConnection(server.base, token, "Crash", { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `55119600${String(i).padStart(5, "0")}`);
    for (const number of customers) {
      await call(server.base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, {
        number,
        name: `C${number.slice(-3)}`,
        body: `hello ${number}`,
      });
    }
    await quiet(server.base, token);
    const ticketOf = new Map<string, number>();
    for (let page = 1; ticketOf.size < CUSTOMERS && page < 10; page++) {
      const list = await call(server.base, token, "GET", `/tickets?showAll=true&status=pending&rowsPerPage=200&pageNumber=${page}`);
      for (const t of list.tickets) ticketOf.set(t.contact.number, t.id);
    }
    expect(ticketOf.size).toBe(CUSTOMERS);
    for (const id of ticketOf.values()) await call(server.base, token, "PUT", `/tickets/${id}`, { status: "open" });

    const inbound = Array.from({ length: INBOUND }, (_, i) => ({
      i,
      number: customers[i % CUSTOMERS],
      id: `CRASHIN${String(i).padStart(6, "0")}`,
    }));
    const outbound = Array.from({ length: OUTBOUND }, (_, i) => ({ i, number: customers[i % CUSTOMERS], key: `crash-out-${i}` }));
    const sendIn = (m: (typeof inbound)[number]) =>
      call(server.base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, { number: m.number, body: `in ${m.i}`, id: m.id });
    const sendOut = (m: (typeof outbound)[number]) =>
      call(server.base, token, "POST", `/messages/${ticketOf.get(m.number)}`, { body: `agent ${m.i}` }, { "idempotency-key": m.key });

    // the burst, and the kill in its middle
    const failedIn: typeof inbound = [];
    const failedOut: typeof outbound = [];
    let doneOut = 0;
    let killed: Promise<void> | undefined;
    const burst = Promise.all([
      pool(inbound, IN_PARALLEL, sendIn, failedIn),
      pool(outbound, OUT_PARALLEL, sendOut, failedOut, () => {
        if (++doneOut === KILL_AFTER_OUTBOUND) killed = server.kill();
      }),
    ]);
    await burst;
    expect(killed).toBeDefined();
    await killed;

    // started again on the same database; the clients retry what failed, with the same ids and keys
    await server.start();
    token = await login(server.base);
    const stillIn: typeof inbound = [];
    const stillOut: typeof outbound = [];
    await pool(failedIn, IN_PARALLEL, sendIn, stillIn);
    await pool(failedOut, OUT_PARALLEL, sendOut, stillOut);
    expect([stillIn.length, stillOut.length]).toEqual([0, 0]);

    // everything handled and sent
    const health = await quiet(server.base, token);
    expect(health).toMatchObject({ outbox: { queued: 0, failed: 0 }, inbound: { pending: 0, failed: 0 } });

    // count, by body and by channel id, in the product and on the customers' phones
    const productBodies = new Map<string, number>();
    const productWids = new Map<string, number>();
    const widOfAgent = new Map<string, string>();
    for (const [number, ticketId] of ticketOf) {
      const all: { body: string; wid: string; fromMe: boolean }[] = [];
      for (let page = 1; ; page++) {
        const res = await call(server.base, token, "GET", `/messages/${ticketId}?rowsPerPage=200&pageNumber=${page}`);
        all.push(...res.messages);
        if (!res.hasMore) break;
      }
      for (const m of all) {
        productBodies.set(m.body, (productBodies.get(m.body) ?? 0) + 1);
        productWids.set(m.wid, (productWids.get(m.wid) ?? 0) + 1);
        if (m.fromMe) widOfAgent.set(m.body, m.wid);
      }
      void number;
    }
    const phoneBodies = new Map<string, number>();
    const phoneIdOf = new Map<string, string>();
    for (const number of customers) {
      const chat = await call(server.base, token, "GET", `/simulator/api/connections/${conn.id}/chats/${number}?limit=2000`);
      for (const m of chat.messages as { body: string; id: string; fromMe: boolean }[]) {
        if (!m.fromMe) continue;
        phoneBodies.set(m.body, (phoneBodies.get(m.body) ?? 0) + 1);
        phoneIdOf.set(m.body, m.id);
      }
    }
    const count = (map: Map<string, number>, keys: string[]) => ({
      lost: keys.filter((k) => !map.has(k)).length,
      twice: keys.filter((k) => (map.get(k) ?? 0) > 1).length,
    });
    const inBodies = inbound.map((m) => `in ${m.i}`);
    const outBodies = outbound.map((m) => `agent ${m.i}`);
    const figures = {
      engine,
      failedRequestsRetried: { inbound: failedIn.length, outbound: failedOut.length },
      inbound: {
        byBody: count(productBodies, inBodies),
        byId: count(
          productWids,
          inbound.map((m) => m.id),
        ),
      },
      outboundStored: { byBody: count(productBodies, outBodies) },
      outboundReceived: {
        byBody: count(phoneBodies, outBodies),
        sameIdAsStored: outBodies.filter((b) => phoneIdOf.get(b) !== undefined && phoneIdOf.get(b) === widOfAgent.get(b)).length,
      },
    };
    console.log(`crash test (${engine}): ${JSON.stringify(figures)}`);
    // the kill did interrupt both sides
    expect(failedIn.length).toBeGreaterThan(0);
    expect(failedOut.length).toBeGreaterThan(0);
    expect(figures.inbound).toEqual({ byBody: { lost: 0, twice: 0 }, byId: { lost: 0, twice: 0 } });
    expect(figures.outboundStored).toEqual({ byBody: { lost: 0, twice: 0 } });
    expect(figures.outboundReceived).toEqual({ byBody: { lost: 0, twice: 0 }, sameIdAsStored: OUTBOUND });
    await server.kill();
  }, 600_000);
});
