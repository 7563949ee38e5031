import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "../src/db/client.js";
import { api, createQueue, customerSays, eventually, pairedSimulator, type SimConnection, settle } from "./conversation-kit.js";
import { FAKE_AI_KEY, type FakeOpenAi, startFakeOpenAi } from "./fakes/openai.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";
import { unzip } from "./zip-kit.js";

/**
 * What the surfaces of the last round must not keep or let through, tried as a new admin, supervisor
 * or agent would, through the API: the audit trail copies no message text or contact data (so the
 * erasure leaves none behind) and the customer's export holds nothing internal; an incident's bulk
 * close closes only what its closer could close one by one; a saved secret never follows a new
 * address; agents do not read a Cloud connection's verify token; a quote of a deleted message does
 * not carry its text.
 */

let t: TestApp;
let sim: SimConnection;
let queueA: number;
let queueB: number;
let seq = 0;

const nextNumber = () => `55489${String(3000000 + ++seq * 41).padStart(8, "0")}`;

/** A new customer's open ticket in `queueId`, owned by `userId`. */
async function openTicket(queueId: number, userId: number, name = `Cliente ${seq}`) {
  const number = nextNumber();
  const contact = (await api(t, t.adminToken, "POST", "/contacts", { name, number })).body;
  const ticket = await api(t, t.adminToken, "POST", "/tickets", {
    contactId: contact.id,
    whatsappId: sim.whatsappId,
    queueId,
    status: "open",
    userId,
  });
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(200);
  return { ticketId: ticket.body.id as number, contactId: contact.id as number, number };
}

/** Every audit entry as GET /audit answers them (all pages), and the CSV, as one text. */
async function wholeAuditTrail(): Promise<string> {
  const pages: unknown[] = [];
  for (let page = 1; page < 100; page++) {
    const res = await api(t, t.adminToken, "GET", `/audit?pageNumber=${page}`);
    expect(res.status).toBe(200);
    pages.push(res.body.entries);
    if (!res.body.hasMore) break;
  }
  const csv = await t.app.inject({ method: "GET", url: "/audit/export", headers: bearer(t.adminToken) });
  expect(csv.statusCode).toBe(200);
  return `${JSON.stringify(pages)}\n${csv.body}`;
}

beforeAll(async () => {
  t = await createTestApp();
  queueA = await createQueue(t, "Suporte");
  queueB = await createQueue(t, "Financeiro");
  sim = await pairedSimulator(t, { queueIds: [queueA, queueB], greetingMessage: "Olá! Escolha um setor." });
});
afterAll(() => t.teardown());

describe("the audit trail and the erasure", () => {
  it("records what was done by reference: after the erasure no note, deleted reply or contact data is in GET /audit, its CSV or an export", async () => {
    const agent = await t.createUser({ name: "Agente Beatriz", queueIds: [queueA] });
    const { ticketId, contactId, number } = await openTicket(queueA, agent.id, "Joana Prado");
    await customerSays(t, sim, number, "oi, preciso de ajuda com a fatura");
    const NOTE = "cliente suspeito de fraude";
    const REPLY = "Joana, seu boleto de R$ 89,90 vence amanhã";
    const note = await api(t, agent.token, "POST", `/messages/${ticketId}`, { body: NOTE, internal: true });
    expect(note.status).toBe(200);
    const reply = await api(t, agent.token, "POST", `/messages/${ticketId}`, { body: REPLY });
    expect(reply.status).toBe(200);
    await settle(t);
    const [noteId] = (note.body as { id: number }[]).map((m) => m.id);
    const [replyId] = (reply.body as { id: number }[]).map((m) => m.id);
    expect((await api(t, agent.token, "DELETE", `/messages/${noteId}`)).status).toBe(200);
    expect((await api(t, agent.token, "DELETE", `/messages/${replyId}`)).status).toBe(200);

    // the admin edits the contact, from an address of their own
    const NEW = { name: "Joana Prado Nogueira", number: nextNumber(), email: "joana.prado@example.com" };
    const CPF = "529.982.247-25";
    const edit = await t.app.inject({
      method: "PUT",
      url: `/contacts/${contactId}`,
      headers: bearer(t.adminToken),
      remoteAddress: "198.51.100.77",
      payload: { ...NEW, extraInfo: [{ name: "CPF", value: CPF }] },
    });
    expect(edit.statusCode, edit.body).toBe(200);

    // the trail says what happened, by reference
    const trail = (await api(t, t.adminToken, "GET", "/audit?action=contact.update")).body.entries;
    expect(trail.find((e: { target: string }) => e.target === `contact:${contactId}`)).toMatchObject({
      after: { fields: ["name", "number", "email"], extraInfo: ["CPF"] },
      ip: "198.51.100.77",
    });
    const deletes = (await api(t, t.adminToken, "GET", "/audit?action=message.delete")).body.entries;
    expect(deletes.map((e: { target: string }) => e.target)).toEqual(expect.arrayContaining([`message:${noteId}`, `message:${replyId}`]));
    expect(deletes.find((e: { target: string }) => e.target === `message:${noteId}`)).toMatchObject({
      userName: "Agente Beatriz",
      before: { ticketId, source: "note" },
    });

    // the customer's export: what was done with their data, nothing internal
    const exportNow = async () => {
      const res = await t.app.inject({ method: "GET", url: `/contacts/${contactId}/export`, headers: bearer(t.adminToken) });
      expect(res.statusCode).toBe(200);
      return unzip(res.rawPayload);
    };
    const files = await exportNow();
    const audit = files.get("audit.json")?.toString() ?? "";
    expect(audit).toContain("contact.update");
    for (const internal of [NOTE, REPLY, "Agente Beatriz", "Admin", "198.51.100.77", "127.0.0.1", `message:${noteId}`])
      expect(audit, internal).not.toContain(internal);
    expect(JSON.stringify([...files.entries()].map(([k, v]) => [k, k.startsWith("media/") ? "" : v.toString()]))).not.toContain(NOTE);

    // the erasure, then nothing of the customer's in the trail or in a new export
    expect((await api(t, t.adminToken, "POST", `/contacts/${contactId}/erase`)).status).toBe(200);
    const personal = [NOTE, REPLY, "Joana", NEW.email, number, NEW.number, CPF, "52998224725"];
    const whole = await wholeAuditTrail();
    for (const v of personal) expect(whole, v).not.toContain(v);
    const after = await exportNow();
    const dump = JSON.stringify([...after.entries()].map(([k, v]) => [k, v.toString()]));
    for (const v of personal) expect(dump, v).not.toContain(v);
    // and no table still holds the contact's old name, number or e-mail in a text column
    const { rows } = await t.ctx.db.execute<{ hits: string | null }>(sql`
      select string_agg(table_name || '.' || column_name, ', ') as hits from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'jsonb') and table_name not like 'simulator_%'`);
    const columns = (rows[0].hits ?? "").split(", ").map((c) => c.split("."));
    const found: string[] = [];
    for (const [table, column] of columns) {
      for (const v of [NEW.number, NEW.email, "Joana Prado", NOTE, REPLY]) {
        const hit = await t.ctx.db.execute(
          sql`select 1 from ${sql.identifier(table)} where strpos(${sql.identifier(column)}::text, ${v}) > 0 limit 1`,
        );
        if (hit.rows.length) found.push(`${table}.${column}: ${v}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("every writer of an entry about a contact keeps personal values out, whatever it is handed", async () => {
    const { contactId } = await openTicket(queueA, 1, "Renata Dias");
    const del = await api(t, t.adminToken, "DELETE", `/contacts/${contactId}`);
    expect(del.status).toBe(200);
    const entry = (await api(t, t.adminToken, "GET", "/audit?action=contact.delete")).body.entries.find(
      (e: { target: string }) => e.target === `contact:${contactId}`,
    );
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry)).not.toContain("Renata");
  });

  it("entries written before this change are brought to the same form by the migration", async () => {
    const old = await t.ctx.db.execute<{ id: number }>(sql`
      insert into audit_entries (user_name, action, target, contact_id, before, after) values
        ('Admin', 'message.delete', 'message:999', 999, '{"ticketId": 5, "body": "texto apagado secreto", "source": "note", "mediaType": "chat"}', null),
        ('Admin', 'contact.update', 'contact:999', 999, '{"name": "Nome Antigo", "number": "5511900001111"}',
          '{"name": "Nome Novo", "number": "5511900002222", "extraInfo": [{"name": "CPF", "value": "529.982.247-25"}]}'),
        ('Admin', 'contact.delete', 'contact:998', 998, '{"name": "Fulano Removido", "number": "5511900003333"}', null)
      returning id`);
    const ids = old.rows.map((r) => Number(r.id));
    const file = readFileSync(resolve(migrationsFolder(), "0026_audit_by_reference.sql"), "utf8");
    for (const statement of file.split("--> statement-breakpoint")) {
      const body = statement.replace(/^--.*$/gm, "").trim();
      if (body) await t.ctx.db.execute(sql.raw(body));
    }
    const { rows } = await t.ctx.db.execute<{ id: number; before: unknown; after: unknown }>(
      sql`select id::int as id, before, after from audit_entries where id in (${sql.join(ids, sql`, `)}) order by id`,
    );
    expect(rows.map((r) => ({ before: r.before, after: r.after }))).toEqual([
      { before: { ticketId: 5, source: "note", mediaType: "chat" }, after: null },
      { before: null, after: { fields: ["name", "number"], extraInfo: ["CPF"] } },
      { before: null, after: null },
    ]);
    // append-only again
    await expect(t.ctx.db.execute(sql`update audit_entries set user_name = 'x' where id = ${ids[0]}`)).rejects.toThrow();
  });
});

describe("closing an incident's tickets", () => {
  it("closes only the tickets its closer may close one by one", async () => {
    const superv = await t.createUser({ name: "Supervisora A", profile: "superv", queueIds: [queueA] });
    const agentB = await t.createUser({ name: "Agente B", queueIds: [queueB] });
    const opened = await api(t, superv.token, "POST", "/incidents", {
      title: "Queda no Centro",
      message: "Estamos com uma falha na região.",
    });
    expect(opened.status).toBe(200);
    const a = await openTicket(queueA, superv.id);
    const b = await openTicket(queueB, agentB.id);
    await customerSays(t, sim, a.number, "sem internet aqui");
    await customerSays(t, sim, b.number, "minha internet caiu");
    await settle(t);
    const linked = await api(t, t.adminToken, "GET", `/incidents/${opened.body.id}`);
    expect(linked.body.ticketCount).toBe(2);

    // one by one, the supervisor may not touch queue B's ticket
    expect((await api(t, superv.token, "PUT", `/tickets/${b.ticketId}`, { status: "closed" })).status).toBe(403);
    const closed = await api(t, superv.token, "POST", `/incidents/${opened.body.id}/close`, { closeTickets: true });
    expect(closed.status).toBe(200);
    await eventually(async () => (await api(t, t.adminToken, "GET", `/tickets/${a.ticketId}`)).body.status === "closed", "A closed");
    await t.jobs.idle();
    await settle(t);
    expect((await api(t, t.adminToken, "GET", `/tickets/${b.ticketId}`)).body).toMatchObject({ status: "open", userId: agentB.id });
  });
});

describe("a saved secret goes only to its saved address", () => {
  let saved: FakeOpenAi;
  let other: FakeOpenAi;
  beforeAll(async () => {
    saved = await startFakeOpenAi();
    other = await startFakeOpenAi();
  });
  afterAll(async () => {
    await saved.close();
    await other.close();
  });
  const put = (key: string, body: { value: string; secret?: string }) => api(t, t.adminToken, "PUT", `/settings/${key}`, body);
  const setting = async (key: string) =>
    ((await api(t, t.adminToken, "GET", "/settings")).body as { key: string; value: string; hasValue?: boolean }[]).find(
      (s) => s.key === key,
    );

  it("AI: a new address without the key typed again is refused, the next suggestion still goes to the saved one; with the key it moves", async () => {
    expect((await put("aiBaseUrl", { value: saved.baseUrl })).status).toBe(200);
    expect((await put("aiApiKey", { value: FAKE_AI_KEY })).status).toBe(200);
    expect((await put("aiEnabled", { value: "enabled" })).status).toBe(200);
    const moved = await put("aiBaseUrl", { value: other.baseUrl });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ error: "ERR_VALIDATION" });
    expect(moved.body.fields.secret[0]).toMatch(/chave/);
    expect((await setting("aiBaseUrl"))?.value).toBe(saved.baseUrl);
    // the same address written another way is the same address
    expect((await put("aiBaseUrl", { value: `${saved.baseUrl}/` })).status).toBe(200);

    const agent = await t.createUser({ name: "Agente IA", queueIds: [queueA] });
    const { ticketId, number } = await openTicket(queueA, agent.id);
    await customerSays(t, sim, number, "minha internet está lenta");
    const ask = async () => expect((await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/suggestions`, {})).status).toBe(200);
    await ask();
    expect(other.chats).toHaveLength(0);
    expect(saved.chats.at(-1)?.authorization).toBe(`Bearer ${FAKE_AI_KEY}`);

    // typed again with the address, both change together (the fake server knows one key: the same, typed again)
    expect((await put("aiBaseUrl", { value: other.baseUrl, secret: FAKE_AI_KEY })).status).toBe(200);
    expect(await setting("aiApiKey")).toMatchObject({ value: "", hasValue: true });
    await ask();
    expect(other.chats.at(-1)?.authorization).toBe(`Bearer ${FAKE_AI_KEY}`);
    // no address: the key has nowhere to go and is dropped
    expect((await put("aiBaseUrl", { value: "" })).status).toBe(200);
    expect(await setting("aiApiKey")).toMatchObject({ hasValue: false });
    const audited = (await api(t, t.adminToken, "GET", "/audit?action=settings.update")).body.entries;
    expect(JSON.stringify(audited)).not.toContain(FAKE_AI_KEY);
  });

  it("billing and e-mail: the token and the password need typing again for a new URL or mail server (a weaker security too)", async () => {
    expect((await put("integrationUrl", { value: "https://sgp.provedor.example" })).status).toBe(200);
    expect((await put("integrationToken", { value: "token-salvo" })).status).toBe(200);
    const billing = await put("integrationUrl", { value: "https://outro.example" });
    expect(billing.status).toBe(400);
    expect(billing.body.fields.secret[0]).toMatch(/token/);
    expect((await put("integrationUrl", { value: "https://outro.example", secret: "token-novo" })).status).toBe(200);

    expect((await put("mail_host", { value: "smtp.provedor.example" })).status).toBe(200);
    expect((await put("mail_smtp_secure", { value: "tls" })).status).toBe(200);
    expect((await put("mail_password", { value: "senha-do-email" })).status).toBe(200);
    for (const [key, value] of [
      ["mail_host", "smtp.outro.example"],
      ["mail_port", "2525"],
      ["mail_smtp_secure", "none"],
    ]) {
      const res = await put(key, { value });
      expect(res.status, key).toBe(400);
      expect(res.body.fields.secret[0]).toMatch(/senha/);
    }
    expect((await setting("mail_host"))?.value).toBe("smtp.provedor.example");
    expect(await setting("mail_password")).toMatchObject({ hasValue: true });
  });
});

describe("smaller holes", () => {
  it("agents and supervisors do not read a Cloud connection's webhook verify token; admins do", async () => {
    const created = await api(t, t.adminToken, "POST", "/whatsapp", {
      name: "Cloud privacidade",
      channel: "cloud",
      cloud: {
        phoneNumberId: "109876543210",
        businessAccountId: "5550001",
        accessToken: "EAAG-token",
        appSecret: "app-secret",
        verifyToken: "verifica-123",
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const agent = await t.createUser({ name: "Agente Cloud", queueIds: [queueA] });
    const superv = await t.createUser({ name: "Supervisor Cloud", profile: "superv" });
    for (const token of [agent.token, superv.token]) {
      const list = await api(t, token, "GET", "/whatsapp");
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toContain("verifica-123");
      const one = await api(t, token, "GET", `/whatsapp/${created.body.id}`);
      expect(one.body.cloud).toMatchObject({ verifyToken: "", phoneNumberId: "109876543210" });
    }
    const admin = await api(t, t.adminToken, "GET", `/whatsapp/${created.body.id}`);
    expect(admin.body.cloud.verifyToken).toBe("verifica-123");
  });
});
