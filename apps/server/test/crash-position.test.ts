import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, customersWriteThroughAKill, database, freePort, login, pairedConnection, quiet, Server } from "./crash-kit.js";

/**
 * The queue's position notice survives the server process being killed (SIGKILL) while customers
 * write and their notices are being decided and sent, and started again on the same database:
 * each waiting customer is told their position exactly once (the queue repeats it only after 10
 * minutes). The messages the kill made fail are sent again by the phones with their ids. Runs on
 * PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite.
 */

const CUSTOMERS = 60;
const KILL_AFTER_WRITTEN = 25;
const TOLD = "Você é o ";

afterAll(cleanupAll);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a server killed while customers wait tells each one their position once", () => {
  it("60 customers into a queue that tells positions, SIGKILL while they write, restart", async () => {
    const { env, engine } = await database();
    const server = new Server(await freePort(), env);
    await server.start();
    let token = await login(server.base);

    const queue = await call(server.base, token, "POST", "/queue", { name: "Suporte", color: "#1565c0", greetingMessage: "" });
    await call(server.base, token, "PUT", `/queue/${queue.id}`, { positionNotice: { enabled: true, everyMinutes: 10 } });
    const conn = await pairedConnection(server.base, token, "Provedor", { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
    // the number's one queue: each new customer waits in it
    await call(server.base, token, "PUT", `/whatsapp/${conn.id}`, { queueIds: [queue.id] });

    const numbers = Array.from({ length: CUSTOMERS }, (_, i) => `55119700${String(i).padStart(5, "0")}`);
    const written = await customersWriteThroughAKill(server, conn.id, numbers, {
      body: "preciso de ajuda",
      idPrefix: "POS",
      killAfter: KILL_AFTER_WRITTEN,
      token,
    });
    token = written.token;
    const failedByKill = written.failedByKill;

    // counted at the customers' phones once every customer was told (or 60 s passed)
    const count = async () => {
      const told = new Map<string, number>();
      for (const number of numbers) {
        const chat = await call(server.base, token, "GET", `/simulator/api/connections/${conn.id}/chats/${number}?limit=50`);
        const n = (chat.messages as { body: string; fromMe: boolean }[]).filter((m) => m.fromMe && m.body.startsWith(TOLD)).length;
        if (n) told.set(number, n);
      }
      return told;
    };
    let told = await count();
    for (let i = 0; i < 120 && told.size < CUSTOMERS; i++) {
      await wait(500);
      told = await count();
    }
    await quiet(server.base, token);
    told = await count();
    const figures = {
      engine,
      failedByKill,
      lost: numbers.filter((n) => !told.has(n)).length,
      twice: numbers.filter((n) => (told.get(n) ?? 0) > 1).length,
    };
    console.log(`position notice crash test (${engine}): ${JSON.stringify(figures)}`);
    expect(figures).toMatchObject({ lost: 0, twice: 0 });
    await server.kill();
  }, 600_000);
});
