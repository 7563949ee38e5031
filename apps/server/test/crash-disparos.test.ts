import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, database, freePort, login, Server, pairedConnection } from "./crash-kit.js";

/**
 * A campaign of 200 disparos survives the server process being killed (SIGKILL) in its middle and
 * started again on the same database: every row ends 'enviado', and the customers' phones (the
 * simulator, which keeps one message per channel id as WhatsApp does) received each row exactly
 * once — counted by id and by the row's own text. Runs on PostgreSQL (TEST_DATABASE_URL) and on
 * the embedded PGlite.
 */

const ROWS = 200;
/** the kill comes once this many rows were sent (the rest are waiting, taken or in the outbox) */
const KILL_AFTER_SENT = 60;

afterAll(cleanupAll);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a server killed mid-campaign sends each disparo exactly once", () => {
  it("200 rows, SIGKILL in the middle, restart", async () => {
    const { env, engine } = await database();
    const server = new Server(await freePort(), env);
    await server.start();
    let token = await login(server.base);

    // a paired simulator connection; the number's pace and the disparo pace low, through the API
    const conn = await pairedConnection(server.base, token, "Campanha", { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
    await call(server.base, token, "PUT", `/disparos/connections/${conn.id}`, {
      intervalMinMs: 10,
      intervalMaxMs: 30,
      pauseEvery: 0,
      dailyCap: 1000,
    });

    const numbers = Array.from({ length: ROWS }, (_, i) => `55119500${String(i).padStart(5, "0")}`);
    const text = (i: number) => `campanha de teste nº ${i}`;
    const created = await call(server.base, token, "POST", "/disparos", {
      whatsappId: conn.id,
      rows: numbers.map((number, i) => ({ number, message: text(i) })),
    });
    expect(created).toEqual({ created: ROWS, cancelled: 0 });

    // the kill, in the middle of the campaign
    let atKill: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) {
      atKill = await call(server.base, token, "GET", "/disparos/stats");
      // preferably while a row waits in the outbox (taken, not yet sent)
      if (atKill.enviado >= KILL_AFTER_SENT && (atKill.enviando > 0 || atKill.enviado >= KILL_AFTER_SENT + 40)) break;
      await wait(20);
    }
    await server.kill();
    expect(atKill.enviado).toBeGreaterThanOrEqual(KILL_AFTER_SENT);
    expect(atKill.enviado).toBeLessThan(ROWS);

    // started again on the same database: the campaign goes on by itself
    await server.start();
    token = await login(server.base);
    let stats: Record<string, number> = {};
    for (let i = 0; i < 6000; i++) {
      stats = await call(server.base, token, "GET", "/disparos/stats");
      if (stats.enviado === ROWS) break;
      await wait(50);
    }
    expect(stats).toEqual({ cancelado: 0, "a enviar": 0, "com erro": 0, enviado: ROWS, enviando: 0 });

    // counted at the customers' phones: by channel id and by text, each row exactly once
    const ids = new Map<string, number>();
    const bodies = new Map<string, number>();
    for (const number of numbers) {
      const chat = await call(server.base, token, "GET", `/simulator/api/connections/${conn.id}/chats/${number}?limit=50`);
      for (const m of chat.messages as { id: string; body: string; fromMe: boolean }[]) {
        if (!m.fromMe) continue;
        ids.set(m.id, (ids.get(m.id) ?? 0) + 1);
        bodies.set(m.body, (bodies.get(m.body) ?? 0) + 1);
      }
    }
    const expected = numbers.map((_, i) => text(i));
    const figures = {
      engine,
      sentAtKill: atKill.enviado,
      inFlightAtKill: atKill.enviando,
      received: ids.size,
      lost: expected.filter((b) => !bodies.has(b)).length,
      twice: [...bodies.values()].filter((n) => n > 1).length,
    };
    console.log(`disparos crash test (${engine}): ${JSON.stringify(figures)}`);
    expect(figures).toMatchObject({ received: ROWS, lost: 0, twice: 0 });
    expect([...ids.values()].every((n) => n === 1)).toBe(true);
    await server.kill();
  }, 600_000);
});
