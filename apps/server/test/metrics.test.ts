import { sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createQueue,
  customerSays,
  eventually,
  listen,
  pairedSimulator,
  settle,
  socketFor,
  ticketOfContact,
} from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * GET /metrics on fixed data with known answers (issue 17). The product's zone is
 * America/Sao_Paulo (UTC−3, no daylight saving since 2019); "now" is Wednesday 2026-11-25
 * 12:00 local (15:00 UTC): today starts 25th 03:00Z, the week Monday 23rd 03:00Z, the month
 * 1st 03:00Z. Times below are UTC.
 *
 * T1 Wed 10:00 queue A: customer 10:00, bot greeting 10:00:01, Ana accepts 10:01 and replies
 *    10:02 (FRT 120 s), finishes 10:30 (resolution 1800 s).
 * T2 Wed 02:30 = Tuesday 23:30 local, queue B: Bruno replies 03:10 = 00:10 local Wednesday
 *    (FRT 2400 s across local midnight), finishes 03:30 (3600 s). Not "today".
 * T3 Mon 23rd 12:00 queue A: Ana replies 12:05 (300 s), finishes 12:20 (1200 s); the customer
 *    reopens it Wed 13:00 (a new cycle), Bruno accepts 13:10 and replies 13:20 (1200 s): open.
 * T4 Wed 14:00 queue A: pending, unanswered (waiting 3600 s).
 * T5 Nov 1st 02:00 = Oct 31st 23:00 local: Ana 60 s / 600 s; last month, before the period.
 * T6 Wed 14:30, no queue: pending (waiting 1800 s).
 */

const NOW = Date.UTC(2026, 10, 25, 15, 0, 0);
const clock = fakeClock(NOW);
const at = (s: string) => new Date(`2026-11-${s}Z`);

let t: TestApp;
let url: string;
let queueA: number;
let queueB: number;
let ana: { id: number; token: string };
let bruno: { id: number; token: string };
let superv: { id: number; token: string };
let agent: { id: number; token: string };
const tickets: Record<string, number> = {};
let contactSeq = 0;

async function ticket(name: string, status: string, userId: number | null, queueId: number | null, createdAt: Date) {
  const db = t.ctx.db;
  const c = await db.execute<{ id: number }>(
    sql`insert into contacts (name, number) values (${`Cliente ${name}`}, ${`55119000000${++contactSeq}`}) returning id`,
  );
  const r = await db.execute<{ id: number }>(sql`
    insert into tickets (status, contact_id, user_id, queue_id, created_at, updated_at, closed_at)
    values (${status}, ${c.rows[0].id}, ${userId}, ${queueId}, ${createdAt}, ${createdAt}, ${status === "closed" ? createdAt : null})
    returning id`);
  tickets[name] = r.rows[0].id;
  return r.rows[0].id;
}

/** History rows and messages are written in time order, as they happen (triggers follow them). */
const timeline: { at: Date; seq: number; write: () => Promise<unknown> }[] = [];
const later = (at: Date, write: () => Promise<unknown>) => timeline.push({ at, seq: timeline.length, write });

function history(
  ticketId: number,
  when: Date,
  reason: string,
  from: string | null,
  to: string,
  userId: number | null,
  queueId: number | null,
  actor = "user",
) {
  later(when, () =>
    t.ctx.db.execute(sql`
    insert into ticket_history (ticket_id, from_status, to_status, queue_id, user_id, actor, reason, created_at)
    values (${ticketId}, ${from}, ${to}, ${queueId}, ${userId}, ${actor}, ${reason}, ${when})`),
  );
}

function message(ticketId: number, when: Date, who: "customer" | "bot" | { agent: number }) {
  const fromMe = who !== "customer";
  const source = who === "customer" ? "customer" : who === "bot" ? "bot" : "agent";
  const userId = typeof who === "object" ? who.agent : null;
  later(when, () =>
    t.ctx.db.execute(sql`
    insert into messages (ticket_id, body, from_me, source, user_id, created_at, updated_at)
    values (${ticketId}, ${"texto"}, ${fromMe}, ${source}, ${userId}, ${when}, ${when})`),
  );
}

const metrics = async (token: string, query = "") => api(t, token, "GET", `/metrics${query}`);

beforeAll(async () => {
  t = await createTestApp({}, { clock: clock.clock });
  url = await listen(t);
  queueA = await createQueue(t, "Fila A");
  queueB = await createQueue(t, "Fila B");
  ana = await t.createUser({ name: "Ana", queueIds: [queueA] });
  bruno = await t.createUser({ name: "Bruno", queueIds: [queueA, queueB] });
  superv = await t.createUser({ name: "Sueli", profile: "superv", queueIds: [queueA] });
  agent = await t.createUser({ name: "Caio", queueIds: [queueA] });

  const t1 = await ticket("T1", "closed", ana.id, queueA, at("25T10:00:00"));
  history(t1, at("25T10:00:00"), "create", null, "pending", null, queueA, "customer");
  history(t1, at("25T10:01:00"), "accept", "pending", "open", ana.id, queueA);
  history(t1, at("25T10:30:00"), "finish", "open", "closed", ana.id, queueA);
  message(t1, at("25T10:00:00"), "customer");
  message(t1, at("25T10:00:01"), "bot");
  message(t1, at("25T10:02:00"), { agent: ana.id });
  message(t1, at("25T10:30:00"), "bot");

  const t2 = await ticket("T2", "closed", bruno.id, queueB, at("25T02:30:00"));
  history(t2, at("25T02:30:00"), "create", null, "pending", null, queueB, "customer");
  history(t2, at("25T02:35:00"), "accept", "pending", "open", bruno.id, queueB);
  history(t2, at("25T03:30:00"), "finish", "open", "closed", bruno.id, queueB);
  message(t2, at("25T02:30:00"), "customer");
  message(t2, at("25T03:10:00"), { agent: bruno.id });

  const t3 = await ticket("T3", "open", bruno.id, queueA, at("23T12:00:00"));
  history(t3, at("23T12:00:00"), "create", null, "pending", null, queueA, "customer");
  history(t3, at("23T12:01:00"), "accept", "pending", "open", ana.id, queueA);
  history(t3, at("23T12:20:00"), "finish", "open", "closed", ana.id, queueA);
  history(t3, at("25T13:00:00"), "customer", "closed", "pending", null, queueA, "customer");
  history(t3, at("25T13:10:00"), "accept", "pending", "open", bruno.id, queueA);
  message(t3, at("23T12:00:00"), "customer");
  message(t3, at("23T12:05:00"), { agent: ana.id });
  message(t3, at("23T12:20:00"), "bot");
  message(t3, at("25T13:00:00"), "customer");
  message(t3, at("25T13:05:00"), "customer");
  message(t3, at("25T13:20:00"), { agent: bruno.id });

  const t4 = await ticket("T4", "pending", null, queueA, at("25T14:00:00"));
  history(t4, at("25T14:00:00"), "create", null, "pending", null, queueA, "customer");
  message(t4, at("25T14:00:00"), "customer");

  const t5 = await ticket("T5", "closed", ana.id, queueA, at("01T02:00:00"));
  history(t5, at("01T02:00:00"), "create", null, "pending", null, queueA, "customer");
  history(t5, at("01T02:00:30"), "accept", "pending", "open", ana.id, queueA);
  history(t5, at("01T02:10:00"), "finish", "open", "closed", ana.id, queueA);
  message(t5, at("01T02:00:00"), "customer");
  message(t5, at("01T02:01:00"), { agent: ana.id });

  const t6 = await ticket("T6", "pending", null, null, at("25T14:30:00"));
  history(t6, at("25T14:30:00"), "create", null, "pending", null, null, "customer");
  message(t6, at("25T14:30:00"), "customer");
  timeline.sort((a, b) => a.at.getTime() - b.at.getTime() || a.seq - b.seq);
  for (const e of timeline) await e.write();
});

afterAll(async () => {
  await t?.teardown();
});

describe("GET /metrics", () => {
  it("is for admins and supervisors only", async () => {
    const anon = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(anon.statusCode).toBe(401);
    expect((await metrics(agent.token)).status).toBe(403);
    expect((await metrics(superv.token)).status).toBe(200);
  });

  it("counts tickets created today, this week (from Monday) and this month at local midnight, and closed versus pending now", async () => {
    const { status, body } = await metrics(t.adminToken);
    expect(status).toBe(200);
    // T2 was created at 02:30 UTC on the 25th: still the 24th in São Paulo; T5 on Nov 1st UTC is October there
    expect({ today: body.today, week: body.week, month: body.month, total: body.total }).toEqual({ today: 3, week: 5, month: 5, total: 6 });
    expect({ closed: body.closed, pending: body.pending }).toEqual({ closed: 3, pending: 2 });
  });

  it("lists the top agents per period by the tickets they handled in it (took, passed on or closed), not by who holds them now", async () => {
    const { body } = await metrics(t.adminToken);
    expect(body.topAtendentes).toEqual({
      // today (from the 25th 03:00Z): Ana took and finished T1; Bruno finished T2 at 00:30 local and took T3 back
      day: [
        { name: "Bruno", tickets: 2 },
        { name: "Ana", tickets: 1 },
      ],
      // Ana finished T3 on Monday: Bruno holds it now, she still handled it this week
      week: [
        { name: "Ana", tickets: 2 },
        { name: "Bruno", tickets: 2 },
      ],
      // T5 was finished on October 31st, local time
      month: [
        { name: "Ana", tickets: 2 },
        { name: "Bruno", tickets: 2 },
      ],
      total: [
        { name: "Ana", tickets: 3 },
        { name: "Bruno", tickets: 2 },
      ],
    });
  });

  it("reports the server: memory, disk, CPU, platform, architecture, uptime, release", async () => {
    const { body } = await metrics(t.adminToken);
    const s = body.serverMetrics;
    expect(s.memory.total).toBeGreaterThan(0);
    expect(s.memory.used).toBe(s.memory.total - s.memory.free);
    expect(s.disk.total).toBeGreaterThan(0);
    expect(s.cpu.cores).toBeGreaterThan(0);
    expect(s.platform).toBe(process.platform);
    expect(s.arch).toBe(process.arch);
    expect(s.uptimeHours).toBeGreaterThan(0);
    expect(typeof s.release).toBe("string");
  });

  it("gives first response and resolution times as median and p90, per agent and queue, a reopened ticket counting again", async () => {
    const { body } = await metrics(t.adminToken);
    // the default period: the last 7 local days, today included
    expect(body.period).toEqual({ from: "2026-11-19T03:00:00.000Z", to: "2026-11-26T03:00:00.000Z", timeZone: "America/Sao_Paulo" });
    // 120 (T1), 300 (T3), 1200 (T3 reopened), 2400 (T2): bot texts do not count, T5 is before the period
    expect(body.firstResponseTime.overall).toEqual({ median: 750, p90: 2040, count: 4 });
    expect(body.firstResponseTime.byAgent).toEqual([
      { userId: ana.id, name: "Ana", median: 210, p90: 282, count: 2 },
      { userId: bruno.id, name: "Bruno", median: 1800, p90: 2280, count: 2 },
    ]);
    expect(body.firstResponseTime.byQueue).toEqual([
      { queueId: queueA, name: "Fila A", median: 300, p90: 1020, count: 3 },
      { queueId: queueB, name: "Fila B", median: 2400, p90: 2400, count: 1 },
    ]);
    // 1200 (T3's first cycle), 1800 (T1), 3600 (T2); T3's second cycle is still open
    expect(body.resolutionTime.overall).toEqual({ median: 1800, p90: 3240, count: 3 });
    expect(body.resolutionTime.byAgent).toEqual([
      { userId: ana.id, name: "Ana", median: 1500, p90: 1740, count: 2 },
      { userId: bruno.id, name: "Bruno", median: 3600, p90: 3600, count: 1 },
    ]);
    expect(body.resolutionTime.byQueue).toEqual([
      { queueId: queueA, name: "Fila A", median: 1500, p90: 1740, count: 2 },
      { queueId: queueB, name: "Fila B", median: 3600, p90: 3600, count: 1 },
    ]);
  });

  it("cuts a chosen day at local midnight and filters by agent and queue", async () => {
    // the 25th in São Paulo: T2 (created 23:30 local on the 24th) is out, T3's reopening is in
    const day = await metrics(t.adminToken, "?from=2026-11-25&to=2026-11-25");
    expect(day.body.period.from).toBe("2026-11-25T03:00:00.000Z");
    expect(day.body.period.to).toBe("2026-11-26T03:00:00.000Z");
    expect(day.body.firstResponseTime.overall).toEqual({ median: 660, p90: 1092, count: 2 });
    expect(day.body.resolutionTime.overall).toEqual({ median: 1800, p90: 1800, count: 1 });

    // only an end: the 7 local days up to it
    const week = await metrics(t.adminToken, "?to=2026-11-22");
    expect(week.body.period).toEqual({ from: "2026-11-16T03:00:00.000Z", to: "2026-11-23T03:00:00.000Z", timeZone: "America/Sao_Paulo" });

    const byAna = await metrics(t.adminToken, `?userId=${ana.id}`);
    expect(byAna.body.firstResponseTime.overall).toEqual({ median: 210, p90: 282, count: 2 });
    expect(byAna.body.firstResponseTime.byAgent.map((a: { name: string }) => a.name)).toEqual(["Ana"]);
    const inB = await metrics(t.adminToken, `?queueId=${queueB}`);
    expect(inB.body.firstResponseTime.overall).toEqual({ median: 2400, p90: 2400, count: 1 });
    expect(inB.body.resolutionTime.overall).toEqual({ median: 3600, p90: 3600, count: 1 });
    // the spec's cards do not depend on the filters
    expect(inB.body.total).toBe(6);

    const empty = await metrics(t.adminToken, "?from=2026-10-01&to=2026-10-15");
    expect(empty.body.firstResponseTime.overall).toEqual({ median: null, p90: null, count: 0 });
    expect((await metrics(t.adminToken, "?from=2026-11-25&to=2026-11-20")).status).toBe(400);
    expect((await metrics(t.adminToken, "?from=ontem")).status).toBe(400);
  });

  it("counts tickets by local weekday and hour", async () => {
    const { body } = await metrics(t.adminToken);
    const cells: string[] = [];
    body.ticketsByHour.forEach((row: number[], d: number) => {
      row.forEach((n, h) => {
        if (n) cells.push(`${d}:${h}=${n}`);
      });
    });
    // Monday 09h (T3), Tuesday 23h (T2), Wednesday 07h (T1), Wednesday 11h (T4, T6)
    expect(cells).toEqual(["0:9=1", "1:23=1", "2:7=1", "2:11=2"]);
    expect(body.ticketsByHour).toHaveLength(7);
    expect(body.ticketsByHour[0]).toHaveLength(24);
  });

  it("shows what waits now per queue with the oldest wait, and the agents online with their open tickets", async () => {
    let socket: Socket | undefined;
    try {
      socket = await socketFor(url, bruno.token);
      const { body } = await metrics(t.adminToken, "?from=2026-11-24");
      expect(body.now.waiting).toEqual([
        {
          queueId: queueA,
          name: "Fila A",
          color: expect.any(String),
          tickets: 1,
          oldestSince: "2026-11-25T14:00:00.000Z",
          oldestWaitSeconds: 3600,
        },
        { queueId: null, name: "", color: "", tickets: 1, oldestSince: "2026-11-25T14:30:00.000Z", oldestWaitSeconds: 1800 },
      ]);
      expect(body.now.agents).toEqual([{ userId: bruno.id, name: "Bruno", openTickets: 1 }]);
    } finally {
      socket?.disconnect();
    }
  });

  it("answers from its cache for a few seconds, and at once after a ticket changes", async () => {
    const before = await metrics(t.adminToken, "?from=2026-11-20");
    expect(before.body.pending).toBe(2);
    // written behind the server's back: the cached answer stays
    await t.ctx.db.execute(sql`update tickets set status = 'closed' where id = ${tickets.T6}`);
    expect((await metrics(t.adminToken, "?from=2026-11-20")).body.pending).toBe(2);
    // a few seconds later the answer is computed again (served stale meanwhile, never waited for)
    clock.advance(6_000);
    await eventually(async () => (await metrics(t.adminToken, "?from=2026-11-20")).body.pending === 1, "the refreshed answer");
    // an agent accepts T4: the next answer shows it
    const accepted = await api(t, ana.token, "PUT", `/tickets/${tickets.T4}`, { status: "open", userId: ana.id });
    expect(accepted.status).toBe(200);
    const after = await metrics(t.adminToken, "?from=2026-11-20");
    expect(after.body.pending).toBe(0);
    expect(after.body.now.waiting).toEqual([]);
  });
});

describe("GET /metrics after a real conversation", () => {
  it("counts the first response and the resolution written by the pipeline, the greeting not being a reply", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queueA], greetingMessage: "Olá! Já vamos atender." });
    // rows written now carry the database's clock, not the test's: a period around the real today
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const today = `?from=${day(Date.now() - 86_400_000)}&to=${day(Date.now() + 86_400_000)}`;
    const before = (await metrics(t.adminToken, today)).body;
    const number = "5511988887777";
    await customerSays(t, sim, number, "minha internet caiu");
    const [ticket] = await ticketOfContact(t, number);
    expect((await api(t, ana.token, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: ana.id })).status).toBe(200);
    expect((await api(t, ana.token, "POST", `/messages/${ticket.id}`, { body: "Vou verificar, um momento." })).status).toBe(200);
    await customerSays(t, sim, number, "obrigado");
    expect((await api(t, ana.token, "PUT", `/tickets/${ticket.id}`, { status: "closed" })).status).toBe(200);
    await settle(t);
    const after = (await metrics(t.adminToken, today)).body;
    expect(after.firstResponseTime.overall.count).toBe(before.firstResponseTime.overall.count + 1);
    expect(after.resolutionTime.overall.count).toBe(before.resolutionTime.overall.count + 1);
    const anaBefore = before.firstResponseTime.byAgent.find((a: { userId: number }) => a.userId === ana.id);
    const anaAfter = after.firstResponseTime.byAgent.find((a: { userId: number }) => a.userId === ana.id);
    // Ana answered nobody in that period before (the fixtures above are dated 2026-11-25): no row for her then
    expect(anaAfter.count).toBe((anaBefore?.count ?? 0) + 1);
    expect(after.total).toBe(before.total + 1);
  });

  it("keeps an agent who finished a ticket in the top agents after the customer reopens it; a transfer counts for both agents", async () => {
    const sim = await pairedSimulator(t, { queueIds: [queueA] });
    // rows written now carry the database's clock, not the test's: the all-time list is the one to read
    const total = async (name: string) =>
      ((await metrics(t.adminToken)).body.topAtendentes.total as { name: string; tickets: number }[]).find((a) => a.name === name)
        ?.tickets ?? 0;
    const [anaBefore, brunoBefore] = [await total("Ana"), await total("Bruno")];

    const number = "5511977776666";
    await customerSays(t, sim, number, "sem sinal desde ontem");
    const [ticket] = await ticketOfContact(t, number);
    expect((await api(t, ana.token, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: ana.id })).status).toBe(200);
    expect((await api(t, ana.token, "PUT", `/tickets/${ticket.id}`, { status: "closed" })).status).toBe(200);
    await settle(t);
    // the customer writes again: the ticket waits, nobody's — Ana handled it all the same
    await customerSays(t, sim, number, "voltou a cair");
    await eventually(async () => (await ticketOfContact(t, number))[0]?.status === "pending", "the ticket reopened");
    expect(await total("Ana")).toBe(anaBefore + 1);

    // another ticket: Ana takes it and transfers it to Bruno, who finishes it — one each, not two for Ana
    const other = "5511977775555";
    await customerSays(t, sim, other, "quero mudar de plano");
    const [second] = await ticketOfContact(t, other);
    expect((await api(t, ana.token, "PUT", `/tickets/${second.id}`, { status: "open", userId: ana.id })).status).toBe(200);
    expect((await api(t, ana.token, "PUT", `/tickets/${second.id}`, { status: "open", userId: bruno.id })).status).toBe(200);
    expect((await api(t, bruno.token, "PUT", `/tickets/${second.id}`, { status: "closed" })).status).toBe(200);
    expect(await total("Ana")).toBe(anaBefore + 2);
    expect(await total("Bruno")).toBe(brunoBefore + 1);
  });
});
