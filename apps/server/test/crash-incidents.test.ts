import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, customersWriteThroughAKill, database, freePort, login, pairedConnection, quiet, Server } from "./crash-kit.js";

/**
 * Outage mode's two senders survive the server process being killed (SIGKILL) in their middle and
 * started again on the same database:
 * 1. the incident notice, queued in the same transaction as the customer's message: 100 customers
 *    write while an incident is open, the server is killed while their messages and notices are
 *    in flight, the messages the kill made fail are sent again by the phones with their ids;
 * 2. "normalizado", sent by a paced job after the close: killed once part of it went out.
 * At the customers' phones (the simulator keeps one message per channel id, as WhatsApp does)
 * each customer received the notice exactly once and "normalizado" exactly once. Runs on
 * PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite.
 */

const CUSTOMERS = 100;
/** the first kill comes once this many customers' messages were taken */
const KILL_AFTER_WRITTEN = 40;
/** the second once this many "normalizado" notices were queued */
const KILL_AFTER_NORMALIZED = 30;

afterAll(cleanupAll);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a server killed during an outage tells each customer once", () => {
  it("100 customers, SIGKILL while they write and again while 'normalizado' goes out, restarts", async () => {
    const { env, engine } = await database();
    const server = new Server(await freePort(), env);
    await server.start();
    let token = await login(server.base);

    const conn = await pairedConnection(server.base, token, "Provedor", { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
    // "normalizado" goes at the disparo pace: a quick one, so the kill lands in its middle
    await call(server.base, token, "PUT", `/disparos/connections/${conn.id}`, {
      intervalMinMs: 10,
      intervalMaxMs: 30,
      pauseEvery: 0,
      dailyCap: 1000,
    });
    const notice = "Estamos com uma falha de fibra na sua região. Previsão de retorno: 18h.";
    const incident = await call(server.base, token, "POST", "/incidents", { title: "Fibra rompida", message: notice });

    // 1. every customer writes (10 at a time); the kill while they do
    const numbers = Array.from({ length: CUSTOMERS }, (_, i) => `55119600${String(i).padStart(5, "0")}`);
    const written = await customersWriteThroughAKill(server, conn.id, numbers, {
      body: "estou sem internet",
      idPrefix: "INC",
      killAfter: KILL_AFTER_WRITTEN,
      token,
    });
    token = written.token;
    const failedByKill = written.failedByKill;
    // what the phones had sent and the server had not taken comes again as the session reconnects (redelivery)
    let info = await call(server.base, token, "GET", `/incidents/${incident.id}`);
    for (let i = 0; i < 1200 && info.contactCount < CUSTOMERS; i++) {
      await wait(50);
      info = await call(server.base, token, "GET", `/incidents/${incident.id}`);
    }
    expect(info.contactCount).toBe(CUSTOMERS);
    await quiet(server.base, token);

    // 2. the close; the kill once part of "normalizado" was queued
    const closed = await call(server.base, token, "POST", `/incidents/${incident.id}/close`, {
      message: "Tudo normalizado na sua região.",
    });
    const normal = closed.closeMessage as string;
    let atKill = closed.normalized as { pending: number; sent: number; skipped: number };
    for (let i = 0; i < 3000 && atKill.sent < KILL_AFTER_NORMALIZED; i++) {
      await wait(10);
      atKill = (await call(server.base, token, "GET", `/incidents/${incident.id}`)).normalized;
    }
    await server.kill();
    expect(atKill.sent).toBeGreaterThanOrEqual(KILL_AFTER_NORMALIZED);
    expect(atKill.sent).toBeLessThan(CUSTOMERS);

    // started again: the job goes on by itself
    await server.start();
    token = await login(server.base);
    for (let i = 0; i < 6000; i++) {
      info = await call(server.base, token, "GET", `/incidents/${incident.id}`);
      if (info.normalized.pending === 0) break;
      await wait(50);
    }
    expect(info.normalized).toEqual({ pending: 0, sent: CUSTOMERS, skipped: 0 });
    await quiet(server.base, token);

    // counted at the customers' phones, by text
    const got = { notice: new Map<string, number>(), normal: new Map<string, number>(), customer: new Map<string, number>() };
    for (const number of numbers) {
      const chat = await call(server.base, token, "GET", `/simulator/api/connections/${conn.id}/chats/${number}?limit=50`);
      for (const m of chat.messages as { body: string; fromMe: boolean }[]) {
        const into = !m.fromMe ? got.customer : m.body === notice ? got.notice : m.body === normal ? got.normal : undefined;
        into?.set(number, (into.get(number) ?? 0) + 1);
      }
    }
    const tally = (m: Map<string, number>) => ({
      lost: numbers.filter((n) => !m.has(n)).length,
      twice: numbers.filter((n) => (m.get(n) ?? 0) > 1).length,
    });
    const figures = {
      engine,
      failedByKill,
      normalizedAtKill: atKill.sent,
      customerMessages: tally(got.customer),
      notice: tally(got.notice),
      normalizado: tally(got.normal),
    };
    console.log(`incidents crash test (${engine}): ${JSON.stringify(figures)}`);
    expect(figures).toMatchObject({
      customerMessages: { lost: 0, twice: 0 },
      notice: { lost: 0, twice: 0 },
      normalizado: { lost: 0, twice: 0 },
    });
    await server.kill();
  }, 600_000);
});
