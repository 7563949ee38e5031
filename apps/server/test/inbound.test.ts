import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, tickets } from "../src/db/schema/index.js";
import { api, createQueue, customerSays, PNG, pairedSimulator, phoneOf, type SimConnection } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let support: number;
let billing: number;
let menu: SimConnection;
let single: SimConnection;
let none: SimConnection;

beforeAll(async () => {
  t = await createTestApp();
  support = await createQueue(t, "Suporte", "Você está no suporte técnico.");
  billing = await createQueue(t, "Financeiro", "");
  menu = await pairedSimulator(t, { name: "Menu", queueIds: [support, billing], greetingMessage: "Olá! Escolha um setor:" });
  single = await pairedSimulator(t, { name: "Single", queueIds: [support] });
  none = await pairedSimulator(t, { name: "NoQueue" });
});
afterAll(() => t.teardown());

async function ticketsOf(number: string, whatsappId: number) {
  return t.ctx.db.execute<{
    id: number;
    status: string;
    queue_id: number | null;
    unread_messages: number;
    last_message: string;
    user_id: number | null;
  }>(
    sql`select t.id, t.status, t.queue_id, t.unread_messages, t.last_message, t.user_id from tickets t join contacts c on c.id = t.contact_id
        where c.number = ${number} and t.whatsapp_id = ${whatsappId} order by t.id`,
  );
}

async function messagesOf(ticketId: number) {
  return t.ctx.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(messages.id);
}

describe("the queue step", () => {
  it("a connection with one queue assigns it silently", async () => {
    await customerSays(t, single, "5511900000001", "oi");
    const { rows } = await ticketsOf("5511900000001", single.whatsappId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", queue_id: support, unread_messages: 1, last_message: "oi" });
    expect((await phoneOf(single, "5511900000001")).filter((m) => m.fromMe)).toHaveLength(0);
  });

  it("several queues: the greeting and a numbered menu; a valid number picks the queue and its greeting follows", async () => {
    const n = "5511900000002";
    await customerSays(t, menu, n, "bom dia");
    let phone = (await phoneOf(menu, n)).filter((m) => m.fromMe);
    expect(phone).toHaveLength(1);
    expect(phone[0].body).toContain("Olá! Escolha um setor:");
    expect(phone[0].body).toContain("*1* - Financeiro");
    expect(phone[0].body).toContain("*2* - Suporte");
    let { rows } = await ticketsOf(n, menu.whatsappId);
    expect(rows[0].queue_id).toBeNull();

    await customerSays(t, menu, n, " 2 ");
    ({ rows } = await ticketsOf(n, menu.whatsappId));
    expect(rows).toHaveLength(1);
    expect(rows[0].queue_id).toBe(support);
    phone = (await phoneOf(menu, n)).filter((m) => m.fromMe);
    expect(phone.map((m) => m.body)).toEqual([expect.stringContaining("*2* - Suporte"), "Você está no suporte técnico."]);
    // nothing lost: both customer messages and both replies are on the one ticket
    const stored = await messagesOf(rows[0].id);
    expect(stored.map((m) => [m.fromMe, m.body])).toEqual([
      [false, "bom dia"],
      [true, expect.stringContaining("Escolha")],
      [false, " 2 "],
      [true, "Você está no suporte técnico."],
    ]);
  });

  it("an invalid choice is answered with the invalid-option text (a setting) and the menu again; the ticket stays without a queue", async () => {
    const n = "5511900000003";
    await api(t, t.adminToken, "PUT", "/settings/msgInvalidOption", { value: "Não entendi. Escolha um número:" });
    await customerSays(t, menu, n, "oi");
    await customerSays(t, menu, n, "7");
    await customerSays(t, menu, n, "quero falar com alguém");
    const replies = (await phoneOf(menu, n)).filter((m) => m.fromMe);
    expect(replies.map((r) => (r.body.includes("*1* - Financeiro") ? "menu" : r.body))).toEqual([
      "menu",
      "Não entendi. Escolha um número:",
      "menu",
      "Não entendi. Escolha um número:",
      "menu",
    ]);
    const { rows } = await ticketsOf(n, menu.whatsappId);
    expect(rows[0].queue_id).toBeNull();
    expect(rows[0].unread_messages).toBe(3);
    // a queue whose greeting is empty is chosen without a reply
    await customerSays(t, menu, n, "1");
    const after = await ticketsOf(n, menu.whatsappId);
    expect(after.rows[0].queue_id).toBe(billing);
    expect((await phoneOf(menu, n)).filter((m) => m.fromMe)).toHaveLength(5);
  });

  it("a connection without queues leaves the ticket without one", async () => {
    await customerSays(t, none, "5511900000004", "olá");
    const { rows } = await ticketsOf("5511900000004", none.whatsappId);
    expect(rows[0]).toMatchObject({ status: "pending", queue_id: null });
  });
});

describe("delivery", () => {
  it("the same channel message delivered twice is stored once", async () => {
    const n = "5511900000005";
    await customerSays(t, single, n, "primeira", { id: "SAME-ID-1" });
    await customerSays(t, single, n, "primeira", { id: "SAME-ID-1" });
    // and concurrently
    await single.session.customerSend({ number: n, body: "segunda", id: "SAME-ID-2" });
    await single.session.customerSend({ number: n, body: "segunda", id: "SAME-ID-2" });
    await t.channels.idle();
    const { rows } = await ticketsOf(n, single.whatsappId);
    expect(rows).toHaveLength(1);
    expect(rows[0].unread_messages).toBe(2);
    const stored = await messagesOf(rows[0].id);
    expect(stored.map((m) => m.wid)).toEqual(["SAME-ID-1", "SAME-ID-2"]);
  });

  it("the same id on another connection is another message", async () => {
    const n = "5511900000006";
    await customerSays(t, none, n, "a", { id: "SHARED-ID" });
    await customerSays(t, single, n, "b", { id: "SHARED-ID" });
    const [a, b] = await Promise.all([ticketsOf(n, none.whatsappId), ticketsOf(n, single.whatsappId)]);
    expect(a.rows).toHaveLength(1);
    expect(b.rows).toHaveLength(1);
  });

  it("media is stored and served by its unguessable link", async () => {
    const n = "5511900000007";
    await customerSays(t, none, n, "", { media: { data: PNG, mimetype: "image/png", fileName: "foto.png" } });
    const { rows } = await ticketsOf(n, none.whatsappId);
    const [m] = await messagesOf(rows[0].id);
    expect(m.mediaType).toBe("image");
    expect(m.mediaKey).toMatch(/^[a-f0-9]{32}\.png$/);
    const res = await t.app.inject({ method: "GET", url: `/media/${m.mediaKey}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.rawPayload.equals(PNG)).toBe(true);
    const guess = await t.app.inject({ method: "GET", url: "/media/00000000000000000000000000000000.png" });
    expect(guess.statusCode).toBe(404);
    const traversal = await t.app.inject({ method: "GET", url: "/media/..%2F..%2Fetc%2Fpasswd" });
    expect(traversal.statusCode).toBe(400);
  });

  it("group messages are ignored while CheckMsgIsGroup is enabled, kept when disabled", async () => {
    await customerSays(t, none, "5511900000008", "no grupo", { groupId: "120363000000000001" });
    let res = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from contacts where number = '120363000000000001'`);
    expect(res.rows[0].n).toBe(0);
    expect((await api(t, t.adminToken, "PUT", "/settings/CheckMsgIsGroup", { value: "disabled" })).status).toBe(200);
    await customerSays(t, none, "5511900000008", "no grupo de novo", { groupId: "120363000000000001" });
    res = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from tickets t join contacts c on c.id = t.contact_id where c.number = '120363000000000001' and t.is_group`,
    );
    expect(res.rows[0].n).toBe(1);
    await api(t, t.adminToken, "PUT", "/settings/CheckMsgIsGroup", { value: "enabled" });
  });

  it("a contact known by its LID gets its number when a message carries both", async () => {
    // the simulator always sends numbers; the pipeline is driven directly with a LID-only message
    await t.channels.dispatch(none.whatsappId, {
      type: "message",
      message: {
        id: "LID-1",
        fromMe: false,
        chat: { lid: "99887766", isGroup: false },
        pushName: "Pessoa",
        timestamp: new Date(),
        body: "pelo lid",
        mediaType: "chat",
      },
    });
    await t.channels.dispatch(none.whatsappId, {
      type: "message",
      message: {
        id: "LID-2",
        fromMe: false,
        chat: { lid: "99887766", number: "5511900000009", isGroup: false },
        pushName: "Pessoa",
        timestamp: new Date(),
        body: "com número",
        mediaType: "chat",
      },
    });
    const res = await t.ctx.db.execute<{ id: number; number: string; lid: string; name: string }>(
      sql`select id, number, lid, name from contacts where lid = '99887766' or number = '5511900000009'`,
    );
    expect(res.rows).toHaveLength(1);
    expect(res.rows[0]).toMatchObject({ number: "5511900000009", lid: "99887766", name: "Pessoa" });
    const live = await t.ctx.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.contactId, res.rows[0].id), eq(tickets.whatsappId, none.whatsappId)));
    expect(live).toHaveLength(1);
  });
});

describe("the statements of an inbound message", () => {
  it("the contact lookup reads the contact's own live ticket, however many the connection holds, in the generic plan PostgreSQL keeps", async () => {
    // 300 other customers with a live ticket on the connection
    await t.ctx.db.execute(sql`
      with c as (
        insert into contacts (name, number) select 'Outro ' || g, '55118800' || lpad(g::text, 5, '0') from generate_series(1, 300) g returning id
      )
      insert into tickets (status, contact_id, whatsapp_id) select 'pending', c.id, ${none.whatsappId} from c`);
    const n = "5511900000010";
    await customerSays(t, none, n, "primeira");
    const seen: { sql: string; params: unknown[] }[] = [];
    const off = t.ctx.database.onQuery((q, params) => seen.push({ sql: q, params }));
    try {
      await customerSays(t, none, n, "segunda");
    } finally {
      off();
    }
    // the steady case: a known contact writing to its live ticket (looked up without a lock)
    const lookup = seen.find((s) => /from contacts c\s+left join lateral/.test(s.sql) && !/for update/.test(s.sql));
    expect(lookup, seen.map((s) => s.sql).join("\n---\n")).toBeDefined();
    const { sql: text, params } = lookup as { sql: string; params: unknown[] };
    const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
    // the plan PostgreSQL settles on for a statement prepared on a connection: generic, made once for every value
    const plan = await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql.raw("set local plan_cache_mode = force_generic_plan"));
      await tx.execute(sql.raw(`prepare contact_lookup as ${text}`));
      try {
        const res = await tx.execute<{ "QUERY PLAN": string }>(
          sql.raw(`explain (analyze, costs off, timing off, summary off) execute contact_lookup(${params.map(literal).join(", ")})`),
        );
        return res.rows.map((r) => r["QUERY PLAN"]).join("\n");
      } finally {
        await tx.execute(sql.raw("deallocate contact_lookup"));
      }
    });
    // the ticket is found by its contact in the index, not by walking the connection's 300 live tickets
    expect(plan).toMatch(/Index Cond: \(\(contact_id = c\.id\)/);
    expect(plan).not.toContain("Join Filter");
    const { rows } = await ticketsOf(n, none.whatsappId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", unread_messages: 2, last_message: "segunda" });
  });
});

describe("closed tickets", () => {
  async function closeTicket(id: number, agoSeconds: number) {
    await t.ctx.db.execute(
      sql`update tickets set status = 'closed', closed_at = now(), updated_at = now() - make_interval(secs => ${agoSeconds}) where id = ${id}`,
    );
  }

  it("a closed ticket is reopened (pending, no agent) when the customer writes within timeCreateNewTicket", async () => {
    const n = "5511900000010";
    await customerSays(t, single, n, "oi");
    const first = (await ticketsOf(n, single.whatsappId)).rows[0];
    await closeTicket(first.id, 60);
    await customerSays(t, single, n, "voltei");
    const { rows } = await ticketsOf(n, single.whatsappId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, status: "pending", user_id: null, queue_id: support });
  });

  it("the ticket's history records what the customer's messages did: created, routed to the sole queue, reopened", async () => {
    const n = "5511900000013";
    await customerSays(t, single, n, "oi");
    const first = (await ticketsOf(n, single.whatsappId)).rows[0];
    expect((await api(t, t.adminToken, "PUT", `/tickets/${first.id}`, { status: "closed" })).status).toBe(200);
    await customerSays(t, single, n, "voltei");
    const { rows } = await t.ctx.db.execute<{
      reason: string;
      actor: string;
      from_status: string | null;
      to_status: string;
      queue_id: number | null;
    }>(sql`select reason, actor, from_status, to_status, queue_id from ticket_history where ticket_id = ${first.id} order by id`);
    expect(rows.map((r) => [r.reason, r.actor, r.from_status, r.to_status, r.queue_id])).toEqual([
      ["create", "customer", null, "pending", null],
      ["queue", "bot", "pending", "pending", support],
      ["finish", "user", "pending", "closed", support],
      ["customer", "customer", "closed", "pending", support],
    ]);
  });

  it("after the window a new pending ticket is opened", async () => {
    const n = "5511900000011";
    await customerSays(t, single, n, "oi");
    const first = (await ticketsOf(n, single.whatsappId)).rows[0];
    await closeTicket(first.id, 7200 + 60);
    await customerSays(t, single, n, "outro assunto");
    const { rows } = await ticketsOf(n, single.whatsappId);
    expect(rows.map((r) => r.status)).toEqual(["closed", "pending"]);
  });

  it("timeCreateNewTicket = 0 always opens a new ticket", async () => {
    await api(t, t.adminToken, "PUT", "/settings/timeCreateNewTicket", { value: "0" });
    const n = "5511900000012";
    await customerSays(t, single, n, "oi");
    const first = (await ticketsOf(n, single.whatsappId)).rows[0];
    await closeTicket(first.id, 1);
    await customerSays(t, single, n, "de novo");
    const { rows } = await ticketsOf(n, single.whatsappId);
    expect(rows.map((r) => r.status)).toEqual(["closed", "pending"]);
    await api(t, t.adminToken, "PUT", "/settings/timeCreateNewTicket", { value: "7200" });
  });
});
