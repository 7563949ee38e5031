import { SCHEDULE_IN_PAST } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobRunner } from "../src/jobs/runner.js";
import { wallTime, zonedToUtc } from "../src/lib/zoned-time.js";
import * as schedules from "../src/modules/schedules/service.js";
import {
  api,
  customerSays,
  eventually,
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
import { fakeClock } from "./fake-clock.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * Scheduled messages on a fake clock: sent once at their time (two job runners racing, handlers
 * called at once), signed and stored in the ticket; cancel by the agent and by the customer's
 * reply; the grace rule after the server was down; the screen's day range in the product's time
 * zone; who may schedule and see what. The job runner and the outbox sender run on the fake clock.
 */

let t: TestApp;
const fake = fakeClock();
const SP = "America/Sao_Paulo";
let ana: { id: number; token: string };
let sim: SimConnection;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({}, { clock: fake.clock });
  ana = await t.createUser({ name: "Ana" });
  sim = await pairedSimulator(t);
});
afterAll(() => t.teardown());

/** Runs every job due now and sends what the outbox holds. */
async function drain() {
  for (let i = 0; i < 50; i++) {
    const started = await t.jobs.tick();
    await t.jobs.idle();
    await settle(t);
    if (started === 0) break;
  }
  await settle(t);
}

/** A local "YYYY-MM-DDTHH:mm:ss" `ms` from the fake clock's now, in São Paulo. */
function localIn(ms: number, zone = SP): string {
  const w = wallTime(new Date(fake.at() + ms), zone);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${w.year}-${p(w.month)}-${p(w.day)}T${p(w.hour)}:${p(w.minute)}:${p(w.second)}`;
}

/** A customer with a ticket Ana accepted (open, hers). */
async function openTicketOfAna(on: SimConnection = sim): Promise<{ number: string; ticketId: number }> {
  const number = `55119800${String(++seq).padStart(5, "0")}`;
  await customerSays(t, on, number, "oi");
  const [ticket] = await ticketOfContact(t, number);
  const accepted = await api(t, ana.token, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: ana.id });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { number, ticketId: ticket.id };
}

async function schedule(token: string, ticketId: number, message: string, when: string, extra: object = {}) {
  return api(t, token, "POST", "/schedules", { ticketId, message, when, ...extra });
}

const statusOf = async (id: number) =>
  (await t.ctx.db.execute<{ status: string; reason: string }>(sql`select status, reason from schedules where id = ${id}`)).rows[0];

/** What the customer's phone received from the connection. */
const agentTexts = async (number: string) =>
  (await phoneOf(sim, number)).filter((m: { fromMe: boolean }) => m.fromMe).map((m: { body: string }) => m.body);

describe("schedules: sending at the time", () => {
  it("goes out once at `when`, signed with the author's name, in the ticket, and turns sent — with two job runners racing", async () => {
    const { number, ticketId } = await openTicketOfAna();
    const res = await schedule(ana.token, ticketId, "Sua fatura vence amanhã", localIn(60_000));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "pending", ticketId, userId: ana.id, userName: "Ana", customerNumber: number });

    // a second runner on the same database, as a second server process would be
    const other = new JobRunner(t.ctx, { clock: fake.clock });
    other.register<{ id: number }>(schedules.SEND_JOB, async (p) => void (await schedules.runSchedule(deps(), p.id)));

    fake.advance(59_000);
    await drain();
    expect(await agentTexts(number)).not.toContain("*Ana*:\nSua fatura vence amanhã");
    expect((await statusOf(res.body.id)).status).toBe("pending");

    fake.advance(1_000);
    await Promise.all([t.jobs.tick(), other.tick(), other.tick(), t.jobs.tick()]);
    await Promise.all([t.jobs.idle(), other.idle()]);
    await drain();
    expect((await agentTexts(number)).filter((b) => b === "*Ana*:\nSua fatura vence amanhã")).toHaveLength(1);
    expect(await statusOf(res.body.id)).toEqual({ status: "sent", reason: "" });

    const msgs = await api(t, ana.token, "GET", `/messages/${ticketId}`);
    // biome-ignore lint/suspicious/noExplicitAny: loose read
    const sent = (msgs.body.messages as any[]).filter((m) => m.body === "*Ana*:\nSua fatura vence amanhã");
    expect(sent).toHaveLength(1);
    expect(sent[0].fromMe).toBe(true);
    const listed = await api(t, ana.token, "GET", `/schedules?ticketId=${ticketId}`);
    expect(listed.body[0]).toMatchObject({ id: res.body.id, status: "sent", messageId: sent[0].id });
  });

  it("the send itself run three times at once sends once (the row lock and status decide)", async () => {
    const { number, ticketId } = await openTicketOfAna();
    const res = await schedule(ana.token, ticketId, "lembrete único", localIn(1_000));
    // the runner is stopped so that only these three calls race
    await t.jobs.stop();
    fake.advance(1_000);
    const outcomes = await Promise.all([1, 2, 3].map(() => schedules.runSchedule(deps(), res.body.id)));
    await t.jobs.start();
    expect(outcomes.sort()).toEqual(["sent", "skipped", "skipped"]);
    await drain();
    expect((await agentTexts(number)).filter((b) => b.endsWith("lembrete único"))).toHaveLength(1);
  });

  it("without 'Assinar' it goes unsigned", async () => {
    const { number, ticketId } = await openTicketOfAna();
    const res = await schedule(ana.token, ticketId, "sem assinatura", localIn(1_000), { sign: false });
    expect(res.body.sign).toBe(false);
    fake.advance(1_000);
    await drain();
    expect((await agentTexts(number)).filter((b) => b.includes("sem assinatura"))).toEqual(["sem assinatura"]);
  });

  it("a pending schedule deleted is kept as canceled and never sent; deleting it again removes it", async () => {
    const { number, ticketId } = await openTicketOfAna();
    const res = await schedule(ana.token, ticketId, "não mande isto", localIn(30_000));
    const del = await api(t, ana.token, "DELETE", `/schedules/${res.body.id}`);
    expect(del.body).toEqual({ removed: false });
    expect((await statusOf(res.body.id)).status).toBe("canceled");
    fake.advance(60_000);
    await drain();
    expect((await agentTexts(number)).some((b) => b.includes("não mande isto"))).toBe(false);
    // the sweep does not revive it
    await schedules.sweep(deps());
    await drain();
    expect((await agentTexts(number)).some((b) => b.includes("não mande isto"))).toBe(false);
    expect((await api(t, ana.token, "DELETE", `/schedules/${res.body.id}`)).body).toEqual({ removed: true });
    expect(await statusOf(res.body.id)).toBeUndefined();
  });
});

describe("schedules: cancel if the customer replies", () => {
  it("the customer's message cancels the pending schedule that asked for it; one that did not ask is sent", async () => {
    const { number, ticketId } = await openTicketOfAna();
    const moot = await schedule(ana.token, ticketId, "Conseguiu testar a conexão?", localIn(120_000), { cancelOnReply: true });
    const kept = await schedule(ana.token, ticketId, "Lembrete: visita técnica amanhã", localIn(120_000), { cancelOnReply: false });
    expect(moot.body.cancelOnReply).toBe(true);
    await customerSays(t, sim, number, "já voltou a internet, obrigado");
    // the cancel listens to the inbound message's event, after its commit
    await eventually(async () => (await statusOf(moot.body.id)).status !== "pending", "the schedule canceled");
    expect(await statusOf(moot.body.id)).toEqual({ status: "canceled", reason: "cliente respondeu" });
    fake.advance(120_000);
    await drain();
    const texts = await agentTexts(number);
    expect(texts.some((b) => b.includes("Conseguiu testar a conexão?"))).toBe(false);
    expect(texts.filter((b) => b.includes("Lembrete: visita técnica amanhã"))).toHaveLength(1);
    expect((await statusOf(kept.body.id)).status).toBe("sent");
  });

  it("a schedule made without `cancelOnReply` (the original client never sends it) is not canceled by a reply: it goes at its time", async () => {
    const { number, ticketId } = await openTicketOfAna();
    const plain = await schedule(ana.token, ticketId, "Sua fatura vence amanhã", localIn(120_000));
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.cancelOnReply).toBe(false);
    await customerSays(t, sim, number, "ok, obrigado");
    // a schedule that asked to be canceled, made after it, is canceled by the same kind of message: the reply was handled
    const asked = await schedule(ana.token, ticketId, "Conseguiu pagar?", localIn(120_000), { cancelOnReply: true });
    await customerSays(t, sim, number, "paguei");
    await eventually(async () => (await statusOf(asked.body.id)).status !== "pending", "the asking schedule canceled");
    expect((await statusOf(plain.body.id)).status).toBe("pending");
    fake.advance(120_000);
    await drain();
    expect((await agentTexts(number)).filter((b) => b.includes("Sua fatura vence amanhã"))).toHaveLength(1);
    expect((await statusOf(plain.body.id)).status).toBe("sent");
  });
});

describe("schedules: the grace rule after downtime", () => {
  it("due while the runner was stopped: within the grace it is sent on return, past it it fails as 'atrasado' and is never sent", async () => {
    const { number, ticketId } = await openTicketOfAna();
    const late = await schedule(ana.token, ticketId, "muito atrasado", localIn(60_000));
    const soon = await schedule(ana.token, ticketId, "pouco atrasado", localIn(90 * 60_000));
    await t.jobs.stop();
    // down for 2 h: the first is 2 h late (grace 1 h), the second 30 min
    fake.advance(2 * 3600_000 + 60_000);
    await t.jobs.start();
    await drain();
    expect(await statusOf(late.body.id)).toEqual({ status: "failed", reason: "atrasado" });
    expect((await statusOf(soon.body.id)).status).toBe("sent");
    const texts = await agentTexts(number);
    expect(texts.some((b) => b.includes("muito atrasado"))).toBe(false);
    expect(texts.filter((b) => b.includes("pouco atrasado"))).toHaveLength(1);
  });

  it("due while its number is disconnected: it stays pending and goes when the number is back within the grace", async () => {
    const other = await pairedSimulator(t);
    const { number, ticketId } = await openTicketOfAna(other);
    const res = await schedule(ana.token, ticketId, "com o número fora", localIn(60_000));
    await other.session.stop();
    await t.channels.idle();
    fake.advance(60_000);
    await drain();
    expect((await statusOf(res.body.id)).status).toBe("pending");
    fake.advance(10 * 60_000);
    await drain();
    expect((await statusOf(res.body.id)).status).toBe("pending");
    // back: it goes at once (the reconnect brings its retry forward), once
    await other.session.start();
    await t.channels.idle();
    await eventually(
      async () =>
        (
          await t.ctx.db.execute(
            sql`select 1 from jobs where singleton_key = ${`schedule:${res.body.id}`} and state = 'queued' and run_at <= ${new Date(fake.at()).toISOString()}::timestamptz`,
          )
        ).rows.length === 1,
      "the retry brought forward",
    );
    await drain();
    expect((await statusOf(res.body.id)).status).toBe("sent");
    const got = (await phoneOf(other, number)).filter(
      (m: { fromMe: boolean; body: string }) => m.fromMe && m.body.endsWith("com o número fora"),
    );
    expect(got).toHaveLength(1);
  });

  it("the grace is a setting", async () => {
    const set = await api(t, t.adminToken, "PUT", "/settings/scheduleGraceMinutes", { value: "300" });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const { number, ticketId } = await openTicketOfAna();
    const res = await schedule(ana.token, ticketId, "cinco horas de tolerância", localIn(60_000));
    await t.jobs.stop();
    fake.advance(2 * 3600_000 + 60_000);
    await t.jobs.start();
    await drain();
    expect((await statusOf(res.body.id)).status).toBe("sent");
    expect((await agentTexts(number)).filter((b) => b.includes("cinco horas de tolerância"))).toHaveLength(1);
    await api(t, t.adminToken, "PUT", "/settings/scheduleGraceMinutes", { value: "60" });
  });
});

describe("schedules: creating, listing and the day range", () => {
  it("a past time answers one code at the field, `when: [SCHEDULE_IN_PAST]` (the dialog shows 'Esse horário já passou' there)", async () => {
    const { ticketId } = await openTicketOfAna();
    const past = await schedule(ana.token, ticketId, "lembrete", localIn(-3_600_000));
    expect(past).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION", fields: { when: [SCHEDULE_IN_PAST] } } });
    expect(Object.keys(past.body.fields)).toEqual(["when"]);
  });

  it("a blank message, a `when` more than a minute past, a missing ticket, a closed ticket of someone else are refused", async () => {
    const { ticketId } = await openTicketOfAna();
    expect((await schedule(ana.token, ticketId, "   ", localIn(60_000))).body.error).toBe("ERR_VALIDATION");
    expect((await schedule(ana.token, ticketId, "x", "")).status).toBe(400);
    expect((await schedule(ana.token, ticketId, "x", "2026-13-01T10:00:00")).body.error).toBe("ERR_VALIDATION");
    const past = await schedule(ana.token, ticketId, "x", localIn(-120_000));
    expect(past.body).toMatchObject({ error: "ERR_VALIDATION", fields: { when: ["In the past"] } });
    expect((await schedule(ana.token, ticketId, "agora mesmo", localIn(-30_000))).status).toBe(200);
    expect((await schedule(ana.token, 999_999, "x", localIn(60_000))).body.error).toBe("ERR_NO_TICKET_FOUND");

    const beto = await t.createUser({ name: "Beto" });
    const betoTicket = await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { status: "open", userId: beto.id });
    expect(betoTicket.status).toBe(200);
    await api(t, beto.token, "PUT", `/tickets/${ticketId}`, { status: "closed" });
    const foreign = await schedule(ana.token, ticketId, "x", localIn(60_000));
    expect(foreign.body.error).toBe("ERR_TICKET_NOT_OPEN");
    // its own agent may still schedule a follow-up on the closed ticket, and the admin too
    expect((await schedule(beto.token, ticketId, "follow-up", localIn(60_000))).status).toBe(200);
    expect((await schedule(t.adminToken, ticketId, "follow-up do admin", localIn(60_000))).status).toBe(200);
    // an explicit offset is accepted
    const zulu = new Date(fake.at() + 3600_000).toISOString();
    const withOffset = await schedule(beto.token, ticketId, "com fuso", zulu);
    expect(new Date(withOffset.body.when).getTime()).toBe(new Date(zulu).getTime() - (new Date(zulu).getTime() % 1000));
  });

  it("an Idempotency-Key retry answers the first schedule and creates nothing new", async () => {
    const { ticketId } = await openTicketOfAna();
    const post = () =>
      t.app.inject({
        method: "POST",
        url: "/schedules",
        headers: { authorization: `Bearer ${ana.token}`, "idempotency-key": `agenda-${ticketId}` },
        payload: { ticketId, message: "só uma vez", when: localIn(600_000) },
      });
    const first = (await post()).json();
    const again = (await post()).json();
    expect(again.id).toBe(first.id);
    const listed = await api(t, ana.token, "GET", `/schedules?ticketId=${ticketId}`);
    expect(listed.body.filter((s: { message: string }) => s.message === "só uma vez")).toHaveLength(1);
  });

  it("an agent sees the schedules of tickets it may see; admins see all, with the author's and the contact's names", async () => {
    const { ticketId, number } = await openTicketOfAna();
    await schedule(ana.token, ticketId, "da Ana", localIn(600_000));
    const carla = await t.createUser({ name: "Carla" });
    const q = await api(t, t.adminToken, "POST", "/queue", { name: "Financeiro", color: "#a1b2c3", greetingMessage: "" });
    // the ticket moves to a queue Carla does not serve, owned by Ana
    await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { queueId: q.body.id, userId: ana.id, status: "open" });
    const forCarla = await api(t, carla.token, "GET", `/schedules?ticketId=${ticketId}`);
    expect(forCarla.status).toBe(403);
    const carlaAll = await api(t, carla.token, "GET", "/schedules");
    expect(carlaAll.body.some((s: { ticketId: number }) => s.ticketId === ticketId)).toBe(false);
    // its owner still sees it in the unfiltered list
    const anaAll = await api(t, ana.token, "GET", "/schedules");
    expect(anaAll.body.some((s: { message: string }) => s.message === "da Ana")).toBe(true);
    expect((await schedule(carla.token, ticketId, "x", localIn(60_000))).body.error).toBe("ERR_NO_PERMISSION");
    const adminAll = await api(t, t.adminToken, "GET", "/schedules?status=pending");
    const mine = adminAll.body.find((s: { message: string }) => s.message === "da Ana");
    expect(mine).toMatchObject({
      userName: "Ana",
      contactName: `Cliente ${number.slice(-4)}`,
      status: "pending",
      whatsappId: sim.whatsappId,
    });
    expect(adminAll.body.every((s: { status: string }) => s.status === "pending")).toBe(true);
  });

  it("from T00:00:00 and to T23:59:59 cut the day in the product's time zone (the end second included)", async () => {
    const { ticketId } = await openTicketOfAna();
    const day = new Date(fake.at() + 5 * 86_400_000);
    const w = wallTime(day, SP);
    const p = (n: number) => String(n).padStart(2, "0");
    const d = `${w.year}-${p(w.month)}-${p(w.day)}`;
    const prev = wallTime(new Date(day.getTime() - 86_400_000), SP);
    const next = wallTime(new Date(day.getTime() + 86_400_000), SP);
    const dPrev = `${prev.year}-${p(prev.month)}-${p(prev.day)}`;
    const dNext = `${next.year}-${p(next.month)}-${p(next.day)}`;
    const made = [
      [`${dPrev}T23:59:59`, "véspera"],
      [`${d}T00:00:00`, "meia-noite"],
      [`${d}T23:59:59`, "último segundo"],
      [`${dNext}T00:00:00`, "dia seguinte"],
    ];
    for (const [when, message] of made) expect((await schedule(t.adminToken, ticketId, message, when)).status).toBe(200);
    // 21:00 of the day before in UTC is already the day in São Paulo? No: São Paulo is behind UTC, so 02:59:59Z of the next day is still the day
    const utcEdge = zonedToUtc({ year: w.year, month: w.month, day: w.day, hour: 23, minute: 59, second: 59 }, SP);
    expect(utcEdge.getUTCHours()).toBe(2);
    const listed = await api(t, t.adminToken, "GET", `/schedules?from=${d}T00:00:00&to=${d}T23:59:59`);
    const names = (listed.body as { message: string }[]).map((s) => s.message).filter((m) => made.some(([, x]) => x === m));
    expect(names.sort()).toEqual(["meia-noite", "último segundo"]);
    // a plain date means the whole day too
    const plain = await api(t, t.adminToken, "GET", `/schedules?from=${d}&to=${d}`);
    expect((plain.body as { message: string }[]).filter((s) => made.some(([, x]) => x === s.message)).length).toBe(2);
    expect((await api(t, t.adminToken, "GET", "/schedules?from=ontem")).status).toBe(400);
  });

  it("the dialog and the screen hear `schedule` events: created, sent", async () => {
    const url = await listen(t);
    const socket = await socketFor(url, ana.token);
    const heard = recorder<{ action: string; schedule?: { id: number; status: string } }>(socket, "schedule");
    try {
      const { ticketId } = await openTicketOfAna();
      const res = await schedule(ana.token, ticketId, "ao vivo", localIn(5_000));
      fake.advance(5_000);
      await drain();
      await heard.waitFor((e) => e.schedule?.id === res.body.id && e.schedule?.status === "sent");
      expect(heard.seen.find((e) => e.schedule?.id === res.body.id)?.action).toBe("create");
    } finally {
      socket.close();
    }
  });

  it("an agent who may not see the ticket does not hear its schedules; the admin does", async () => {
    const url = await listen(t);
    const queueId = (await api(t, t.adminToken, "POST", "/queue", { name: "Retenção", color: "#0a0b0c", greetingMessage: "" })).body.id;
    const dora = await t.createUser({ name: "Dora" });
    const [doraSocket, adminSocket] = await Promise.all([socketFor(url, dora.token), socketFor(url, t.adminToken)]);
    const doraHeard = recorder<{ schedule?: { message: string } }>(doraSocket, "schedule");
    const adminHeard = recorder<{ schedule?: { message: string } }>(adminSocket, "schedule");
    try {
      const { ticketId } = await openTicketOfAna();
      await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { queueId, userId: ana.id, status: "open" });
      await schedule(ana.token, ticketId, "só para quem vê", localIn(600_000));
      await adminHeard.waitFor((e) => e.schedule?.message === "só para quem vê");
      await heardUpTo(t, doraSocket, queueId);
      expect(doraHeard.seen.some((e) => e.schedule?.message === "só para quem vê")).toBe(false);
    } finally {
      doraSocket.close();
      adminSocket.close();
    }
  });
});

function deps(): schedules.ScheduleDeps {
  return { conv: t.conv, clock: fake.clock, wakeRunner: () => t.jobs.wake() };
}
