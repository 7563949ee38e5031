import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldTicketCounts } from "../src/modules/tickets/counts.js";
import { api, createQueue, customerSays, pairedSimulator, settle, type SimConnection } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * The lists' `count` comes from ticket_counts plus the changes not folded yet (kept by triggers on
 * tickets). Whatever writes tickets, and whenever the fold runs, every list's count equals the
 * number of tickets the list itself walks.
 */
let t: TestApp;
let sales: number;
let support: number;
let sim: SimConnection;
const who: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  sales = await createQueue(t, "Vendas");
  support = await createQueue(t, "Suporte");
  who.admin = { id: 1, token: t.adminToken };
  who.agentSales = await t.createUser({ name: "Ana", queueIds: [sales] });
  who.agentSupport = await t.createUser({ name: "Beto", queueIds: [support] });
  who.agentNoQueue = await t.createUser({ name: "Caio", queueIds: [] });
  who.superv = await t.createUser({ name: "Sueli", profile: "superv", queueIds: [sales] });
  sim = await pairedSimulator(t, { name: "Loja", queueIds: [sales, support], greetingMessage: "Olá! Escolha:" });
});
afterAll(() => t.teardown());

/** Every list the counts serve, for every kind of user. */
const LISTS = [
  "status=open",
  "status=pending",
  "status=closed",
  "status=open&showAll=true",
  "status=pending&showAll=true",
  "status=closed&showAll=true",
  "showAll=true",
  "",
  `status=open&showAll=true&queueIds=[QUEUE]`,
  "status=pending&showAll=true&isGroup=true",
  "status=open&showAll=true&isGroup=false",
  "showAll=true&userId=USER",
];

/** The ids a list walks, page after page, and the count each page answered. */
async function walk(token: string, query: string): Promise<{ walked: number; counts: number[] }> {
  let walked = 0;
  const counts: number[] = [];
  for (let page = 1; ; page++) {
    const res = await api(t, token, "GET", `/tickets?${query}&rowsPerPage=200&pageNumber=${page}`);
    expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
    walked += res.body.tickets.length;
    counts.push(res.body.count);
    if (!res.body.hasMore) return { walked, counts };
  }
}

async function expectCountsRight(when: string): Promise<number> {
  let checked = 0;
  for (const [name, user] of Object.entries(who)) {
    for (const template of LISTS) {
      const query = template.replace("QUEUE", String(sales)).replace("USER", String(who.agentSales.id));
      const { walked, counts } = await walk(user.token, query);
      for (const c of counts) expect(c, `${when}: ${name} ${query}`).toBe(walked);
      checked++;
    }
  }
  return checked;
}

const pendingChanges = async () =>
  Number((await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ticket_count_changes`)).rows[0].n);

let seq = 0;
/** A contact written to by SQL (the counts are kept by triggers: every writer counts, not only the API). */
async function contact(isGroup = false): Promise<number> {
  const number = `5511977${String(++seq).padStart(6, "0")}`;
  const res = await t.ctx.db.execute<{ id: number }>(
    sql`insert into contacts (name, number, is_group) values (${`Contato ${seq}`}, ${number}, ${isGroup}) returning id`,
  );
  return res.rows[0].id;
}

describe("list counts (ticket_counts)", () => {
  it("count equals the tickets each list walks, through the API's own writes, before and after the fold", async () => {
    // customers write in: pending tickets without a queue (the connection's menu), then picked into queues
    for (let i = 0; i < 6; i++) await customerSays(t, sim, `5511988${String(i).padStart(6, "0")}`, "oi", { name: `Cliente ${i}` });
    await settle(t);
    const pending = (await api(t, t.adminToken, "GET", "/tickets?status=pending&showAll=true&rowsPerPage=200")).body.tickets as {
      id: number;
    }[];
    expect(pending.length).toBe(6);
    // an agent accepts, another is transferred to a queue, one is closed, one reopened
    expect(
      (await api(t, who.agentSales.token, "PUT", `/tickets/${pending[0].id}`, { status: "open", userId: who.agentSales.id })).status,
    ).toBe(200);
    expect((await api(t, t.adminToken, "PUT", `/tickets/${pending[1].id}`, { queueId: support })).status).toBe(200);
    expect((await api(t, t.adminToken, "PUT", `/tickets/${pending[2].id}`, { queueId: sales })).status).toBe(200);
    expect((await api(t, t.adminToken, "PUT", `/tickets/${pending[3].id}`, { status: "closed" })).status).toBe(200);
    expect((await api(t, t.adminToken, "PUT", `/tickets/${pending[4].id}`, { status: "open", userId: who.agentSupport.id })).status).toBe(
      200,
    );
    expect((await api(t, t.adminToken, "PUT", `/tickets/${pending[4].id}`, { queueId: support })).status).toBe(200);
    // an agent opens a ticket for a contact of their own
    const mine = await api(t, t.adminToken, "POST", "/contacts", { name: "Dora", number: "5511966660001" });
    expect(
      (await api(t, who.agentSales.token, "POST", "/tickets", { contactId: mine.body.id, queueId: sales, status: "open" })).status,
    ).toBe(200);
    await settle(t);

    expect(await pendingChanges()).toBeGreaterThan(0);
    expect(await expectCountsRight("before the fold")).toBe(Object.keys(who).length * LISTS.length);
    expect(await foldTicketCounts(t.ctx.db)).toBeGreaterThan(0);
    expect(await pendingChanges()).toBe(0);
    await expectCountsRight("after the fold");
  });

  it("writers other than the API count too: inserts, updates of each column, groups, cascades, deleted users; a fold in between", async () => {
    const statuses = ["pending", "open", "closed"] as const;
    const queues = [null, sales, support];
    const users = [null, who.agentSales.id, who.agentSupport.id, who.agentNoQueue.id];
    const ids: number[] = [];
    for (let i = 0; i < 36; i++) {
      const status = statuses[i % 3];
      const res = await t.ctx.db.execute<{ id: number }>(sql`
        insert into tickets (status, contact_id, queue_id, user_id, is_group, whatsapp_id)
        values (${status}, ${await contact(i % 7 === 0)}, ${queues[i % 3 === 0 ? 0 : (i % 5) % 3]}, ${status === "pending" ? null : users[i % 4]}, ${i % 7 === 0}, ${sim.whatsappId})
        returning id`);
      ids.push(res.rows[0].id);
    }
    await expectCountsRight("after inserts");
    await foldTicketCounts(t.ctx.db);
    // each counted column changes, alone and together; a no-op update; updates of other columns
    await t.ctx.db.execute(sql`update tickets set status = 'closed' where id = any(${`{${ids.slice(0, 5).join(",")}}`}::int[])`);
    await t.ctx.db.execute(sql`update tickets set queue_id = ${support} where id = ${ids[6]}`);
    await t.ctx.db.execute(sql`update tickets set user_id = ${who.agentSales.id}, status = 'open' where id = ${ids[7]}`);
    await t.ctx.db.execute(sql`update tickets set is_group = not is_group where id = ${ids[8]}`);
    await t.ctx.db.execute(sql`update tickets set status = status, queue_id = queue_id where id = ${ids[9]}`);
    await t.ctx.db.execute(sql`update tickets set unread_messages = 3, last_message = 'oi' where id = any(${`{${ids.join(",")}}`}::int[])`);
    await expectCountsRight("after updates");
    // a change rolled back leaves no trace
    await t.ctx.db
      .transaction(async (tx) => {
        await tx.execute(sql`update tickets set status = 'open', user_id = ${who.agentSupport.id} where id = ${ids[10]}`);
        throw new Error("rollback");
      })
      .catch(() => undefined);
    // a contact deleted takes its tickets; a user deleted leaves theirs without an agent
    const victim = await t.ctx.db.execute<{ contact_id: number }>(sql`select contact_id from tickets where id = ${ids[11]}`);
    expect((await api(t, t.adminToken, "DELETE", `/contacts/${victim.rows[0].contact_id}`)).status).toBe(200);
    expect((await api(t, t.adminToken, "DELETE", `/users/${who.agentNoQueue.id}`)).status).toBe(200);
    delete who.agentNoQueue;
    await settle(t);
    await expectCountsRight("after deletes");
    await foldTicketCounts(t.ctx.db);
    await expectCountsRight("after the second fold");
    // no empty bucket is kept
    const zero = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ticket_counts where n = 0`);
    expect(zero.rows[0].n).toBe(0);
  });

  it("folds at the same time as writes count every change once", async () => {
    const before = (await api(t, t.adminToken, "GET", "/tickets?showAll=true")).body.count as number;
    const writes = Array.from({ length: 12 }, async (_, i) => {
      await t.ctx.db.execute(
        sql`insert into tickets (status, contact_id, whatsapp_id) values ('closed', ${await contact()}, ${sim.whatsappId})`,
      );
      if (i % 3 === 0) await foldTicketCounts(t.ctx.db);
    });
    await Promise.all([...writes, foldTicketCounts(t.ctx.db), foldTicketCounts(t.ctx.db)]);
    expect((await api(t, t.adminToken, "GET", "/tickets?showAll=true")).body.count).toBe(before + 12);
    await foldTicketCounts(t.ctx.db);
    expect((await api(t, t.adminToken, "GET", "/tickets?showAll=true")).body.count).toBe(before + 12);
    await expectCountsRight("after concurrent folds");
  });

  it("lists with other filters (unread, a day) still count their tickets", async () => {
    const unread = await walk(t.adminToken, "showAll=true&withUnreadMessages=true");
    expect(unread.walked).toBeGreaterThan(0);
    for (const c of unread.counts) expect(c).toBe(unread.walked);
    // the day a closed ticket was created on, as an instant: the server takes the local day it falls on
    // (a date written from UTC's clock names tomorrow in São Paulo from 21:00 on)
    const created = await t.ctx.db.execute<{ at: string }>(sql`select max(created_at) as at from tickets where status = 'closed'`);
    const day = await walk(
      t.adminToken,
      `showAll=true&status=closed&date=${encodeURIComponent(new Date(created.rows[0].at).toISOString())}`,
    );
    expect(day.walked).toBeGreaterThan(0);
    for (const c of day.counts) expect(c).toBe(day.walked);
  });
});
