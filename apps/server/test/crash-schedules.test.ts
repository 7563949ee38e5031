import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, database, freePort, login, Server, pairedConnection } from "./crash-kit.js";

/**
 * 100 schedules due at the same second survive the server process being killed (SIGKILL) while it
 * sends them and started again on the same database: every schedule ends 'sent' with the channel's
 * time, and the customers' phones (the simulator, which keeps one message per channel id as
 * WhatsApp does) received each one exactly once — counted by id and by its own text. Runs on
 * PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite.
 */

const SCHEDULES = 100;
const CUSTOMERS = 10;
/** the kill comes once this many reached the phones (the rest are pending, taken or in the outbox) */
const KILL_AFTER = 10;

afterAll(cleanupAll);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Row = { id: number; message: string; status: string; sentAt: string | null; customerNumber: string };

describe("a server killed while sending due schedules sends each exactly once", () => {
  it("100 schedules at the same second, SIGKILL while sending, restart", async () => {
    const { env, engine } = await database();
    const server = new Server(await freePort(), env);
    await server.start();
    let token = await login(server.base);

    // a paired simulator connection; the number's pace slow enough that the outbox holds messages at the kill
    const conn = await pairedConnection(server.base, token, "Agenda", { sendIntervalMs: 40, sendJitterMs: 0, sendBurst: 1 });

    // ten customers write: ten tickets
    const numbers = Array.from({ length: CUSTOMERS }, (_, i) => `55119400${String(i).padStart(5, "0")}`);
    for (const number of numbers) {
      await call(server.base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, {
        number,
        name: `Cliente ${number}`,
        body: "oi",
      });
    }
    const tickets = new Map<string, number>();
    for (let i = 0; i < 300 && tickets.size < CUSTOMERS; i++) {
      const list = await call(server.base, token, "GET", "/tickets?showAll=true&rowsPerPage=100&status=pending");
      for (const t of list.tickets as { id: number; contact: { number: string } }[])
        if (numbers.includes(t.contact.number)) tickets.set(t.contact.number, t.id);
      await wait(50);
    }
    expect(tickets.size).toBe(CUSTOMERS);

    // 100 schedules, all at the same second, a little ahead
    const due = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000).toISOString();
    const text = (i: number) => `lembrete agendado nº ${i}`;
    for (let i = 0; i < SCHEDULES; i++) {
      const number = numbers[i % CUSTOMERS];
      const made = await call(server.base, token, "POST", "/schedules", { ticketId: tickets.get(number), message: text(i), when: due });
      expect(made.status).toBe("pending");
    }
    const all = async (): Promise<Row[]> => call(server.base, token, "GET", "/schedules");
    // all made (on a loaded machine the first may already be due and going out: none failed or lost)
    const created = await all();
    expect(created).toHaveLength(SCHEDULES);
    expect(created.filter((r) => r.status !== "pending" && r.status !== "sent")).toEqual([]);

    // the kill, while they go out
    let atKill: Row[] = [];
    for (let i = 0; i < 6000; i++) {
      atKill = await all();
      if (atKill.filter((r) => r.sentAt).length >= KILL_AFTER) break;
      await wait(20);
    }
    await server.kill();
    const deliveredAtKill = atKill.filter((r) => r.sentAt).length;
    expect(deliveredAtKill).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(deliveredAtKill).toBeLessThan(SCHEDULES);

    // started again on the same database: the rest go on by themselves (well within the 1 h grace)
    await server.start();
    token = await login(server.base);
    let rows: Row[] = [];
    for (let i = 0; i < 6000; i++) {
      rows = await all();
      if (rows.filter((r) => r.status === "sent" && r.sentAt).length === SCHEDULES) break;
      await wait(50);
    }
    expect(rows.map((r) => r.status).filter((s) => s !== "sent")).toEqual([]);
    expect(rows.filter((r) => !r.sentAt)).toEqual([]);

    // counted at the customers' phones: by channel id and by text, each schedule exactly once
    const ids = new Map<string, number>();
    const bodies = new Map<string, number>();
    for (const number of numbers) {
      const chat = await call(server.base, token, "GET", `/simulator/api/connections/${conn.id}/chats/${number}?limit=200`);
      for (const m of chat.messages as { id: string; body: string; fromMe: boolean }[]) {
        if (!m.fromMe) continue;
        ids.set(m.id, (ids.get(m.id) ?? 0) + 1);
        const plain = m.body.replace(/^\*[^*]+\*:\n/, "");
        bodies.set(plain, (bodies.get(plain) ?? 0) + 1);
      }
    }
    const expected = Array.from({ length: SCHEDULES }, (_, i) => text(i));
    const figures = {
      engine,
      deliveredAtKill,
      pendingAtKill: atKill.filter((r) => r.status === "pending").length,
      received: ids.size,
      lost: expected.filter((b) => !bodies.has(b)).length,
      twice: [...bodies.values()].filter((n) => n > 1).length,
    };
    console.log(`schedules crash test (${engine}): ${JSON.stringify(figures)}`);
    expect(figures).toMatchObject({ received: SCHEDULES, lost: 0, twice: 0 });
    expect([...ids.values()].every((n) => n === 1)).toBe(true);
    await server.kill();
  }, 600_000);
});
