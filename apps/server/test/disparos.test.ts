import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallTime, zonedToUtc } from "../src/lib/zoned-time.js";
import {
  api,
  customerSays,
  listen,
  multipart,
  PNG,
  pairedSimulator,
  phoneOf,
  recorder,
  type SimConnection,
  settle,
  socketFor,
  ticketOfContact,
} from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/**
 * Disparos on a fake clock: the pace and the daily cap, sending hours, a disconnected number
 * holding its rows, errors never counted as sent and a burst of them pausing the connection, the
 * opt-out, no waiting ticket opened, the bulk actions, stats equal to the rows, and who may call
 * what. The job runner and the outbox sender run on the fake clock; the test moves it.
 */

let t: TestApp;
const fake = fakeClock();
let agentToken: string;
const SP = "America/Sao_Paulo";

beforeAll(async () => {
  t = await createTestApp({}, { clock: fake.clock });
  agentToken = (await t.createUser({ name: "Ana" })).token;
});
afterAll(() => t.teardown());

let seq = 0;
const numbers = (n: number) => Array.from({ length: n }, () => `55119700${String(++seq).padStart(5, "0")}`);

/** Runs every job due now (and what they queue for now), and sends what the outbox holds. */
async function drain() {
  for (let i = 0; i < 100; i++) {
    const started = await t.jobs.tick();
    await t.jobs.idle();
    await settle(t);
    if (started === 0) break;
  }
  await settle(t);
}

/** Polls until `read` answers what `ok` wants (outcomes arrive by events after the send). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what = "condition"): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 200; i++) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} not reached: ${JSON.stringify(last)}`);
}

/** What the connection's customers' phones received from it, by body. */
async function received(sim: SimConnection) {
  const { rows } = await t.ctx.db.execute<{ body: string; chat: string; id: string; media_type: string }>(
    sql`select body, chat, id, media_type from simulator_messages where whatsapp_id = ${sim.whatsappId} and from_me order by seq`,
  );
  return rows;
}

const rowsOf = async (whatsappId: number) =>
  (
    await t.ctx.db.execute<{ id: number; number: string; status: string; reason: string }>(
      sql`select id::int as id, number, status, reason from disparos where whatsapp_id = ${whatsappId} order by id`,
    )
  ).rows;

const statusesOf = async (whatsappId: number) => (await rowsOf(whatsappId)).map((r) => r.status);

async function create(whatsappId: number, rows: { number: string; message: string; url?: string; name?: string }[], extra: object = {}) {
  const res = await api(t, t.adminToken, "POST", "/disparos", { whatsappId, rows, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { created: number; cancelled: number };
}

const setPace = async (whatsappId: number, body: object) => {
  const res = await api(t, t.adminToken, "PUT", `/disparos/connections/${whatsappId}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const connectionOf = async (whatsappId: number) =>
  // biome-ignore lint/suspicious/noExplicitAny: loose read
  (await api(t, t.adminToken, "GET", "/disparos/connections")).body.find((c: any) => c.whatsappId === whatsappId);

/** A local time of the fake clock's day, as an instant. */
const localAt = (hour: number, dayOffset = 0) => {
  const w = wallTime(new Date(fake.at()), SP);
  return zonedToUtc({ year: w.year, month: w.month, day: w.day + dayOffset, hour }, SP).getTime();
};

describe("disparos: the pace", () => {
  it("one row at a time, 8–15 s apart by default, and no more than the daily cap in a local day", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { dailyCap: 3 });
    const nums = numbers(5);
    expect(
      await create(
        sim.whatsappId,
        nums.map((n, i) => ({ number: n, message: `fatura ${i}` })),
      ),
    ).toEqual({ created: 5, cancelled: 0 });
    await drain();
    expect((await received(sim)).map((m) => m.body)).toEqual(["fatura 0"]);
    // not before 8 s
    fake.advance(7_999);
    await drain();
    expect(await received(sim)).toHaveLength(1);
    // by 15 s the next one went
    fake.advance(7_001);
    await drain();
    expect((await received(sim)).map((m) => m.body)).toEqual(["fatura 0", "fatura 1"]);
    fake.advance(15_000);
    await drain();
    expect(await received(sim)).toHaveLength(3);
    // the cap: nothing more today, however long the day goes on
    fake.advance(3 * 3600_000);
    await drain();
    expect(await received(sim)).toHaveLength(3);
    expect(await connectionOf(sim.whatsappId)).toMatchObject({ waiting: "limite diário", sentToday: 3, pending: 2 });
    // the next local day (São Paulo's midnight) it goes on
    fake.advance(localAt(0, 1) - fake.at());
    await drain();
    expect(await received(sim)).toHaveLength(4);
    const stats = await until(
      async () => (await api(t, t.adminToken, "GET", "/disparos/stats")).body,
      (s) => s.enviado >= 4,
      "4 sent",
    );
    expect(stats).toMatchObject({ enviado: 4, "a enviar": 1 });
    expect(await statusesOf(sim.whatsappId)).toEqual(["enviado", "enviado", "enviado", "enviado", "a enviar"]);
  });

  it("sending hours: outside them nothing goes and the connection says 'fora do horário'; at the opening the rows go", async () => {
    const sim = await pairedSimulator(t);
    const h = wallTime(new Date(fake.at()), SP).hour;
    const start = (h + 2) % 24;
    const hhmm = (x: number) => `${String(x).padStart(2, "0")}:00`;
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0, windowStart: hhmm(start), windowEnd: hhmm((start + 2) % 24) });
    await create(
      sim.whatsappId,
      numbers(2).map((n) => ({ number: n, message: "aviso de manutenção" })),
    );
    await drain();
    expect(await received(sim)).toHaveLength(0);
    expect(await connectionOf(sim.whatsappId)).toMatchObject({ waiting: "fora do horário", pending: 2 });
    fake.advance(localAt(start, start < h ? 1 : 0) - fake.at());
    await drain();
    expect(await received(sim)).toHaveLength(2);
  });

  it("a disconnected number holds its rows (none taken, none sent) and goes on when it is back", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    await sim.session.stop();
    await create(
      sim.whatsappId,
      numbers(3).map((n) => ({ number: n, message: "promoção" })),
    );
    await drain();
    expect(await statusesOf(sim.whatsappId)).toEqual(["a enviar", "a enviar", "a enviar"]);
    // logged out on the phone: the stored status says so as well
    await sim.session.start();
    await sim.session.logout();
    await t.channels.idle();
    await drain();
    expect(await statusesOf(sim.whatsappId)).toEqual(["a enviar", "a enviar", "a enviar"]);
    expect(await connectionOf(sim.whatsappId)).toMatchObject({ waiting: "desconectado" });
    // paired again: the reconnect queues the connection's run, and the rows go
    await sim.session.requestNewQr();
    await sim.session.scan(sim.session.qrcode);
    await t.channels.idle();
    await until(
      () => t.ctx.db.execute(sql`select 1 from jobs where singleton_key = ${`disparos:${sim.whatsappId}`} and state = 'queued'`),
      (r) => r.rows.length === 1,
      "the run queued on reconnect",
    );
    await drain();
    expect(await received(sim)).toHaveLength(3);
    await until(
      () => statusesOf(sim.whatsappId),
      (s) => s.every((x) => x === "enviado"),
      "all sent",
    );
  });
});

describe("disparos: errors", () => {
  it("a failed send is 'com erro' with its reason, never 'enviado'; five in a row pause the connection and tell admins", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 1000, intervalMaxMs: 1000 });
    const admin = await socketFor(await listen(t), t.adminToken);
    const agent = await socketFor(await listen(t), agentToken);
    const adminHears = recorder<{ alert?: { whatsappId: number } }>(admin, "disparos:update");
    const agentHears = recorder(agent, "disparos:update");
    const bad = numbers(5);
    const good = numbers(2);
    for (const n of bad) await sim.session.setRefused(n, true);
    await create(
      sim.whatsappId,
      [...bad, ...good].map((n) => ({ number: n, message: "cobrança" })),
    );
    for (let i = 0; i < 5; i++) {
      await drain();
      fake.advance(1000);
    }
    const rows = await until(
      () => rowsOf(sim.whatsappId),
      (r) => r.filter((x) => x.status === "com erro").length === 5,
      "five errors",
    );
    expect(rows.slice(0, 5).map((r) => [r.status, r.reason])).toEqual(bad.map(() => ["com erro", "the number does not receive messages"]));
    await adminHears.waitFor((p) => p.alert?.whatsappId === sim.whatsappId);
    expect(await connectionOf(sim.whatsappId)).toMatchObject({ paused: true, pausedReason: "falhas", waiting: "pausado" });
    // paused: the good rows wait
    fake.advance(60_000);
    await drain();
    expect((await rowsOf(sim.whatsappId)).slice(5).map((r) => r.status)).toEqual(["a enviar", "a enviar"]);
    expect(await received(sim)).toHaveLength(0);

    // Retomar: the good ones go; the errors stay errors until restarted
    await setPace(sim.whatsappId, { paused: false });
    for (let i = 0; i < 3; i++) {
      await drain();
      fake.advance(1000);
    }
    await until(
      () => statusesOf(sim.whatsappId),
      (s) => s.filter((x) => x === "enviado").length === 2,
      "two sent",
    );
    // 'Reiniciar com erro' once the numbers receive again
    for (const n of bad) await sim.session.setRefused(n, false);
    expect((await api(t, t.adminToken, "POST", "/disparos/restart-errors")).body.changed).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < 6; i++) {
      await drain();
      fake.advance(1000);
    }
    await until(
      () => statusesOf(sim.whatsappId),
      (s) => s.every((x) => x === "enviado"),
      "all sent",
    );
    expect((await received(sim)).map((m) => m.chat).sort()).toEqual([...bad, ...good].sort());
    expect(agentHears.seen).toHaveLength(0);
    admin.disconnect();
    agent.disconnect();
  });
});

describe("disparos: the contact's history", () => {
  it("a disparo is stored in a CLOSED ticket (no waiting ticket); the customer's answer opens a pending one", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const [n] = numbers(1);
    await create(sim.whatsappId, [{ number: n, message: "{Olá|Oi} {nome}, sua fatura chegou" }]);
    await drain();
    const [phone] = await received(sim);
    expect(phone.body).toMatch(/^(Olá|Oi), sua fatura chegou$/);
    const tickets = await ticketOfContact(t, n);
    expect(tickets.map((x) => x.status)).toEqual(["closed"]);
    const msgs = await api(t, t.adminToken, "GET", `/messages/${tickets[0].id}`);
    expect(msgs.body.messages.map((m: { body: string; source: string; wid: string }) => [m.body, m.source, m.wid])).toEqual([
      [phone.body, "disparo", phone.id],
    ]);
    const row = (await rowsOf(sim.whatsappId))[0];
    const listed = await api(t, t.adminToken, "GET", `/disparos?whatsappId=${sim.whatsappId}`);
    expect(listed.body.rows[0]).toMatchObject({
      id: row.id,
      number: n,
      rendered: phone.body,
      message: "{Olá|Oi} {nome}, sua fatura chegou",
    });
    await customerSays(t, sim, n, "quanto está?");
    expect((await ticketOfContact(t, n)).map((x) => x.status)).toEqual(["pending"]);
  });

  it("a known contact's name fills {nome} and {primeiro_nome}", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const [n] = numbers(1);
    await api(t, t.adminToken, "POST", "/contacts", { name: "Maria Souza", number: n });
    await create(sim.whatsappId, [{ number: n, message: "Bom dia {primeiro_nome}! ({nome})" }]);
    await drain();
    expect((await received(sim)).map((m) => m.body)).toEqual(["Bom dia Maria! (Maria Souza)"]);
  });
});

describe("disparos: opt-out", () => {
  it("a customer who answers SAIR is marked, its waiting rows cancelled, told once; later rows are created cancelled until an admin clears it", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const [n, other] = numbers(2);
    const later = new Date(fake.at() + 3600_000).toISOString();
    await create(
      sim.whatsappId,
      [n, n, other].map((x) => ({ number: x, message: "novidades" })),
      { startAt: later },
    );
    await customerSays(t, sim, n, " Sáir! ");
    const confirmation = "Pronto! Você não vai mais receber nossas mensagens automáticas. Se mudar de ideia, é só nos chamar.";
    await until(
      async () => (await phoneOf(sim, n)).filter((m) => m.fromMe).map((m) => m.body),
      (b) => b.includes(confirmation),
      "confirmation",
    );
    expect((await rowsOf(sim.whatsappId)).map((r) => [r.number, r.status, r.reason])).toEqual([
      [n, "cancelado", "descadastrado"],
      [n, "cancelado", "descadastrado"],
      [other, "a enviar", ""],
    ]);
    // once: saying it again is an ordinary message
    await customerSays(t, sim, n, "sair");
    await settle(t);
    expect((await phoneOf(sim, n)).filter((m) => m.fromMe && m.body === confirmation)).toHaveLength(1);

    expect(await create(sim.whatsappId, [{ number: n, message: "última chance" }])).toEqual({ created: 1, cancelled: 1 });
    const optOuts = await api(t, t.adminToken, "GET", "/disparos/opt-outs");
    const mark = optOuts.body.find((o: { number: string }) => o.number === n);
    expect(mark).toBeDefined();
    expect((await api(t, agentToken, "DELETE", `/disparos/opt-outs/${mark.contactId}`)).status).toBe(403);
    expect((await api(t, t.adminToken, "DELETE", `/disparos/opt-outs/${mark.contactId}`)).status).toBe(200);
    expect(await create(sim.whatsappId, [{ number: n, message: "bem-vindo de volta" }])).toEqual({ created: 1, cancelled: 0 });
  });

  it("an opt-out answer to a disparo reopens nothing: the ticket stays closed, no agent's queue gets it, the confirmation goes out", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const [n] = numbers(1);
    await create(sim.whatsappId, [{ number: n, message: "Promoção de fibra" }]);
    await drain();
    expect((await ticketOfContact(t, n)).map((x) => x.status)).toEqual(["closed"]);
    await customerSays(t, sim, n, "SAIR");
    const confirmation = "Pronto! Você não vai mais receber nossas mensagens automáticas. Se mudar de ideia, é só nos chamar.";
    await until(
      async () => (await phoneOf(sim, n)).filter((m) => m.fromMe).map((m) => m.body),
      (b) => b.includes(confirmation),
      "confirmation",
    );
    await settle(t);
    const tickets = await ticketOfContact(t, n);
    expect(tickets.map((x) => [x.status, x.userId, x.queueId])).toEqual([["closed", null, null]]);
    // the answer is kept in the contact's history
    const msgs = await api(t, t.adminToken, "GET", `/messages/${tickets[0].id}`);
    expect(msgs.body.messages.map((m: { body: string }) => m.body)).toContain("SAIR");
    const { rows } = await t.ctx.db.execute<{ reason: string }>(
      sql`select reason from ticket_history where ticket_id = ${tickets[0].id} order by id`,
    );
    expect(rows.map((r) => r.reason)).toEqual(["create"]);
  });

  it("the words are a setting (comma-separated)", async () => {
    const sim = await pairedSimulator(t);
    await api(t, t.adminToken, "PUT", "/settings/disparoOptOutWords", { value: "PARAR, SAIR" });
    const [n] = numbers(1);
    await customerSays(t, sim, n, "Parar");
    const optOuts = await until(
      async () => (await api(t, t.adminToken, "GET", "/disparos/opt-outs")).body as { number: string }[],
      (o) => o.some((x) => x.number === n),
      "opt-out",
    );
    expect(optOuts.some((x) => x.number === n)).toBe(true);
    await api(t, t.adminToken, "PUT", "/settings/disparoOptOutWords", { value: "SAIR" });
  });
});

describe("disparos: creating", () => {
  it("an invalid row rejects the whole request with a 400 naming it; nothing is stored", async () => {
    const sim = await pairedSimulator(t);
    const before = (await api(t, t.adminToken, "GET", "/disparos/stats")).body;
    const res = await api(t, t.adminToken, "POST", "/disparos", {
      whatsappId: sim.whatsappId,
      rows: [
        { number: "(11) 98888-0001", message: "ok" },
        { number: "11 98888 0002", message: "ok" },
        { number: "12ab", message: "ok" },
      ],
    });
    expect(res).toEqual({ status: 400, body: { error: "ERR_VALIDATION", fields: { "rows.2.number": ["Invalid number"] } } });
    expect(
      (await api(t, t.adminToken, "POST", "/disparos", { whatsappId: sim.whatsappId, rows: [{ number: "11988880003", message: " " }] }))
        .body,
    ).toEqual({ error: "ERR_VALIDATION", fields: { "rows.0.message": ["Required"] } });
    expect((await api(t, t.adminToken, "GET", "/disparos/stats")).body).toEqual(before);
    expect(await rowsOf(sim.whatsappId)).toEqual([]);
    // numbers get the country code: 11 digits are Brazilian
    await create(sim.whatsappId, [{ number: "(11) 98888-0001", message: "ok" }], {
      startAt: new Date(fake.at() + 86_400_000).toISOString(),
    });
    expect((await rowsOf(sim.whatsappId)).map((r) => r.number)).toEqual(["5511988880001"]);
    expect(
      (await api(t, t.adminToken, "POST", "/disparos", { whatsappId: 99999, rows: [{ number: "11988880009", message: "x" }] })).body,
    ).toEqual({
      error: "ERR_NO_WAPP_FOUND",
    });
  });

  it("every invalid row is named (line and reason); sent again with skipInvalid, the good rows are queued and the bad ones counted", async () => {
    const sim = await pairedSimulator(t);
    const [a, b] = numbers(2);
    const rows = [
      { number: a, message: "ok" },
      { number: "12ab", message: "ok" },
      { number: b, message: "ok" },
      { number: "123", message: "ok" },
      { number: numbers(1)[0], message: " " },
    ];
    const refused = await api(t, t.adminToken, "POST", "/disparos", { whatsappId: sim.whatsappId, rows });
    expect(refused).toEqual({
      status: 400,
      body: {
        error: "ERR_VALIDATION",
        fields: { "rows.1.number": ["Invalid number"], "rows.3.number": ["Invalid number"], "rows.4.message": ["Required"] },
      },
    });
    expect(await rowsOf(sim.whatsappId)).toEqual([]);
    // the dialog's confirmation: the same rows, skipInvalid
    const sent = await create(sim.whatsappId, rows, { skipInvalid: true, startAt: new Date(fake.at() + 86_400_000).toISOString() });
    expect(sent).toEqual({ created: 2, cancelled: 0, skipped: 3 });
    expect((await rowsOf(sim.whatsappId)).map((r) => r.number).sort()).toEqual([a, b].sort());
    // nothing valid: refused even so
    const none = await api(t, t.adminToken, "POST", "/disparos", { whatsappId: sim.whatsappId, rows: rows.slice(1, 2), skipInvalid: true });
    expect(none.body).toEqual({ error: "ERR_VALIDATION", fields: { "rows.0.number": ["Invalid number"] } });
    // without invalid rows, the answer keeps its documented shape
    expect(await create(sim.whatsappId, [{ number: numbers(1)[0], message: "ok" }], { skipInvalid: true })).toEqual({
      created: 1,
      cancelled: 0,
    });

    // a CSV: its lines as a spreadsheet numbers them, and the multipart field skipInvalid
    const [c, d] = numbers(2);
    const csv = Buffer.from(`numero,mensagem\n${c},oi\nxx,oi\n${d},oi\n,oi\n`);
    const post = (fields: Record<string, string>) => {
      const form = multipart({ whatsappId: String(sim.whatsappId), ...fields }, [
        { field: "file", name: "lista.csv", type: "text/csv", data: csv },
      ]);
      return t.app.inject({
        method: "POST",
        url: "/disparos",
        headers: { ...bearer(t.adminToken), ...form.headers },
        payload: form.payload,
      });
    };
    expect((await post({})).json()).toEqual({
      error: "ERR_VALIDATION",
      fields: { "line.3.number": ["Invalid number"], "line.5.number": ["Required"] },
    });
    const ok = await post({ skipInvalid: "true" });
    expect(ok.json()).toEqual({ created: 2, cancelled: 0, skipped: 2 });
  });

  it("a CSV (number,message,url) with a media file for every row; a bad line is named", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const [a, b, c] = numbers(3);
    const bad = multipart({ whatsappId: String(sim.whatsappId), message: "padrão" }, [
      { field: "file", name: "lista.csv", type: "text/csv", data: Buffer.from(`number,message,url\n${a},oi\nxx,oi\n`) },
    ]);
    const refused = await t.app.inject({
      method: "POST",
      url: "/disparos",
      headers: { ...bearer(t.adminToken), ...bad.headers },
      payload: bad.payload,
    });
    expect(refused.json()).toEqual({ error: "ERR_VALIDATION", fields: { "line.3.number": ["Invalid number"] } });
    const form = multipart({ whatsappId: String(sim.whatsappId), message: "Veja nossa {oferta|promoção}" }, [
      { field: "file", name: "lista.csv", type: "text/csv", data: Buffer.from(`numero;mensagem\n${a};\n${b};Só pra você\n${c}\n`) },
      { field: "media", name: "banner.png", type: "image/png", data: PNG },
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/disparos",
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(res.json()).toEqual({ created: 3, cancelled: 0 });
    const listed = (await api(t, t.adminToken, "GET", `/disparos?whatsappId=${sim.whatsappId}&limit=10`)).body.rows;
    expect(listed.map((r: { url: string; mimetype: string }) => [r.url.startsWith("/media/"), r.mimetype])).toEqual([
      [true, "image/png"],
      [true, "image/png"],
      [true, "image/png"],
    ]);
    await drain();
    const got = await received(sim);
    expect(got.map((m) => m.media_type)).toEqual(["image", "image", "image"]);
    expect(got.find((m) => m.chat === b)?.body).toBe("Só pra você");
    expect(got.find((m) => m.chat === a)?.body).toMatch(/^Veja nossa (oferta|promoção)$/);
  });

  it("a CSV's `nome` column is the row's {nome} and {primeiro_nome}; an unknown number's contact is created with that name, a known one keeps its own", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const [a, b, c] = numbers(3);
    await api(t, t.adminToken, "POST", "/contacts", { name: "Carla Cadastro", number: c });
    const csv = `telefone,nome,mensagem\n${a},João da Silva,\n${b},,\n${c},Carla Planilha,Oi {nome}: sua fatura\n`;
    const form = multipart({ whatsappId: String(sim.whatsappId), message: "Olá {primeiro_nome}, sua internet foi reativada" }, [
      { field: "file", name: "clientes.csv", type: "text/csv", data: Buffer.from(csv) },
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/disparos",
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(res.json()).toEqual({ created: 3, cancelled: 0 });
    await drain();
    const got = await received(sim);
    expect(Object.fromEntries(got.map((m) => [m.chat, m.body]))).toEqual({
      [a]: "Olá João, sua internet foi reativada",
      // no name in the row, none known: no gap left
      [b]: "Olá, sua internet foi reativada",
      [c]: "Oi Carla Planilha: sua fatura",
    });
    const names = await t.ctx.db.execute<{ number: string; name: string }>(
      sql`select number, name from contacts where number in (${a}, ${b}, ${c}) order by number`,
    );
    expect(names.rows).toEqual([
      { number: a, name: "João da Silva" },
      { number: b, name: b },
      { number: c, name: "Carla Cadastro" },
    ]);
  });

  it("JSON rows may carry the recipient's `name` for {nome}", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const [a] = numbers(1);
    await create(sim.whatsappId, [{ number: a, name: "Beatriz Souza", message: "Bom dia, {primeiro_nome}!" }]);
    await drain();
    expect((await received(sim)).map((m) => m.body)).toEqual(["Bom dia, Beatriz!"]);
  });

  it("contacts by tag, one message for all", async () => {
    const sim = await pairedSimulator(t);
    const tag = (await api(t, t.adminToken, "POST", "/tags", { name: `vip${seq}`, color: "#123456" })).body;
    const [a, b] = numbers(2);
    for (const n of [a, b]) await api(t, t.adminToken, "POST", "/contacts", { name: `C ${n.slice(-3)}`, number: n, tagIds: [tag.id] });
    await create(sim.whatsappId, [], {
      rows: undefined,
      tagIds: [tag.id],
      message: "Oi {primeiro_nome}",
      startAt: new Date(fake.at() + 86_400_000).toISOString(),
    });
    expect((await rowsOf(sim.whatsappId)).map((r) => r.number).sort()).toEqual([a, b]);
  });

  it("POST /api/disparos with the connection's token (Bearer, X_TOKEN or X-Token); a wrong or missing token is refused", async () => {
    const sim = await pairedSimulator(t);
    await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { token: `tok-${sim.whatsappId}` });
    const rows = [{ number: numbers(1)[0], message: "via API" }];
    const post = (headers: Record<string, string>) => t.app.inject({ method: "POST", url: "/api/disparos", headers, payload: { rows } });
    expect((await post({ authorization: `Bearer tok-${sim.whatsappId}` })).json()).toEqual({ created: 1, cancelled: 0 });
    expect((await post({ x_token: `tok-${sim.whatsappId}` })).json()).toEqual({ created: 1, cancelled: 0 });
    expect((await post({ "x-token": `tok-${sim.whatsappId}` })).json()).toEqual({ created: 1, cancelled: 0 });
    const wrong = await post({ authorization: "Bearer nope" });
    expect([wrong.statusCode, wrong.json()]).toEqual([403, { error: "ERR_INVALID_TOKEN" }]);
    const missing = await post({});
    expect([missing.statusCode, missing.json()]).toEqual([401, { error: "ERR_INVALID_TOKEN" }]);
    // an admin's session token is not a connection token
    expect((await post(bearer(t.adminToken))).statusCode).toBe(403);
    expect((await rowsOf(sim.whatsappId)).map((r) => r.status)).toEqual(["a enviar", "a enviar", "a enviar"]);
    // the same Idempotency-Key answers the first result
    const once = { authorization: `Bearer tok-${sim.whatsappId}`, "idempotency-key": "lote-1" };
    expect((await post(once)).json()).toEqual({ created: 1, cancelled: 0 });
    expect((await post(once)).json()).toEqual({ created: 1, cancelled: 0 });
    expect(await rowsOf(sim.whatsappId)).toHaveLength(4);
  });
});

describe("disparos: monitor and control", () => {
  it("a row left 'enviando' after its message was sent (a crash before the event) is put right by the minute's sweep", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    await create(sim.whatsappId, [{ number: numbers(1)[0], message: "x" }]);
    await drain();
    await until(
      () => statusesOf(sim.whatsappId),
      (s) => s[0] === "enviado",
      "sent",
    );
    await t.ctx.db.execute(sql`update disparos set status = 'enviando', sent_at = null where whatsapp_id = ${sim.whatsappId}`);
    fake.advance(60_000);
    await drain();
    expect(await statusesOf(sim.whatsappId)).toEqual(["enviado"]);
  });

  it("failed sends settled by the minute's sweep before their events count toward the burst: the connection pauses and admins are told", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0 });
    const admin = await socketFor(await listen(t), t.adminToken);
    const adminHears = recorder<{ alert?: { whatsappId: number; reason: string } }>(admin, "disparos:update");
    const bad = numbers(5);
    for (const n of bad) await sim.session.setRefused(n, true);
    await create(
      sim.whatsappId,
      bad.map((n) => ({ number: n, message: "cobrança" })),
    );
    await drain();
    await until(
      () => statusesOf(sim.whatsappId),
      (s) => s.every((x) => x === "com erro"),
      "five errors",
    );
    // the sweep got there first: the rows still 'enviando', the connection's count and pause as before the failures
    await t.ctx.db.execute(sql`update disparos set status = 'enviando', reason = '' where whatsapp_id = ${sim.whatsappId}`);
    await t.ctx.db.execute(
      sql`update disparo_settings set fail_streak = 0, paused = false, paused_reason = '' where whatsapp_id = ${sim.whatsappId}`,
    );
    adminHears.seen.length = 0;
    fake.advance(60_000);
    await drain();
    expect((await rowsOf(sim.whatsappId)).map((r) => [r.status, r.reason])).toEqual(
      bad.map(() => ["com erro", "the number does not receive messages"]),
    );
    expect(await connectionOf(sim.whatsappId)).toMatchObject({ paused: true, pausedReason: "falhas", waiting: "pausado" });
    expect(await adminHears.waitFor((p) => p.alert?.whatsappId === sim.whatsappId)).toMatchObject({ alert: { reason: "falhas" } });
    admin.disconnect();
  });

  it("GET /disparos pages newest first with status and day filters; stats equal the rows; the bulk actions; DELETE removes all", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { paused: true });
    await create(
      sim.whatsappId,
      numbers(30).map((n, i) => ({ number: n, message: `m${i}` })),
    );
    const page = await api(t, t.adminToken, "GET", `/disparos?limit=10&page=2&status=a enviar&whatsappId=${sim.whatsappId}`);
    expect(page.status).toBe(200);
    expect(page.body.page).toBe(2);
    expect(page.body.rows).toHaveLength(10);
    const all = (await api(t, t.adminToken, "GET", `/disparos?limit=200&status=a enviar&whatsappId=${sim.whatsappId}`)).body;
    expect(page.body.totalPages).toBe(Math.ceil(all.rows.length / 10));
    const ids = all.rows.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
    // days as the screen sends them
    const w = wallTime(new Date(fake.at()), SP);
    const day = `${w.year}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
    const today = (
      await api(t, t.adminToken, "GET", `/disparos?limit=200&from=${day}T00:00:00&to=${day}T23:59:59&whatsappId=${sim.whatsappId}`)
    ).body;
    expect(today.rows).toHaveLength(30);
    const yesterday = (await api(t, t.adminToken, "GET", `/disparos?from=2020-01-01T00:00:00&to=2020-01-01T23:59:59`)).body;
    expect(yesterday).toEqual({ rows: [], page: 1, totalPages: 1 });

    const statsEqualRows = async () => {
      const stats = (await api(t, t.adminToken, "GET", "/disparos/stats")).body;
      const { rows } = await t.ctx.db.execute<{ status: string; n: number }>(
        sql`select status, count(*)::int as n from disparos group by status`,
      );
      const counted = { cancelado: 0, "a enviar": 0, "com erro": 0, enviado: 0, enviando: 0 } as Record<string, number>;
      for (const r of rows) counted[r.status] = Number(r.n);
      expect(stats).toEqual(counted);
      return stats;
    };
    await until(
      () => t.ctx.db.execute(sql`select 1 from disparos where status = 'enviando'`).then((r) => r.rows.length),
      (n) => n === 0,
      "nothing in flight",
    );
    const before = await statsEqualRows();
    const cancelled = (await api(t, t.adminToken, "POST", "/disparos/cancel-pending")).body.changed;
    expect(cancelled).toBe(before["a enviar"]);
    const after = await statsEqualRows();
    expect(after["a enviar"]).toBe(0);
    expect(after.cancelado).toBe(before.cancelado + cancelled);
    const errors = after["com erro"];
    expect((await api(t, t.adminToken, "POST", "/disparos/restart-errors")).body.changed).toBe(errors);
    await statsEqualRows();
    expect((await api(t, t.adminToken, "DELETE", "/disparos")).status).toBe(200);
    expect(await statsEqualRows()).toEqual({ cancelado: 0, "a enviar": 0, "com erro": 0, enviado: 0, enviando: 0 });
    expect((await api(t, t.adminToken, "GET", "/disparos")).body).toEqual({ rows: [], page: 1, totalPages: 1 });
  });

  it("deleting a connection takes its rows out of the stats too", async () => {
    const sim = await pairedSimulator(t);
    await setPace(sim.whatsappId, { paused: true });
    const before = (await api(t, t.adminToken, "GET", "/disparos/stats")).body;
    await create(
      sim.whatsappId,
      numbers(4).map((n) => ({ number: n, message: "x" })),
    );
    expect((await api(t, t.adminToken, "GET", "/disparos/stats")).body["a enviar"]).toBe(before["a enviar"] + 4);
    expect((await api(t, t.adminToken, "DELETE", `/whatsapp/${sim.whatsappId}`)).status).toBe(200);
    expect((await api(t, t.adminToken, "GET", "/disparos/stats")).body).toEqual(before);
  });

  it("every call is for admins only: anonymous 401, agents and supervisors 403", async () => {
    const superv = await t.createUser({ name: "Sup", profile: "superv" });
    const calls: ["GET" | "POST" | "PUT" | "DELETE", string, object?][] = [
      ["GET", "/disparos"],
      ["GET", "/disparos/stats"],
      ["POST", "/disparos", { whatsappId: 1, rows: [{ number: "11988880001", message: "x" }] }],
      ["POST", "/disparos/restart-errors"],
      ["POST", "/disparos/cancel-pending"],
      ["DELETE", "/disparos"],
      ["GET", "/disparos/connections"],
      ["PUT", "/disparos/connections/1", { paused: true }],
      ["GET", "/disparos/opt-outs"],
      ["DELETE", "/disparos/opt-outs/1"],
    ];
    for (const [method, url, payload] of calls) {
      const anon = await t.app.inject({ method, url, ...(payload && { payload }) });
      expect([url, anon.statusCode]).toEqual([url, 401]);
      for (const token of [agentToken, superv.token]) {
        const res = await api(t, token, method, url, payload);
        expect([url, res.status, res.body]).toEqual([url, 403, { error: "ERR_NO_PERMISSION" }]);
      }
    }
  });
});
