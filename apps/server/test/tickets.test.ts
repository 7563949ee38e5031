import { PAGE_SIZE } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAutoClose } from "../src/modules/tickets/auto-close.js";
import { loadTickets } from "../src/modules/tickets/queries.js";
import { api, createQueue, customerSays, pairedSimulator, phoneOf, settle, type SimConnection } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let support: number;
let billing: number;
let simSupport: SimConnection;
let simBilling: SimConnection;
let agent: { id: number; token: string };
let other: { id: number; token: string };
let superv: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp();
  support = await createQueue(t, "Suporte");
  billing = await createQueue(t, "Financeiro");
  agent = await t.createUser({ name: "Ana", queueIds: [support] });
  other = await t.createUser({ name: "Beto", queueIds: [support] });
  superv = await t.createUser({ name: "Sueli", profile: "superv", queueIds: [support] });
});
afterAll(() => t.teardown());

let n = 0;
/** A pending ticket from a new customer on the connection of that queue. */
async function pendingTicket(sim: SimConnection, body = "oi"): Promise<{ id: number; number: string }> {
  const number = `55119100${String(++n).padStart(5, "0")}`;
  await customerSays(t, sim, number, body, { name: `Cliente ${n}` });
  const res = await t.ctx.db.execute<{ id: number }>(
    sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ${number} and t.status <> 'closed'`,
  );
  return { id: res.rows[0].id, number };
}

describe("POST /tickets", () => {
  it("without any connection answers ERR_NO_DEF_WAPP_FOUND", async () => {
    const contact = await api(t, t.adminToken, "POST", "/contacts", { name: "Sem Conexão", number: "5511955550000" });
    const res = await api(t, t.adminToken, "POST", "/tickets", { contactId: contact.body.id, status: "open" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "ERR_NO_DEF_WAPP_FOUND" });
  });

  it("opens a ticket on the default connection for the current user; a second one is ERR_OTHER_OPEN_TICKET", async () => {
    simSupport = await pairedSimulator(t, { name: "Suporte WA", queueIds: [support] });
    simBilling = await pairedSimulator(t, { name: "Financeiro WA", queueIds: [billing] });
    const contact = await api(t, t.adminToken, "POST", "/contacts", { name: "Carla", number: "5511955550001" });
    const res = await api(t, agent.token, "POST", "/tickets", {
      contactId: contact.body.id,
      queueId: support,
      userId: agent.id,
      status: "open",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "open",
      userId: agent.id,
      queueId: support,
      whatsappId: simSupport.whatsappId,
      contact: { name: "Carla" },
    });
    const again = await api(t, other.token, "POST", "/tickets", { contactId: contact.body.id, queueId: support, status: "open" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "ERR_OTHER_OPEN_TICKET" });
  });

  it("two simultaneous opens: one ticket, the other ERR_OTHER_OPEN_TICKET", async () => {
    const contact = await api(t, t.adminToken, "POST", "/contacts", { name: "Dani", number: "5511955550002" });
    const results = await Promise.all(
      [agent, other].map((u) => api(t, u.token, "POST", "/tickets", { contactId: contact.body.id, queueId: support, status: "open" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("an agent cannot open a ticket in a queue they are not in, nor for someone else", async () => {
    const contact = await api(t, t.adminToken, "POST", "/contacts", { name: "Edu", number: "5511955550003" });
    expect((await api(t, agent.token, "POST", "/tickets", { contactId: contact.body.id, queueId: billing })).body).toEqual({
      error: "ERR_NO_PERMISSION",
    });
    expect((await api(t, agent.token, "POST", "/tickets", { contactId: contact.body.id, userId: other.id })).body).toEqual({
      error: "ERR_NO_PERMISSION",
    });
    expect((await api(t, agent.token, "POST", "/tickets", { contactId: 999999 })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    expect((await api(t, agent.token, "POST", "/tickets", { contactId: "x" })).status).toBe(400);
  });
});

describe("PUT /tickets/:id transitions", () => {
  it("accept: pending → open, owned by the current user, with the queue chosen in the modal", async () => {
    const tk = await pendingTicket(simSupport);
    const res = await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open", userId: agent.id, queueId: support });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "open",
      userId: agent.id,
      user: { id: agent.id, name: "Ana" },
      queueId: support,
      transf: false,
    });
  });

  it("close (Finalizar) sends the connection's farewell; reopen makes it the current user's again", async () => {
    const sim = await pairedSimulator(t, { name: "Despedida", queueIds: [support], farewellMessage: "Obrigado pelo contato!" });
    const tk = await pendingTicket(sim);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    const closed = await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "closed", userId: agent.id });
    expect(closed.body).toMatchObject({ status: "closed", userId: agent.id });
    await settle(t);
    expect((await phoneOf(sim, tk.number)).filter((m) => m.fromMe).map((m) => m.body)).toEqual(["Obrigado pelo contato!"]);
    const reopened = await api(t, other.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    expect(reopened.body).toMatchObject({ status: "open", userId: other.id });
  });

  it("reopening while the contact has another live ticket is ERR_OTHER_OPEN_TICKET", async () => {
    const tk = await pendingTicket(simSupport);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "closed" });
    await t.ctx.db.execute(sql`update tickets set updated_at = now() - interval '3 hours' where id = ${tk.id}`);
    await customerSays(t, simSupport, tk.number, "novo assunto");
    const res = await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "ERR_OTHER_OPEN_TICKET" });
  });

  it("transfer to a user sets the user and transf", async () => {
    const tk = await pendingTicket(simSupport);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    const res = await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { userId: other.id, transf: true });
    expect(res.body).toMatchObject({ status: "open", userId: other.id, queueId: support, transf: true });
  });

  it("transfer to a queue: pending, no user, that queue, transf", async () => {
    const tk = await pendingTicket(simSupport);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    const res = await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { queueId: billing, status: "pending", userId: null, transf: true });
    expect(res.body).toMatchObject({ status: "pending", userId: null, queueId: billing, transf: true });
    // the agent is not in that queue any more: the ticket is out of their reach
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body).toEqual({ error: "ERR_NO_PERMISSION" });
  });

  it("transfer to a user and a queue together", async () => {
    const tk = await pendingTicket(simSupport);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    const res = await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { userId: other.id, queueId: billing, transf: true });
    expect(res.body).toMatchObject({ status: "open", userId: other.id, queueId: billing, transf: true });
  });

  it("an agent cannot act on another agent's open ticket; a supervisor can", async () => {
    const tk = await pendingTicket(simSupport);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    const res = await api(t, other.token, "PUT", `/tickets/${tk.id}`, { status: "closed" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api(t, superv.token, "PUT", `/tickets/${tk.id}`, { status: "closed" })).body).toMatchObject({ status: "closed" });
  });

  it("tickets of other queues are refused: read, update, messages", async () => {
    const tk = await pendingTicket(simBilling);
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).status).toBe(403);
    expect((await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api(t, agent.token, "GET", `/messages/${tk.id}`)).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "oi" })).body).toEqual({ error: "ERR_NO_PERMISSION" });
  });

  it("unknown targets and bad input are refused", async () => {
    const tk = await pendingTicket(simSupport);
    expect((await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { userId: 999999, transf: true })).body).toEqual({
      error: "ERR_NO_USER_FOUND",
    });
    expect((await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { queueId: 999999, status: "pending" })).body).toEqual({
      error: "ERR_NO_QUEUE_FOUND",
    });
    expect((await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "archived" })).status).toBe(400);
    expect((await api(t, agent.token, "PUT", "/tickets/999999", { status: "open" })).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
  });
});

describe("DELETE /tickets/:id and tags", () => {
  it("only admins delete tickets", async () => {
    const tk = await pendingTicket(simSupport);
    expect((await api(t, superv.token, "DELETE", `/tickets/${tk.id}`)).status).toBe(403);
    expect((await api(t, t.adminToken, "DELETE", `/tickets/${tk.id}`)).status).toBe(200);
    expect((await api(t, t.adminToken, "GET", `/tickets/${tk.id}`)).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
  });

  it("tags are added and removed", async () => {
    const tk = await pendingTicket(simSupport);
    const tag = await api(t, t.adminToken, "POST", "/tags", { name: "VIP", color: "#ff0000" });
    const added = await api(t, agent.token, "POST", `/tickets/${tk.id}/tags`, { tagId: tag.body.id });
    expect(added.body.tags).toEqual([{ id: tag.body.id, name: "VIP", color: "#ff0000" }]);
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}/tags`)).body).toEqual([{ id: tag.body.id, name: "VIP", color: "#ff0000" }]);
    const removed = await api(t, agent.token, "DELETE", `/tickets/${tk.id}/tags/${tag.body.id}`);
    expect(removed.body.tags).toEqual([]);
    expect((await api(t, agent.token, "POST", `/tickets/${tk.id}/tags`, { tagId: 999999 })).body).toEqual({ error: "ERR_NO_TAG_FOUND" });
  });
});

describe("GET /tickets", () => {
  let mine: number;
  let waiting: number;
  let othersOpen: number;
  let otherQueue: number;

  beforeAll(async () => {
    const a = await pendingTicket(simSupport, "preciso de ajuda com a fibra");
    await api(t, agent.token, "PUT", `/tickets/${a.id}`, { status: "open" });
    mine = a.id;
    waiting = (await pendingTicket(simSupport, "internet caiu")).id;
    const o = await pendingTicket(simSupport, "boleto");
    await api(t, other.token, "PUT", `/tickets/${o.id}`, { status: "open" });
    othersOpen = o.id;
    otherQueue = (await pendingTicket(simBilling, "segunda via zebrada")).id;
  });

  const ids = (body: { tickets: { id: number }[] }) => body.tickets.map((x) => x.id);

  it("an agent's open list holds their own tickets; pending holds the waiting ones of their queues", async () => {
    const open = await api(t, agent.token, "GET", "/tickets?status=open");
    expect(ids(open.body)).toContain(mine);
    expect(ids(open.body)).not.toContain(othersOpen);
    const pending = await api(t, agent.token, "GET", "/tickets?status=pending");
    expect(ids(pending.body)).toContain(waiting);
    expect(ids(pending.body)).not.toContain(otherQueue);
    for (const x of pending.body.tickets) expect(x.status).toBe("pending");
  });

  it("showAll is for admins and supervisors; supervisors still only see their queues", async () => {
    const asAgent = await api(t, agent.token, "GET", "/tickets?status=open&showAll=true");
    expect(ids(asAgent.body)).not.toContain(othersOpen);
    const asSuperv = await api(t, superv.token, "GET", "/tickets?status=open&showAll=true");
    expect(ids(asSuperv.body)).toEqual(expect.arrayContaining([mine, othersOpen]));
    const supervPending = await api(t, superv.token, "GET", "/tickets?status=pending&showAll=true");
    expect(ids(supervPending.body)).not.toContain(otherQueue);
    const asAdmin = await api(t, t.adminToken, "GET", "/tickets?status=pending&showAll=true");
    expect(ids(asAdmin.body)).toEqual(expect.arrayContaining([waiting, otherQueue]));
  });

  it("newest first, paginated with count and hasMore; rowsPerPage is capped by the server", async () => {
    const all = await api(t, t.adminToken, "GET", "/tickets?showAll=true&status=pending&rowsPerPage=10000");
    expect(all.status).toBe(200);
    expect(all.body.tickets.length).toBeLessThanOrEqual(PAGE_SIZE.tickets.max);
    const times = all.body.tickets.map((x: { updatedAt: string }) => x.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const p1 = await api(t, t.adminToken, "GET", "/tickets?showAll=true&status=pending&rowsPerPage=2&pageNumber=1");
    const p2 = await api(t, t.adminToken, "GET", "/tickets?showAll=true&status=pending&rowsPerPage=2&pageNumber=2");
    expect(p1.body.count).toBe(all.body.count);
    expect(p1.body.hasMore).toBe(all.body.count > 2);
    expect(ids(p1.body)).toEqual(ids(all.body).slice(0, 2));
    expect(ids(p2.body)).toEqual(ids(all.body).slice(2, 4));
    // the last page has nothing more; a page past the end is empty and still carries the count
    const pages = Math.ceil(all.body.count / 2);
    const last = await api(t, t.adminToken, "GET", `/tickets?showAll=true&status=pending&rowsPerPage=2&pageNumber=${pages}`);
    expect(last.body.hasMore).toBe(false);
    expect(ids(last.body)).toEqual(ids(all.body).slice((pages - 1) * 2));
    const past = await api(t, t.adminToken, "GET", `/tickets?showAll=true&status=pending&rowsPerPage=2&pageNumber=${pages + 1}`);
    expect(past.body).toEqual({ tickets: [], count: all.body.count, hasMore: false });
  });

  it("search matches contact name, number and message bodies, within what the user may see", async () => {
    const byBody = await api(t, t.adminToken, "GET", "/tickets?searchParam=FIBRA&showAll=true");
    expect(ids(byBody.body)).toEqual([mine]);
    const byName = await api(t, t.adminToken, "GET", `/tickets?searchParam=${encodeURIComponent("Cliente")}&showAll=true&rowsPerPage=200`);
    expect(ids(byName.body)).toEqual(expect.arrayContaining([mine, waiting, othersOpen, otherQueue]));
    const number = (await api(t, t.adminToken, "GET", `/tickets/${waiting}`)).body.contact.number as string;
    const byNumber = await api(t, t.adminToken, "GET", `/tickets?searchParam=${number.slice(-6)}&showAll=true`);
    expect(ids(byNumber.body)).toContain(waiting);
    const twoLetters = await api(t, t.adminToken, "GET", "/tickets?searchParam=ze&showAll=true");
    expect(ids(twoLetters.body)).toContain(otherQueue);
    const hidden = await api(t, agent.token, "GET", "/tickets?searchParam=zebrada");
    expect(ids(hidden.body)).toEqual([]);
    const literal = await api(t, t.adminToken, "GET", "/tickets?searchParam=%25&showAll=true");
    expect(ids(literal.body)).toEqual([]);
  });

  it("filters: queueIds, withUnreadMessages, date, bad queueIds", async () => {
    const byQueue = await api(
      t,
      t.adminToken,
      "GET",
      `/tickets?showAll=true&queueIds=${encodeURIComponent(JSON.stringify([billing]))}&rowsPerPage=200`,
    );
    for (const x of byQueue.body.tickets) expect([billing, null]).toContain(x.queueId);
    expect(ids(byQueue.body)).toContain(otherQueue);
    await api(t, agent.token, "GET", `/messages/${waiting}`);
    const unread = await api(t, t.adminToken, "GET", "/tickets?showAll=true&withUnreadMessages=true&rowsPerPage=200");
    expect(ids(unread.body)).not.toContain(waiting);
    expect(ids(unread.body)).toContain(otherQueue);
    const created = (await api(t, t.adminToken, "GET", `/tickets/${waiting}`)).body.createdAt as string;
    // the day the ticket was created on in the product's zone (São Paulo by default)
    const local = new Date(created).toLocaleDateString("sv-SE", { timeZone: "America/Sao_Paulo" });
    expect(ids((await api(t, t.adminToken, "GET", `/tickets?showAll=true&date=${local}&rowsPerPage=200`)).body)).toContain(waiting);
    expect((await api(t, t.adminToken, "GET", "/tickets?showAll=true&date=2001-01-01")).body.tickets).toEqual([]);
    expect((await api(t, t.adminToken, "GET", "/tickets?queueIds=abc")).status).toBe(400);
  });

  it("date: a day or an ISO date-time (the original dashboard's), read as a local day in the product's zone", async () => {
    const late = await pendingTicket(simSupport, "tarde da noite");
    // 23:30 on 22 Nov in São Paulo is already 23 Nov in UTC
    await t.ctx.db.execute(sql`update tickets set created_at = '2026-11-23T02:30:00Z' where id = ${late.id}`);
    const day = async (date: string) => {
      const res = await api(t, t.adminToken, "GET", `/tickets?showAll=true&rowsPerPage=200&date=${encodeURIComponent(date)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return ids(res.body);
    };
    expect(await day("2026-11-22")).toContain(late.id);
    expect(await day("2026-11-23")).not.toContain(late.id);
    // what the original client sends: 21:06 on 22 Nov in São Paulo
    expect(await day("2026-11-23T00:06:20.919Z")).toContain(late.id);
    expect(await day("2026-11-22T23:59:00-03:00")).toContain(late.id);
    expect(await day("2026-11-23T09:00:00")).not.toContain(late.id);
    expect((await api(t, t.adminToken, "GET", "/tickets?date=2026-02-30")).status).toBe(400);
    expect((await api(t, t.adminToken, "GET", "/tickets?date=ontem")).status).toBe(400);
  });

  it("the lists are served by the ticket indexes: EXPLAIN of the statements the service really sends", async () => {
    await t.ctx.database.exec("analyze");
    /** the statements a request makes, as Drizzle sent them, with their parameters */
    const captured = async (url: string, token = t.adminToken) => {
      const seen: { sql: string; params: unknown[] }[] = [];
      const off = t.ctx.database.onQuery((q, params) => seen.push({ sql: q, params }));
      try {
        expect((await api(t, token, "GET", url)).status).toBe(200);
      } finally {
        off();
      }
      return seen;
    };
    const plan = async (s: { sql: string; params: unknown[] }) => {
      await t.ctx.database.exec("set enable_seqscan = off");
      try {
        const rows = await t.ctx.database.query<{ "QUERY PLAN": string }>(`explain ${s.sql}`, s.params);
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      } finally {
        await t.ctx.database.exec("set enable_seqscan = on");
      }
    };
    /** the page's ids are the walk of an index in its order: a Limit right over an Index (Only) Scan, no Sort between */
    const walks = (p: string, index: string) => new RegExp(`Limit[^\\n]*\\n\\s*->\\s+Index (Only )?Scan[^\\n]* using ${index}`).test(p);

    const openStatements = await captured("/tickets?status=open&showAll=true&pageNumber=1");
    const open = openStatements.find((s) => /from "tickets"/.test(s.sql) && /order by/i.test(s.sql) && /limit/i.test(s.sql));
    expect(open).toBeDefined();
    const openPlan = await plan(open as { sql: string; params: unknown[] });
    expect(walks(openPlan, "tickets_status_updated_idx"), openPlan).toBe(true);
    // the same statement hydrates the page by its ids (one round trip for the page, its count and its tickets); the failed
    // mark of the previews reads the small partial index, never every message
    expect(openStatements.map((s) => s.sql).filter((q) => /tickets/.test(q))).toEqual([open?.sql]);
    expect(open?.sql).toMatch(/from unnest\(page\.ids/);
    expect(openPlan).not.toContain("Seq Scan on messages");

    // a waiting ticket's place in its queue: the list reads each queue's waiting line once (kept by the process
    // until a ticket changes), walking its partial index in order — nothing sorted
    t.ctx.events.publish("tickets.changed", { ticketIds: [] });
    const waitingList = await captured("/tickets?status=pending&showAll=true&pageNumber=1");
    const line = waitingList.find((s) => /from tickets t\s+where t\.queue_id = /.test(s.sql));
    expect(line, "the pending list holds a waiting ticket, whose queue's line is read").toBeDefined();
    const linePlan = await plan(line as { sql: string; params: unknown[] });
    expect(linePlan).toMatch(/^Index (Only )?Scan using tickets_waiting_idx/);
    // one ticket alone (a socket payload, the customer's notice) is placed by SQL on the same index, one walk of its queue
    const one = await captured(
      `/tickets/${(await api(t, t.adminToken, "GET", "/tickets?status=pending&showAll=true")).body.tickets[0].id}`,
    );
    const positions = one.find((s) => /row_number\(\)/.test(s.sql));
    expect(positions).toBeDefined();
    const positionsPlan = await plan(positions as { sql: string; params: unknown[] });
    // the line is numbered straight off the index's order: its WindowAgg right over the index scan (PostgreSQL 17 names the window between), no Sort
    expect(
      /WindowAgg[^\n]*\n(\s+[^\s-][^\n]*\n)*\s*->\s+Index (Only )?Scan[^\n]* using tickets_waiting_idx/.test(positionsPlan),
      positionsPlan,
    ).toBe(true);

    const page = (await captured(`/messages/${(await api(t, t.adminToken, "GET", "/tickets?showAll=true")).body.tickets[0].id}`)).find(
      (s) => /from messages m\b/.test(s.sql) && /limit/i.test(s.sql),
    );
    expect(page).toBeDefined();
    const pagePlan = await plan(page as { sql: string; params: unknown[] });
    // the page is the index's walk, joined row by row to its authors and quotes, and its count reads the same
    // index: nothing sorted, no message read past the ticket's own
    expect(pagePlan).toContain("Index Scan using messages_ticket_created_idx");
    expect(pagePlan).not.toContain("Sort");
    expect(pagePlan).not.toContain("Seq Scan on messages");
  });
});

describe("GET /tickets search over many tickets", () => {
  it("finds matches past the first windows (2-letter walk, 3+ letters by trigram) and pages without repeats", async () => {
    const wid = simSupport.whatsappId;
    await t.ctx.database.exec(`
      insert into contacts (name, number) select 'Massa ' || g, '5599' || lpad(g::text, 8, '0') from generate_series(1, 4500) g;
      insert into tickets (status, contact_id, whatsapp_id, queue_id, updated_at, closed_at)
        select 'closed', c.id, ${wid}, ${support}, now() - make_interval(days => 30, secs => (c.number::bigint % 100000)::int), now()
        from contacts c where c.number like '5599%';
      insert into messages (whatsapp_id, body, ticket_id, created_at)
        select ${wid}, case when c.number = '559900000001' then 'um raríssimo qj aqui' else 'texto comum de número ' || c.number end, t.id, t.updated_at
        from tickets t join contacts c on c.id = t.contact_id where c.number like '5599%';
      analyze;`);
    const oldest = await t.ctx.db.execute<{ id: number }>(
      sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = '559900000001'`,
    );
    const target = oldest.rows[0].id;
    const rare3 = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${encodeURIComponent("RARÍSSIMO")}`);
    expect(rare3.body.tickets.map((x: { id: number }) => x.id)).toEqual([target]);
    expect(rare3.body.hasMore).toBe(false);
    const rare2 = await api(t, t.adminToken, "GET", "/tickets?showAll=true&searchParam=qj");
    expect(rare2.body.tickets.map((x: { id: number }) => x.id)).toEqual([target]);
    const p1 = await api(t, t.adminToken, "GET", "/tickets?showAll=true&status=closed&searchParam=comum&rowsPerPage=150&pageNumber=1");
    const p2 = await api(t, t.adminToken, "GET", "/tickets?showAll=true&status=closed&searchParam=comum&rowsPerPage=150&pageNumber=2");
    expect(p1.body.tickets).toHaveLength(150);
    expect(p1.body.hasMore).toBe(true);
    expect(p1.body.count).toBeGreaterThan(150);
    const seen = new Set([...p1.body.tickets, ...p2.body.tickets].map((x: { id: number }) => x.id));
    expect(seen.size).toBe(300);
    const times = [...p1.body.tickets, ...p2.body.tickets].map((x: { updatedAt: string }) => x.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe("auto-close", () => {
  it("open tickets idle longer than autoCloseHours are closed by the server; others are left alone", async () => {
    const idle = await pendingTicket(simSupport);
    const fresh = await pendingTicket(simSupport);
    const waitingIdle = await pendingTicket(simSupport);
    await api(t, agent.token, "PUT", `/tickets/${idle.id}`, { status: "open" });
    await api(t, agent.token, "PUT", `/tickets/${fresh.id}`, { status: "open" });
    await t.ctx.db.execute(sql`update tickets set updated_at = now() - interval '25 hours' where id in (${idle.id}, ${waitingIdle.id})`);
    const closed: number[] = [];
    const off = t.ctx.events.on("ticket.updated", ({ ticket }) => {
      if (ticket.status === "closed") closed.push(ticket.id);
    });
    expect(await runAutoClose(t.conv)).toBeGreaterThanOrEqual(1);
    off();
    expect(closed).toContain(idle.id);
    const statuses = await t.ctx.db.execute<{ id: number; status: string }>(
      sql`select id, status from tickets where id in (${idle.id}, ${fresh.id}, ${waitingIdle.id}) order by id`,
    );
    expect(Object.fromEntries(statuses.rows.map((r) => [r.id, r.status]))).toEqual({
      [idle.id]: "closed",
      [fresh.id]: "open",
      [waitingIdle.id]: "pending",
    });
  });

  it("follows the autoCloseHours setting; 0 turns it off", async () => {
    const tk = await pendingTicket(simSupport);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "open" });
    await t.ctx.db.execute(sql`update tickets set updated_at = now() - interval '3 hours' where id = ${tk.id}`);
    await api(t, t.adminToken, "PUT", "/settings/autoCloseHours", { value: "0" });
    await runAutoClose(t.conv);
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body.status).toBe("open");
    await api(t, t.adminToken, "PUT", "/settings/autoCloseHours", { value: "2" });
    await runAutoClose(t.conv);
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body.status).toBe("closed");
    await api(t, t.adminToken, "PUT", "/settings/autoCloseHours", { value: "24" });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("prepared hot reads (PostgreSQL)", () => {
  it("a connection plans the ticket hydration once and reuses it: one text for one id, one for several whatever their number; a typed search is never prepared", async () => {
    const made = await t.ctx.db.execute<{ id: number }>(sql`
      with c as (insert into contacts (name, number) select 'Preparado ' || g, '55998877000' || g from generate_series(1, 3) g returning id)
      insert into tickets (status, contact_id) select 'closed', id from c returning id`);
    const ids = made.rows.map((r) => Number(r.id)).reverse();
    // one connection (a transaction; a pooled connection may have prepared them before) reads one ticket twice,
    // then two lists of different lengths: two statements (one id by =, several as one array), each run twice
    const hydrations = async (tx: Parameters<Parameters<typeof t.ctx.db.transaction>[0]>[0]) =>
      (
        await tx.execute<{ statement: string; calls: string }>(
          sql`select statement, generic_plans + custom_plans as calls from pg_prepared_statements`,
        )
      ).rows.filter((r) => /c\.name as c_name/.test(r.statement) && /where t\.id = /.test(r.statement)); // not a list's page (loadTicketPage)
    const seen = await t.ctx.db.transaction(async (tx) => {
      const before = await hydrations(tx);
      const one = await loadTickets(tx, [ids[0]]);
      await loadTickets(tx, [ids[1]]);
      const all = await loadTickets(tx, ids);
      await loadTickets(tx, ids.slice(0, 2));
      // a search for a typed term on the same connection
      await tx.execute(sql`select count(*) from contacts where search like ${"%ab%"}`);
      const rows = (await tx.execute<{ statement: string }>(sql`select statement from pg_prepared_statements`)).rows;
      return { before, one, all, hydration: await hydrations(tx), rows };
    });
    expect(seen.one.map((k) => k.id)).toEqual([ids[0]]);
    expect(seen.all.map((k) => k.id)).toEqual(ids);
    expect(seen.hydration).toHaveLength(2);
    for (const h of seen.hydration) {
      const earlier = seen.before.find((b) => b.statement === h.statement);
      expect(Number(h.calls) - Number(earlier?.calls ?? 0), h.statement.slice(-60)).toBe(2);
    }
    expect(seen.rows.some((r) => /search like/.test(r.statement))).toBe(false);
  });
});
