import type { AddressInfo } from "node:net";
import { type ConnectionHealth, HEALTH_FAILURE_BURST, WARMUP_DAYS, type WhatsappHealthEvent, warmupCap } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../src/config.js";
import { capToday, isBanSignal } from "../src/modules/health/rules.js";
import {
  api,
  customerSays,
  eventually,
  listen,
  pairedSimulator,
  phoneOf,
  recorder,
  type SimConnection,
  settle,
  socketFor,
  ticketOfContact,
} from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/**
 * Number health on the simulator, real clock: a number logged out on its phone pauses its
 * unsolicited sends and its disparos, alerts admins (socket + e-mail) and its disparos, schedules
 * and message-API sends go through its backup; the panel's figures after sends, failures and a
 * disconnect; the warm-up's cap held by the sender; a burst of failures pauses the number while
 * live replies still go, and 'Retomar envios' lets the held sends go.
 */

let t: TestApp;
let smtp: SMTPServer;
const mails: { to: string[]; raw: string }[] = [];
let seq = 0;
const newNumber = () => `55119600${String(++seq).padStart(5, "0")}`;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  t = await createTestApp();
  const port = (smtp.server.address() as AddressInfo).port;
  for (const [key, value] of Object.entries({ mail_host: "127.0.0.1", mail_port: String(port), mail_smtp_secure: "none" })) {
    const r = await api(t, t.adminToken, "PUT", `/settings/${key}`, { value });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
});
afterAll(async () => {
  await t?.teardown();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const health = async (whatsappId: number): Promise<ConnectionHealth> => {
  const r = await api(t, t.adminToken, "GET", `/whatsapp/${whatsappId}/health`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

/** Polls until `read` answers what `ok` wants (the sender, the jobs and the events run on their own). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  let last: T | undefined;
  const end = Date.now() + timeoutMs;
  for (;;) {
    last = await read();
    if (ok(last)) return last;
    if (Date.now() > end) throw new Error(`${what} not reached: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function tokenOf(whatsappId: number): Promise<string> {
  const r = await api(t, t.adminToken, "POST", `/whatsapp/${whatsappId}/token`);
  expect(r.status).toBe(200);
  return r.body.token;
}

const sendByApi = async (token: string, number: string, body: string) => {
  const res = await t.app.inject({ method: "POST", url: "/api/messages/send", headers: bearer(token), payload: { number, body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; ticketId: number };
};

/** The texts the connection's phone sent to a number. */
const sentTo = async (sim: SimConnection, number: string) => (await phoneOf(sim, number)).filter((m) => m.fromMe).map((m) => m.body);

const outboxOf = async (whatsappId: number) =>
  Number((await t.ctx.db.execute<{ n: number }>(sql`select count(*) as n from outbox where whatsapp_id = ${whatsappId}`)).rows[0].n);

describe("number health", () => {
  it("a number logged out on its phone pauses its unsolicited sends and disparos, alerts admins, and its disparos, schedules and API sends go through the backup", async () => {
    const url = await listen(t);
    const socket = await socketFor(url, t.adminToken);
    const agentSocket = await socketFor(url, (await t.createUser({ name: "Agente" })).token);
    const heard = recorder<WhatsappHealthEvent>(socket, "whatsappHealth");
    const agentHeard = recorder<WhatsappHealthEvent>(agentSocket, "whatsappHealth");

    const backup = await pairedSimulator(t, { name: "Reserva" });
    const main = await pairedSimulator(t, { name: "Principal", backupWhatsappId: backup.whatsappId });
    expect((await api(t, t.adminToken, "GET", `/whatsapp/${main.whatsappId}`)).body.backupWhatsappId).toBe(backup.whatsappId);
    const token = await tokenOf(main.whatsappId);
    // the main number's disparos: one now, the next a minute later; the backup's: no wait
    for (const [id, gap] of [
      [main.whatsappId, 60_000],
      [backup.whatsappId, 0],
    ])
      expect(
        (await api(t, t.adminToken, "PUT", `/disparos/connections/${id}`, { intervalMinMs: gap, intervalMaxMs: gap, pauseEvery: 0 }))
          .status,
      ).toBe(200);
    const campaign = [newNumber(), newNumber(), newNumber()];
    const created = await api(t, t.adminToken, "POST", "/disparos", {
      whatsappId: main.whatsappId,
      rows: campaign.map((number) => ({ number, message: "Promoção de fibra" })),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await until(
      () => sentTo(main, campaign[0]),
      (b) => b.length === 1,
      "the first disparo from the main number",
    );

    // a customer of the main number with a schedule due in a moment
    const customer = newNumber();
    await customerSays(t, main, customer, "oi");
    const [ticket] = await ticketOfContact(t, customer);
    const scheduled = await api(t, t.adminToken, "POST", "/schedules", {
      ticketId: ticket.id,
      message: "Lembrete: visita técnica amanhã",
      when: new Date(Date.now() + 1500).toISOString(),
      sign: false,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);

    // the phone unlinks the device (Baileys' loggedOut, 401)
    const unlinked = await api(t, t.adminToken, "POST", `/simulator/api/connections/${main.whatsappId}/unlink`, { reason: "loggedOut" });
    expect(unlinked.status).toBe(200);

    const alert = await heard.waitFor((p) => p.whatsappId === main.whatsappId && !!p.alert, 10_000);
    expect(alert.alert).toEqual({ reason: "loggedOut", name: "Principal" });
    expect(alert.health.paused).toBe(true);

    // its disparos pause (the disparos module follows the health event); the rows still waiting move to the backup and go from there
    const disparoConn = await until(
      async () =>
        (await api(t, t.adminToken, "GET", "/disparos/connections")).body.find(
          (c: { whatsappId: number }) => c.whatsappId === main.whatsappId,
        ),
      (c) => c?.paused === true,
      "the disparos paused with the number",
    );
    expect(disparoConn.paused).toBe(true);
    for (const n of campaign.slice(1))
      await until(
        () => sentTo(backup, n),
        (b) => b.length === 1,
        `the disparo to ${n} from the backup`,
      );
    for (const n of campaign.slice(1)) expect(await sentTo(main, n)).toEqual([]);
    const rows = (
      await t.ctx.db.execute<{ number: string; whatsapp_id: number; status: string }>(
        sql`select number, whatsapp_id, status from disparos where number in (${sql.join(
          campaign.map((n) => sql`${n}`),
          sql`, `,
        )}) order by id`,
      )
    ).rows;
    await until(
      async () =>
        (
          await t.ctx.db.execute<{ n: number }>(
            sql`select count(*) as n from disparos where whatsapp_id = ${backup.whatsappId} and status = 'enviado'`,
          )
        ).rows[0].n,
      (n) => Number(n) === 2,
      "two disparo rows sent by the backup",
    );
    expect(rows.map((r) => Number(r.whatsapp_id))).toEqual([main.whatsappId, backup.whatsappId, backup.whatsappId]);

    // the schedule goes through the backup, into the customer's conversation there
    await until(
      () => sentTo(backup, customer),
      (b) => b.includes("Lembrete: visita técnica amanhã"),
      "the schedule from the backup",
    );
    expect(await sentTo(main, customer)).toEqual([]);
    const sched = (
      await t.ctx.db.execute<{ status: string; whatsapp_id: number }>(
        sql`select status, whatsapp_id from schedules where id = ${scheduled.body.id}`,
      )
    ).rows[0];
    expect(sched.status).toBe("sent");
    expect(Number(sched.whatsapp_id)).toBe(backup.whatsappId);

    // the message API with the main number's token sends from the backup
    const apiCustomer = newNumber();
    await sendByApi(token, apiCustomer, "Sua fatura vence amanhã");
    await until(
      () => sentTo(backup, apiCustomer),
      (b) => b.length === 1,
      "the API send from the backup",
    );

    const h = await health(main.whatsappId);
    expect(h).toMatchObject({
      paused: true,
      pausedReason: "loggedOut",
      backupWhatsappId: backup.whatsappId,
      backupName: "Reserva",
      backupActive: true,
      disconnects24h: 1,
    });
    expect(h.recent.map((e) => [e.kind, e.reason])).toEqual([
      ["pause", "loggedOut"],
      ["disconnect", "loggedOut"],
    ]);

    // the admins' e-mail, once; agents hear no health event
    await until(
      async () => mails.length,
      (n) => n >= 1,
      "the alert e-mail",
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual([DEMO_ADMIN.email]);
    expect(mails[0].raw).toContain("Principal");
    expect(agentHeard.seen).toEqual([]);
    socket.close();
    agentSocket.close();
  });

  it("the panel counts today's unsolicited sends (not replies), failures and refusals, and disconnects; an admin's own disconnect is no ban signal", async () => {
    const sim = await pairedSimulator(t, { dailyCap: 50 });
    const token = await tokenOf(sim.whatsappId);
    // the pairing is recorded by health when it hears the session's status (an event after the status is stored)
    const before = await until(
      () => health(sim.whatsappId),
      (h) => h.pairedAt !== null,
      "the pairing recorded",
    );
    expect(before).toMatchObject({ sentToday: 0, dailyCap: 50, fullDailyCap: 50, warmupDay: null, failures24h: 0, paused: false });
    expect(before.pairedAt).not.toBeNull();

    for (let i = 0; i < 3; i++) await sendByApi(token, newNumber(), `aviso ${i}`);
    // a customer who wrote: the API's message to them is a reply, not counted
    const live = newNumber();
    await customerSays(t, sim, live, "oi");
    await sendByApi(token, live, "respondendo");
    const refused = newNumber();
    await sim.session.setRefused(refused, true);
    await sendByApi(token, refused, "não chega");
    await settle(t);
    await until(
      () => health(sim.whatsappId),
      (h) => h.sentToday === 3 && h.failures24h === 1,
      "the counts",
    );
    expect(await health(sim.whatsappId)).toMatchObject({ sentToday: 3, failures24h: 1, blocks24h: 1, disconnects24h: 0 });

    expect((await api(t, t.adminToken, "DELETE", `/whatsappsession/${sim.whatsappId}`)).status).toBe(200);
    const after = await until(
      () => health(sim.whatsappId),
      (h) => h.disconnects24h === 1,
      "the disconnect",
    );
    expect(after.paused).toBe(false);
    expect(after.recent[0]).toMatchObject({ kind: "disconnect", status: "DISCONNECTED", reason: "logged out" });
  });

  it("one daily limit: the health panel, the disparos card and the connection agree on today's cap; a real number warms up (the sender holds the rest), the simulator does not", async () => {
    const sim = await pairedSimulator(t, { warmupEnabled: true, dailyCap: 100 });
    const token = await tokenOf(sim.whatsappId);
    /** today's cap as each screen reads it: the health panel, the disparos card, the connection (its form) */
    const answers = async () => {
      const h = await health(sim.whatsappId);
      const d = await api(t, t.adminToken, "GET", "/disparos/connections");
      const card = d.body.find((c: { whatsappId: number }) => c.whatsappId === sim.whatsappId);
      const conn = (await api(t, t.adminToken, "GET", `/whatsapp/${sim.whatsappId}`)).body;
      return {
        panel: { cap: h.dailyCap, full: h.fullDailyCap, warmupDay: h.warmupDay },
        disparos: { cap: card.dailyCap, full: card.fullDailyCap, warmupDay: card.warmupDay },
        connection: { cap: conn.dailyCapToday, full: conn.dailyCap, warmupDay: conn.warmupDay },
      };
    };
    const agree = (cap: number, full: number, warmupDay: number | null) => {
      const one = { cap, full, warmupDay };
      return { panel: one, disparos: one, connection: one };
    };
    // the simulator paired by QR code today, warm-up on: no warm-up (no real number to protect)
    expect(await answers()).toEqual(agree(100, 100, null));

    // the same connection as a real number (its type): day 1 of the warm-up, 20 today, everywhere
    await t.ctx.db.execute(sql`update whatsapps set type = 'baileys' where id = ${sim.whatsappId}`);
    expect(await answers()).toEqual(agree(20, 100, 1));
    // the sender holds the unsolicited sends past it
    const numbers = Array.from({ length: 22 }, newNumber);
    for (const n of numbers) await sendByApi(token, n, "Bem-vindo à fibra");
    await until(
      () => health(sim.whatsappId),
      (h) => h.sentToday === 20,
      "20 sends",
    );
    await settle(t);
    expect((await health(sim.whatsappId)).sentToday).toBe(20);
    expect(await outboxOf(sim.whatsappId)).toBe(2);
    const reached = (await Promise.all(numbers.map((n) => sentTo(sim, n)))).filter((b) => b.length > 0).length;
    expect(reached).toBe(20);
    // paired WARMUP_DAYS - 1 days ago: the last day of the warm-up, the full cap
    await t.ctx.db.execute(
      sql`update connection_health set paired_at = now() - make_interval(days => ${WARMUP_DAYS - 1}) where whatsapp_id = ${sim.whatsappId}`,
    );
    expect(await answers()).toEqual(agree(100, 100, WARMUP_DAYS));

    // a simulator again; the cap changed from the disparos screen is the connection's one setting
    await t.ctx.db.execute(sql`update whatsapps set type = 'simulator' where id = ${sim.whatsappId}`);
    const put = await api(t, t.adminToken, "PUT", `/disparos/connections/${sim.whatsappId}`, { dailyCap: 60 });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ dailyCap: 60, fullDailyCap: 60, warmupDay: null });
    expect(await answers()).toEqual(agree(60, 60, null));
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { dailyCap: 100 })).status).toBe(200);
    expect(await answers()).toEqual(agree(100, 100, null));
    await until(
      () => outboxOf(sim.whatsappId),
      (n) => n === 0,
      "the held sends",
    );
    expect(await health(sim.whatsappId)).toMatchObject({ sentToday: 22, dailyCap: 100, warmupDay: null });
  });

  it("a burst of failed sends pauses the number: its unsolicited sends wait, replies to live chats still go; 'Retomar envios' lets them go", async () => {
    const sim = await pairedSimulator(t);
    const token = await tokenOf(sim.whatsappId);
    for (let i = 0; i < HEALTH_FAILURE_BURST; i++) {
      const n = newNumber();
      await sim.session.setRefused(n, true);
      await sendByApi(token, n, "falha");
    }
    const paused = await until(
      () => health(sim.whatsappId),
      (h) => h.paused,
      "the pause",
    );
    expect(paused.pausedReason).toBe("falhas");

    const quiet = newNumber();
    await sendByApi(token, quiet, "envio não solicitado");
    const live = newNumber();
    await customerSays(t, sim, live, "estou sem internet");
    await sendByApi(token, live, "já vamos verificar");
    await until(
      () => sentTo(sim, live),
      (b) => b.includes("já vamos verificar"),
      "the reply",
    );
    await settle(t);
    expect(await sentTo(sim, quiet)).toEqual([]);

    const resumed = await api(t, t.adminToken, "POST", `/whatsapp/${sim.whatsappId}/health/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.paused).toBe(false);
    await until(
      () => sentTo(sim, quiet),
      (b) => b.length === 1,
      "the held send after the resume",
    );
  });

  it("the backup is another connection that exists; WhatsApp's 403 pauses the number too", async () => {
    const sim = await pairedSimulator(t);
    const self = await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { backupWhatsappId: sim.whatsappId });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe("ERR_VALIDATION");
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { backupWhatsappId: 999_999 })).status).toBe(400);
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { backupWhatsappId: null })).status).toBe(200);

    await api(t, t.adminToken, "POST", `/simulator/api/connections/${sim.whatsappId}/unlink`, { reason: "forbidden" });
    await until(
      () => health(sim.whatsappId),
      (h) => h.paused && h.pausedReason === "forbidden",
      "the 403 pause",
    );
    await eventually(async () => mails.some((m) => m.raw.includes("403")), "the 403 e-mail");
  });
});

describe("number health rules", () => {
  it("the warm-up grows from 20 a day to the full cap over two weeks", () => {
    expect(Array.from({ length: WARMUP_DAYS }, (_, i) => warmupCap(1000, i + 1))).toEqual([
      20, 27, 37, 49, 67, 90, 122, 164, 222, 300, 405, 548, 740, 1000,
    ]);
    expect(warmupCap(10, 1)).toBe(10);
    const zone = "America/Sao_Paulo";
    const paired = Date.UTC(2026, 10, 2, 15);
    expect(capToday({ dailyCap: 1000, warmupEnabled: true, pairedAt: new Date(paired) }, paired + 3 * 86_400_000, zone)).toEqual({
      cap: 49,
      full: 1000,
      warmupDay: 4,
    });
    expect(
      capToday({ dailyCap: 1000, warmupEnabled: true, pairedAt: new Date(paired) }, paired + 20 * 86_400_000, zone).warmupDay,
    ).toBeNull();
    expect(capToday({ dailyCap: 1000, warmupEnabled: false, pairedAt: new Date(paired) }, paired, zone).cap).toBe(1000);
    expect(capToday({ dailyCap: 1000, warmupEnabled: true, pairedAt: null }, paired, zone).cap).toBe(1000);
    // the simulator is never warmed up
    expect(capToday({ dailyCap: 1000, warmupEnabled: true, pairedAt: new Date(paired), type: "simulator" }, paired, zone)).toEqual({
      cap: 1000,
      full: 1000,
      warmupDay: null,
    });
    expect(capToday({ dailyCap: 1000, warmupEnabled: true, pairedAt: new Date(paired), type: "baileys" }, paired, zone).cap).toBe(20);
  });

  it("ban signals: loggedOut, forbidden, 401/403; an admin's logout and a network drop are not", () => {
    for (const r of ["loggedOut", "forbidden", "HTTP 401 Unauthorized", "403 Forbidden", "account banned"])
      expect(isBanSignal(r)).toBe(true);
    for (const r of ["logged out", "connectionClosed", "timedOut", "", undefined]) expect(isBanSignal(r)).toBe(false);
  });
});
