import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createQueue, listen, pairedSimulator, recorder, type SimConnection, settle, socketFor } from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { anyOpenIncident, forgetOpenLook } from "../src/modules/incidents/service.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * Outage mode (issue 32 §1) and the queue position notice (§2), through the simulator on a fake
 * clock: 200 customers writing at once each get the incident notice once and, after the close,
 * "normalizado" once (an opted-out one none), at the connection's unsolicited pace; the tickets
 * are grouped under the incident, counted on the dashboard and closed in one action; a waiting
 * customer is told their position, at most once every N minutes, and the list shows it.
 */

let t: TestApp;
const fake = fakeClock();
let agent: { id: number; token: string };
let superv: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp({}, { clock: fake.clock });
  agent = await t.createUser({ name: "Ana" });
  superv = await t.createUser({ name: "Sueli", profile: "superv" });
});
afterAll(() => t.teardown());

/** Runs every job due now (and what they queue for now), and sends what the outbox holds. */
async function drain() {
  for (let i = 0; i < 500; i++) {
    const started = await t.jobs.tick();
    await t.jobs.idle();
    await settle(t);
    if (started === 0) break;
  }
  await settle(t);
}

/** Drains until `check` holds (a listener may queue its job just after a drain looked). */
async function drainUntil(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    await drain();
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not reached: ${what}`);
}

/** What each customer's phone received from the connection, by number. */
async function received(sim: SimConnection): Promise<Map<string, string[]>> {
  const { rows } = await t.ctx.db.execute<{ body: string; chat: string }>(
    sql`select body, chat from simulator_messages where whatsapp_id = ${sim.whatsappId} and from_me order by seq`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.chat, [...(out.get(r.chat) ?? []), r.body]);
  return out;
}

const count = (list: string[] | undefined, body: string) => (list ?? []).filter((b) => b === body).length;

const setPace = async (whatsappId: number, body: object) => {
  const res = await api(t, t.adminToken, "PUT", `/disparos/connections/${whatsappId}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

let seq = 0;
const numbers = (n: number) => Array.from({ length: n }, () => `55119600${String(++seq).padStart(5, "0")}`);

describe("outage mode", () => {
  it("opens an incident (admins and supervisors), tells every signed-in socket, refuses agents", async () => {
    const url = await listen(t);
    const socket = await socketFor(url, agent.token);
    const heard = recorder<{ action: string; incident: { id: number; title: string } }>(socket, "incident");
    try {
      const refused = await api(t, agent.token, "POST", "/incidents", { title: "Queda", message: "Estamos sem sinal." });
      expect(refused.status).toBe(403);
      const res = await api(t, superv.token, "POST", "/incidents", {
        title: "Rompimento de fibra no Centro",
        message: "Identificamos uma falha na sua região. Nossa equipe já está trabalhando. Previsão de retorno: 18h.",
        area: "Centro",
        tags: ["Centro", "Jardim América"],
        expectedAt: new Date(fake.at() + 3 * 3600_000).toISOString(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ status: "open", area: "Centro", tags: ["Centro", "Jardim América"], ticketCount: 0 });
      const event = await heard.waitFor((p) => p.action === "create" && p.incident.id === res.body.id);
      expect(event.incident.title).toBe("Rompimento de fibra no Centro");
      const open = await api(t, agent.token, "GET", "/incidents?status=open");
      expect(open.body.map((i: { id: number }) => i.id)).toContain(res.body.id);
      // the banner's texts can change while it is open
      const changed = await api(t, superv.token, "PUT", `/incidents/${res.body.id}`, { area: "Centro e Jardim América" });
      expect(changed.body.area).toBe("Centro e Jardim América");
      await heard.waitFor((p) => p.action === "update" && p.incident.id === res.body.id);
      // it is closed here (no customer wrote): a second close is refused
      const closed = await api(t, superv.token, "POST", `/incidents/${res.body.id}/close`, {});
      expect(closed.body.status).toBe("closed");
      await heard.waitFor((p) => p.action === "close" && p.incident.id === res.body.id);
      const again = await api(t, superv.token, "POST", `/incidents/${res.body.id}/close`, {});
      expect(again.status).toBe(409);
      expect(again.body.error).toBe("ERR_INCIDENT_CLOSED");
      expect((await api(t, superv.token, "POST", "/incidents/999999/close", {})).body.error).toBe("ERR_NO_INCIDENT_FOUND");
    } finally {
      socket.disconnect();
    }
  });

  it("200 customers writing at once: each gets the notice once; on closing each gets 'normalizado' once (opt-out honoured); their tickets close in one action", async () => {
    const queue = await createQueue(t, "Suporte técnico");
    const sim = await pairedSimulator(t, { name: "Suporte", queueIds: [queue] });
    await setPace(sim.whatsappId, { intervalMinMs: 0, intervalMaxMs: 0, pauseEvery: 0 });
    // the queue's supervisor closes (the bulk close follows the single close's rule: tickets the closer sees)
    const superv = await t.createUser({ name: "Sara", profile: "superv", queueIds: [queue] });
    const notice = "Estamos com uma falha de fibra na sua região. Previsão de retorno: 18h. Não é preciso abrir chamado.";
    const opened = await api(t, t.adminToken, "POST", "/incidents", { title: "Fibra rompida", message: notice, area: "Zona Norte" });
    const id = opened.body.id as number;
    const customers = numbers(200);
    // everyone at once, twice each (the second message must not bring a second notice)
    await Promise.all(customers.map((n) => sim.session.customerSend({ number: n, name: `Cliente ${n.slice(-4)}`, body: "sem internet" })));
    await drain();
    await Promise.all(customers.map((n) => sim.session.customerSend({ number: n, body: "alô? continua sem internet" })));
    await drain();
    let phones = await received(sim);
    expect(customers.filter((n) => count(phones.get(n), notice) !== 1)).toEqual([]);

    // grouped under the incident: the filter and its count; the dashboard counts them
    const list = await api(t, t.adminToken, "GET", `/tickets?incidentId=${id}&showAll=true&rowsPerPage=50`);
    expect(list.body.count).toBe(200);
    expect(list.body.tickets.every((tk: { incidentIds: number[] }) => tk.incidentIds.includes(id))).toBe(true);
    const info = await api(t, t.adminToken, "GET", `/incidents/${id}`);
    expect(info.body).toMatchObject({ ticketCount: 200, contactCount: 200 });
    const metrics = await api(t, t.adminToken, "GET", "/metrics?from=2020-01-01&to=2035-12-31");
    expect(metrics.body.incidents.find((i: { id: number }) => i.id === id)).toMatchObject({ tickets: 200, status: "open" });

    // one customer opts out of unsolicited messages before the close
    const quitter = customers[7];
    await sim.session.customerSend({ number: quitter, body: "SAIR" });
    await drain();

    const closed = await api(t, superv.token, "POST", `/incidents/${id}/close`, { closeTickets: true });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.normalized.pending).toBe(200);
    await drain();
    phones = await received(sim);
    const normal = closed.body.closeMessage as string;
    expect(normal).toContain("Fibra rompida");
    expect(customers.filter((n) => n !== quitter && count(phones.get(n), normal) !== 1)).toEqual([]);
    expect(count(phones.get(quitter), normal)).toBe(0);
    // the notice went once more to nobody
    expect(customers.filter((n) => count(phones.get(n), notice) !== 1)).toEqual([]);
    const after = await api(t, t.adminToken, "GET", `/incidents/${id}`);
    expect(after.body.normalized).toEqual({ pending: 0, sent: 199, skipped: 1 });
    // the tickets were closed in the same action (through the state machine: history says who)
    const live = await api(t, t.adminToken, "GET", `/tickets?incidentId=${id}&showAll=true&status=pending`);
    expect(live.body.count).toBe(0);
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`
      select count(*)::int as n from ticket_history h join incident_tickets it on it.ticket_id = h.ticket_id
      where it.incident_id = ${id} and h.to_status = 'closed' and h.actor_user_id = ${superv.id}`);
    expect(rows[0].n).toBe(200);

    // once closed, a customer who writes gets no notice and no link
    const [late] = numbers(1);
    await sim.session.customerSend({ number: late, body: "voltou?" });
    await drain();
    phones = await received(sim);
    expect(count(phones.get(late), notice)).toBe(0);
    expect((await api(t, t.adminToken, "GET", `/incidents/${id}`)).body.ticketCount).toBe(200);
  }, 400_000);

  it("'normalizado': customers whose chat is live get it at once, as a reply; the others at the connection's unsolicited pace, one at a time", async () => {
    const queue = await createQueue(t, "Fila do ritmo");
    const sim = await pairedSimulator(t, { name: "Ritmo", queueIds: [queue] });
    await setPace(sim.whatsappId, { intervalMinMs: 10_000, intervalMaxMs: 10_000, pauseEvery: 0 });
    const opened = await api(t, t.adminToken, "POST", "/incidents", { title: "Queda de energia", message: "Estamos sem energia no POP." });
    const quiet = numbers(3);
    const live = numbers(2);
    for (const n of [...quiet, ...live]) await sim.session.customerSend({ number: n, body: "caiu" });
    await drain();
    // the quiet ones last wrote 25 h ago (their chat is no longer live), the live ones an hour ago
    const age = async (list: string[], hours: number) =>
      t.ctx.db.execute(sql`
        update messages set created_at = ${new Date(fake.at() - hours * 3600_000).toISOString()}::timestamptz
        where not from_me and ticket_id in (select t.id from tickets t join contacts c on c.id = t.contact_id
                                            where t.whatsapp_id = ${sim.whatsappId} and c.number in (${sql.join(
                                              list.map((n) => sql`${n}`),
                                              sql`, `,
                                            )}))`);
    await age(quiet, 25);
    await age(live, 1);
    const closed = await api(t, t.adminToken, "POST", `/incidents/${opened.body.id}/close`, {
      message: "Normalizado! {titulo} resolvida.",
    });
    expect(closed.body.closeMessage).toBe("Normalizado! Queda de energia resolvida.");
    const got = async (list: string[]) => {
      const phones = await received(sim);
      return list.filter((n) => count(phones.get(n), closed.body.closeMessage) === 1).length;
    };
    await drain();
    // the live chats at once (both, within the same second), the quiet ones one every 10 s
    expect(await got(live)).toBe(2);
    expect(await got(quiet)).toBe(1);
    fake.advance(10_000);
    await drain();
    expect(await got(quiet)).toBe(2);
    fake.advance(10_000);
    await drain();
    expect(await got(quiet)).toBe(3);
    expect(await got(live)).toBe(2);
    // the live ones went as replies (not the disparo source), the quiet ones at the bulk priority
    const { rows } = await t.ctx.db.execute<{ number: string; source: string }>(sql`
      select c.number, m.source from incident_contacts ic join messages m on m.id = ic.normal_message_id
      join contacts c on c.id = ic.contact_id where ic.incident_id = ${opened.body.id}`);
    expect(Object.fromEntries(rows.map((r) => [r.number, r.source]))).toEqual(
      Object.fromEntries([...live.map((n) => [n, "bot"]), ...quiet.map((n) => [n, "disparo"])]),
    );
  }, 60_000);

  it("an incident for an area tells only the customers placed in it (billing city, tag, 'Cidade' extra info); 'todos os clientes' tells everyone", async () => {
    const queue = await createQueue(t, "Fila da área");
    const sim = await pairedSimulator(t, { name: "Área", queueIds: [queue] });
    const [byBilling, byTag, byExtra, elsewhere, unplaced] = numbers(5);
    for (const n of [byBilling, byTag, byExtra, elsewhere, unplaced]) await sim.session.customerSend({ number: n, body: "bom dia" });
    await drain();
    const contactOf = async (n: string) =>
      Number((await t.ctx.db.execute<{ id: number }>(sql`select id from contacts where number = ${n}`)).rows[0].id);
    // the billing system's contract (as SGP said when it was linked), a tag, the contact's extra info
    const billingContact = await contactOf(byBilling);
    const { rows: tk } = await t.ctx.db.execute<{ id: number }>(
      sql`select id from tickets where contact_id = ${billingContact} order by id desc limit 1`,
    );
    await t.ctx.db.execute(sql`
      insert into billing_links (ticket_id, contact_id, system, document, contract_id, city, pop)
      values (${tk[0].id}, ${billingContact}, 'SGP', '12345678909', '77', 'São Paulo', 'POP Sé')`);
    const tag = await api(t, t.adminToken, "POST", "/tags", { name: `Centro ${seq}`, color: "#1976d2" });
    expect(tag.status, JSON.stringify(tag.body)).toBe(200);
    await t.ctx.db.execute(sql`insert into contact_tags (contact_id, tag_id) values (${await contactOf(byTag)}, ${tag.body.id})`);
    await t.ctx.db.execute(
      sql`insert into contact_extra_info (contact_id, name, value) values (${await contactOf(byExtra)}, 'Cidade', 'sao paulo ')`,
    );
    await t.ctx.db.execute(
      sql`insert into contact_extra_info (contact_id, name, value) values (${await contactOf(elsewhere)}, 'Cidade', 'Campinas')`,
    );

    const expectedAt = Date.UTC(2026, 10, 23, 21, 0);
    const area = await api(t, t.adminToken, "POST", "/incidents", {
      title: "Fibra rompida no Centro",
      message: "Falha em {area}: {titulo}. Previsão de retorno: {previsao}.",
      area: "Centro / São Paulo",
      audience: "area",
      cities: ["São Paulo"],
      tags: [tag.body.name],
      expectedAt: new Date(expectedAt).toISOString(),
    });
    expect(area.status, JSON.stringify(area.body)).toBe(200);
    expect(area.body).toMatchObject({ audience: "area", cities: ["São Paulo"], pops: [], tags: [tag.body.name] });
    for (const n of [byBilling, byTag, byExtra, elsewhere, unplaced]) await sim.session.customerSend({ number: n, body: "sem internet" });
    await drain();
    let phones = await received(sim);
    const areaNotice = (list: string[] | undefined) => (list ?? []).filter((b) => b.startsWith("Falha em"));
    // {previsao}: the expected return in the installation's zone (São Paulo: 18:00), {area}, {titulo}
    expect(areaNotice(phones.get(byBilling))).toHaveLength(1);
    expect(areaNotice(phones.get(byBilling))[0]).toMatch(
      /^Falha em Centro \/ São Paulo: Fibra rompida no Centro\. Previsão de retorno: 23\/11(\/2026)? às 18:00\.$/,
    );
    expect(areaNotice(phones.get(byTag))).toHaveLength(1);
    expect(areaNotice(phones.get(byExtra))).toHaveLength(1);
    expect(areaNotice(phones.get(elsewhere))).toEqual([]);
    expect(areaNotice(phones.get(unplaced))).toEqual([]);
    expect((await api(t, t.adminToken, "GET", `/incidents/${area.body.id}`)).body).toMatchObject({ contactCount: 3, ticketCount: 3 });

    // "todos os clientes": everyone who writes, placed or not; no expected return: "sem previsão"
    const all = await api(t, t.adminToken, "POST", "/incidents", {
      title: "Instabilidade geral",
      message: "Instabilidade geral. Previsão: {previsao}.",
      audience: "all",
    });
    expect(all.body.audience).toBe("all");
    for (const n of [elsewhere, unplaced]) await sim.session.customerSend({ number: n, body: "e agora?" });
    await drain();
    phones = await received(sim);
    expect(count(phones.get(elsewhere), "Instabilidade geral. Previsão: sem previsão.")).toBe(1);
    expect(count(phones.get(unplaced), "Instabilidade geral. Previsão: sem previsão.")).toBe(1);
    expect(areaNotice(phones.get(unplaced))).toEqual([]);
    await api(t, t.adminToken, "POST", `/incidents/${area.body.id}/close`, {});
    await api(t, t.adminToken, "POST", `/incidents/${all.body.id}/close`, {});
    await drain();
  }, 60_000);

  it("refuses unknown variables in the notice and the 'normalizado' (400 naming them), and an area without cities, POPs or tags", async () => {
    const bad = await api(t, t.adminToken, "POST", "/incidents", {
      title: "Queda",
      message: "Volta {amanha} às {hora}; {previsao} ok",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
    expect(bad.body.fields.message[0]).toContain("{amanha}");
    expect(bad.body.fields.message[0]).toContain("{hora}");
    expect(bad.body.fields.message[0]).toMatch(/^Unknown variables: \{amanha\}, \{hora\} /);
    const empty = await api(t, t.adminToken, "POST", "/incidents", { title: "Queda", message: "Sem sinal.", audience: "area" });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("ERR_VALIDATION");
    const ok = await api(t, t.adminToken, "POST", "/incidents", { title: "Queda X", message: "{titulo} em {area}: {previsao}" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const put = await api(t, t.adminToken, "PUT", `/incidents/${ok.body.id}`, { message: "Nova {previsão}" });
    expect(put.status).toBe(400);
    expect(put.body.fields.message[0]).toContain("{previsão}");
    const close = await api(t, t.adminToken, "POST", `/incidents/${ok.body.id}/close`, { message: "Ok {nome}" });
    expect(close.status).toBe(400);
    expect(close.body.fields.message[0]).toContain("{nome}");
    expect((await api(t, t.adminToken, "POST", `/incidents/${ok.body.id}/close`, {})).status).toBe(200);
  });
});

describe("queue position and expected wait", () => {
  it("three customers wait: each is told their position on entering; the list shows 1, 2, 3; one is taken and the others move up; a new message tells again only after N minutes", async () => {
    const queue = await createQueue(t, "Financeiro");
    const put = await api(t, t.adminToken, "PUT", `/queue/${queue}`, { positionNotice: { enabled: true, everyMinutes: 10 } });
    expect(put.body.positionNotice).toEqual({ enabled: true, everyMinutes: 10 });
    const sim = await pairedSimulator(t, { name: "Financeiro WA", queueIds: [queue] });
    const agentF = await t.createUser({ name: "Fábio", queueIds: [queue] });
    const [a, b, c] = numbers(3);
    const told = async (n: string) => ((await received(sim)).get(n) ?? []).filter((m) => m.startsWith("Você é o"));
    for (const n of [a, b, c]) {
      await sim.session.customerSend({ number: n, body: "quero falar com o financeiro" });
      await drainUntil(async () => (await told(n)).length === 1, `${n} told`);
    }
    let phones = await received(sim);
    expect(phones.get(a)).toContain("Você é o 1º da fila Financeiro. Em breve um atendente vai falar com você.");
    expect(phones.get(b)).toContain("Você é o 2º da fila Financeiro. Em breve um atendente vai falar com você.");
    expect(phones.get(c)).toContain("Você é o 3º da fila Financeiro. Em breve um atendente vai falar com você.");

    const positions = async () => {
      const res = await api(t, agentF.token, "GET", `/tickets?status=pending&queueIds=${queue}`);
      return Object.fromEntries(
        (res.body.tickets as { contact: { number: string }; queuePosition: number | null }[]).map((tk) => [
          tk.contact.number,
          tk.queuePosition,
        ]),
      );
    };
    expect(await positions()).toEqual({ [a]: 1, [b]: 2, [c]: 3 });

    // the agent takes the first one and answers it: the others move up
    const list = await api(t, agentF.token, "GET", `/tickets?status=pending&queueIds=${queue}`);
    const first = list.body.tickets.find((tk: { contact: { number: string } }) => tk.contact.number === a);
    const took = await api(t, agentF.token, "PUT", `/tickets/${first.id}`, { status: "open", userId: agentF.id });
    expect(took.status, JSON.stringify(took.body)).toBe(200);
    fake.advance(120_000);
    expect((await api(t, agentF.token, "POST", `/messages/${first.id}`, { body: "Olá, sou o Fábio." })).status).toBe(200);
    await drain();
    expect(await positions()).toEqual({ [b]: 1, [c]: 2 });

    // c writes again within the 10 minutes: its position job runs and sends nothing
    const cTicket = (await api(t, agentF.token, "GET", `/tickets?status=pending&queueIds=${queue}`)).body.tickets.find(
      (tk: { contact: { number: string } }) => tk.contact.number === c,
    ).id as number;
    const jobsDone = async () =>
      (
        await t.ctx.db.execute<{ n: number }>(
          sql`select count(*)::int as n from jobs where name = 'queues.position' and state = 'done' and (payload->>'ticketId')::int = ${cTicket}`,
        )
      ).rows[0].n;
    const before = await jobsDone();
    await sim.session.customerSend({ number: c, body: "ainda estou aqui" });
    await drainUntil(async () => (await jobsDone()) === before + 1, "the position job of c's new message ran");
    phones = await received(sim);
    expect((phones.get(c) ?? []).filter((m) => m.startsWith("Você é o"))).toHaveLength(1);
    // past the 10 minutes: told again, with the estimate from the queue's first response times
    fake.advance(11 * 60_000);
    await sim.session.customerSend({ number: c, body: "e agora?" });
    await drainUntil(async () => (await told(c)).length === 2, "told again");
    expect((await told(c))[1]).toMatch(/^Você é o 2º da fila Financeiro\. Tempo estimado de espera: cerca de \d+ min\.$/);
  }, 60_000);

  it("a customer of an agent's ticket writes during an outage: the notice's step gets the safety net (a crash before it runs still tells them); none once it is closed", async () => {
    const queue = await createQueue(t, "Atendimento em outage");
    const sim = await pairedSimulator(t, { name: "Outage WA", queueIds: [queue] });
    const [n] = numbers(1);
    await sim.session.customerSend({ number: n, name: "Cliente Ag", body: "bom dia" });
    await drain();
    const ticketId = (await api(t, t.adminToken, "GET", `/tickets?status=pending&queueIds=${queue}&showAll=true`)).body.tickets[0]
      .id as number;
    const taken = await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { status: "open", userId: agent.id });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    // what the inbound pipeline stores as the bot steps' safety net (a job due a minute later, deleted once the steps ran)
    await t.ctx.db.execute(sql`create table test_bot_jobs (message_id bigint)`);
    await t.ctx.db.execute(sql`
      create function test_seen_bot_job() returns trigger language plpgsql as $$
      begin
        if new.name = 'bots.inbound' then insert into test_bot_jobs values ((new.payload->>'messageId')::bigint); end if;
        return new;
      end $$`);
    await t.ctx.db.execute(sql`create trigger test_seen_bot_job after insert on jobs for each row execute function test_seen_bot_job()`);
    const lastCustomerMessage = async () =>
      Number(
        (await t.ctx.db.execute<{ id: number }>(sql`select max(id) as id from messages where ticket_id = ${ticketId} and not from_me`))
          .rows[0].id,
      );
    const netFor = async (messageId: number) =>
      (await t.ctx.db.execute(sql`select 1 from test_bot_jobs where message_id = ${messageId}`)).rows.length;
    try {
      // no outage: a message of an agent's ticket has no bot to run, so no safety net (and no statement for it)
      await sim.session.customerSend({ number: n, body: "tem alguém aí?" });
      await drain();
      expect(await netFor(await lastCustomerMessage())).toBe(0);

      const notice = "Falha de energia no POP Centro. Previsão: 20h.";
      const opened = await api(t, t.adminToken, "POST", "/incidents", { title: "Energia", message: notice });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      await sim.session.customerSend({ number: n, body: "caiu a internet" });
      await drain();
      expect(await netFor(await lastCustomerMessage())).toBe(1);
      expect(count((await received(sim)).get(n), notice)).toBe(1);
      // the ticket stays the agent's: the notice is the only bot message
      expect((await api(t, t.adminToken, "GET", `/tickets/${ticketId}`)).body).toMatchObject({ userId: agent.id, status: "open" });

      const closed = await api(t, t.adminToken, "POST", `/incidents/${opened.body.id}/close`, { closeTickets: false });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      await drain();
      await sim.session.customerSend({ number: n, body: "voltou, obrigado" });
      await drain();
      expect(await netFor(await lastCustomerMessage())).toBe(0);
    } finally {
      await t.ctx.db.execute(sql`drop trigger test_seen_bot_job on jobs`);
      await t.ctx.db.execute(sql`drop function test_seen_bot_job()`);
      await t.ctx.db.execute(sql`drop table test_bot_jobs`);
    }
  });

  it("is off by default: a queue that does not tell positions sends nothing", async () => {
    const queue = await createQueue(t, "Comercial");
    expect((await api(t, t.adminToken, "GET", `/queue/${queue}`)).body.positionNotice).toEqual({ enabled: false, everyMinutes: 10 });
    const sim = await pairedSimulator(t, { name: "Comercial WA", queueIds: [queue] });
    const [n] = numbers(1);
    await sim.session.customerSend({ number: n, body: "oi" });
    await drain();
    expect(((await received(sim)).get(n) ?? []).filter((m) => m.startsWith("Você é o"))).toEqual([]);
    const res = await api(t, t.adminToken, "GET", `/tickets?status=pending&queueIds=${queue}&showAll=true`);
    expect(res.body.tickets[0].queuePosition).toBe(1);
  });
});

describe("whether an incident is open, asked by every customer message", () => {
  it("the messages that ask together share one read; a change heard meanwhile is not answered by the read from before it", async () => {
    const reads = () => {
      let n = 0;
      const off = t.ctx.database.onQuery((q) => {
        if (/from incidents where status = 'open' limit 1/.test(q)) n++;
      });
      return { count: () => n, off };
    };
    forgetOpenLook(t.ctx);
    const heard = reads();
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => anyOpenIncident(t.ctx)));
      expect(new Set(answers).size).toBe(1);
      expect(heard.count()).toBe(1);
      // within the look's time: none
      await anyOpenIncident(t.ctx);
      expect(heard.count()).toBe(1);

      // an incident opened: the change is heard, the next look reads and sees it
      const res = await api(t, superv.token, "POST", "/incidents", {
        title: "Fibra rompida no centro",
        message: "Estamos sem sinal na região.",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await anyOpenIncident(t.ctx)).toBe(true);
      expect(heard.count()).toBe(2);
      // a change heard while a read is in flight: the looks after it do not take that read's answer
      forgetOpenLook(t.ctx);
      const before = anyOpenIncident(t.ctx);
      forgetOpenLook(t.ctx);
      const after = anyOpenIncident(t.ctx);
      await Promise.all([before, after]);
      expect(heard.count()).toBe(4);
      expect((await api(t, superv.token, "POST", `/incidents/${res.body.id}/close`, {})).body.status).toBe("closed");
      expect(await anyOpenIncident(t.ctx)).toBe(false);
    } finally {
      heard.off();
    }
  });
});
