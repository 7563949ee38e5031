import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, database, freePort, login, pool, quiet, Server, pairedConnection } from "./crash-kit.js";

/**
 * The message-sending API survives the server process being killed (SIGKILL) in the middle of a
 * burst: 300 calls from an outside system (its billing, say), 10 at a time, each with its own
 * Idempotency-Key; the calls the kill made fail are sent again with the same key once the server
 * is back, as a well-behaved client does. Every message is stored once and reaches the customer's
 * phone (the simulator, which keeps one message per channel id as WhatsApp does) exactly once,
 * with the id it was stored with. Runs on PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite.
 */

const CALLS = 300;
const CUSTOMERS = 10;
const PARALLEL = 10;
/** the kill comes once this many calls were answered */
const KILL_AFTER = 120;

afterAll(cleanupAll);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function apiSend(base: string, apiToken: string, number: string, body: string, key: string) {
  const res = await fetch(`${base}/api/messages/send`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiToken}`, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify({ number, body }),
  });
  const text = await res.text();
  if (!res.ok) throw Object.assign(new Error(`POST /api/messages/send: ${res.status} ${text}`), { status: res.status });
  return JSON.parse(text) as { id: number; ticketId: number };
}

describe("a server killed during a message-API burst sends each call's message exactly once", () => {
  it("300 API calls, 10 at a time, SIGKILL in the middle, failed calls retried with their key", async () => {
    const { env, engine } = await database();
    const server = new Server(await freePort(), { ...env, API_RATE_PER_MIN: "100000" });
    await server.start();
    let token = await login(server.base);

    // a paired simulator connection, paced so the outbox still holds messages at the kill
    const conn = await pairedConnection(server.base, token, "API", { sendIntervalMs: 15, sendJitterMs: 0, sendBurst: 1 });
    const { token: apiToken } = await call(server.base, token, "POST", `/whatsapp/${conn.id}/token`);

    const numbers = Array.from({ length: CUSTOMERS }, (_, i) => `55119500${String(i).padStart(5, "0")}`);
    const calls = Array.from({ length: CALLS }, (_, i) => ({
      i,
      number: numbers[i % CUSTOMERS],
      key: `fatura-${i}`,
      body: `Sua fatura nº ${i} vence amanhã`,
    }));
    const answers = new Map<number, { id: number; ticketId: number }>();
    const send = async (c: (typeof calls)[number]) => {
      answers.set(c.i, await apiSend(server.base, apiToken, c.number, c.body, c.key));
    };

    // the burst, and the kill in its middle
    const failed: typeof calls = [];
    let done = 0;
    let killed: Promise<void> | undefined;
    await pool(calls, PARALLEL, send, failed, () => {
      if (++done === KILL_AFTER) killed = server.kill();
    });
    expect(killed).toBeDefined();
    await killed;

    // started again on the same database; the client sends what failed again, with the same keys
    await server.start();
    token = await login(server.base);
    const still: typeof calls = [];
    await pool(failed, PARALLEL, send, still);
    expect(still).toEqual([]);
    expect(answers.size).toBe(CALLS);

    // everything sent
    const health = await quiet(server.base, token);
    expect(health).toMatchObject({ outbox: { queued: 0, failed: 0 } });

    // in the product: each call's message stored once, with the id its answer gave
    const storedBodies = new Map<string, number>();
    const widOf = new Map<string, string>();
    const idOf = new Map<string, number>();
    for (const ticketId of new Set([...answers.values()].map((a) => a.ticketId))) {
      for (let page = 1; ; page++) {
        const res = await call(server.base, token, "GET", `/messages/${ticketId}?rowsPerPage=200&pageNumber=${page}`);
        for (const m of res.messages as { id: number; body: string; wid: string; fromMe: boolean }[]) {
          if (!m.fromMe) continue;
          storedBodies.set(m.body, (storedBodies.get(m.body) ?? 0) + 1);
          widOf.set(m.body, m.wid);
          idOf.set(m.body, m.id);
        }
        if (!res.hasMore) break;
      }
    }
    // on the customers' phones: each once, with the channel id it was stored with
    const phoneBodies = new Map<string, number>();
    const phoneIdOf = new Map<string, string>();
    for (const number of numbers) {
      const chat = await call(server.base, token, "GET", `/simulator/api/connections/${conn.id}/chats/${number}?limit=1000`);
      for (const m of chat.messages as { body: string; id: string; fromMe: boolean }[]) {
        if (!m.fromMe) continue;
        const plain = m.body.replace(/^\*[^*]+\*:\n/, "");
        phoneBodies.set(plain, (phoneBodies.get(plain) ?? 0) + 1);
        phoneIdOf.set(plain, m.id);
      }
    }
    const bodies = calls.map((c) => c.body);
    const count = (map: Map<string, number>) => ({
      lost: bodies.filter((b) => !map.has(b)).length,
      twice: bodies.filter((b) => (map.get(b) ?? 0) > 1).length,
    });
    const figures = {
      engine,
      failedCallsRetried: failed.length,
      stored: count(storedBodies),
      answeredIdIsStoredId: calls.filter((c) => answers.get(c.i)?.id === idOf.get(c.body)).length,
      received: count(phoneBodies),
      sameIdAsStored: bodies.filter((b) => phoneIdOf.get(b) !== undefined && phoneIdOf.get(b) === widOf.get(b)).length,
    };
    console.log(`message API crash test (${engine}): ${JSON.stringify(figures)}`);
    // the kill did interrupt calls
    expect(failed.length).toBeGreaterThan(0);
    expect(figures).toMatchObject({
      stored: { lost: 0, twice: 0 },
      answeredIdIsStoredId: CALLS,
      received: { lost: 0, twice: 0 },
      sameIdAsStored: CALLS,
    });
    await server.kill();
  }, 600_000);
});
