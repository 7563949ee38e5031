import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEDIA_RETENTION_JOB } from "../src/modules/lgpd/module.js";
import {
  api,
  createQueue,
  customerSays,
  eventually,
  PNG,
  pairedSimulator,
  type SimConnection,
  settle,
  ticketOfContact,
} from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";
import { unzip } from "./zip-kit.js";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
const NUMBER = "5511970002001";

let t: TestApp;
let sim: SimConnection;
let ticketId: number;
let contactId: number;

beforeAll(async () => {
  t = await createTestApp();
  const q = await createQueue(t, "Suporte");
  sim = await pairedSimulator(t, { queueIds: [q] });
  await customerSays(t, sim, NUMBER, "meu CPF é 123.456.789-09", { name: "Maria Cliente" });
  await customerSays(t, sim, NUMBER, "segue a foto", { media: { data: PNG, mimetype: "image/png" } });
  await customerSays(t, sim, NUMBER, "", { media: { data: PDF, mimetype: "application/pdf", fileName: "fatura.pdf" } });
  const [ticket] = await ticketOfContact(t, NUMBER);
  ticketId = ticket.id;
  contactId = ticket.contactId;
  expect((await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { status: "open", userId: 1 })).status).toBe(200);
  expect((await api(t, t.adminToken, "POST", `/messages/${ticketId}`, { body: "Olá Maria, recebido." })).status).toBe(200);
  expect((await api(t, t.adminToken, "POST", `/messages/${ticketId}`, { body: "nota: cliente sensível", internal: true })).status).toBe(
    200,
  );
  expect(
    (await api(t, t.adminToken, "POST", "/schedules", { ticketId, message: "Lembrete da visita técnica", when: "2099-01-01T10:00:00" }))
      .status,
  ).toBe(200);
  expect(
    (
      await api(t, t.adminToken, "POST", "/disparos", {
        whatsappId: sim.whatsappId,
        rows: [{ number: NUMBER, message: "Promoção" }],
        startAt: "2099-01-01T10:00",
      })
    ).status,
  ).toBe(200);
  await settle(t);
});
afterAll(() => t.teardown());

const messageRows = async () =>
  (
    await t.ctx.db.execute<{ id: number; body: string; media_key: string | null; source: string; transcription: string | null }>(
      sql`select id, body, media_key, source, transcription from messages where ticket_id = ${ticketId} order by id`,
    )
  ).rows;

describe("GET /contacts/{id}/export", () => {
  it("holds every message and media file of the contact, its schedules and disparos, and leaves internal notes out", async () => {
    const res = await t.app.inject({ method: "GET", url: `/contacts/${contactId}/export`, headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    const files = unzip(res.rawPayload);
    const contact = JSON.parse(files.get("contact.json")?.toString() ?? "{}");
    expect(contact).toMatchObject({ id: contactId, number: NUMBER, name: "Maria Cliente" });

    const rows = await messageRows();
    const exported = JSON.parse(files.get("messages.json")?.toString() ?? "[]") as { id: number; body: string; file: string | null }[];
    const visible = rows.filter((r) => r.source !== "note");
    expect(exported.map((m) => m.id).sort()).toEqual(visible.map((r) => Number(r.id)).sort());
    expect(exported.some((m) => m.body.includes("cliente sensível"))).toBe(false);
    // every media file, byte for byte
    const withMedia = visible.filter((r) => r.media_key);
    expect(withMedia).toHaveLength(2);
    for (const r of withMedia) {
      const inZip = files.get(`media/${r.media_key}`);
      expect(inZip, `media/${r.media_key}`).toBeDefined();
      expect(inZip?.equals((await t.conv.media.read(r.media_key as string)) as Buffer)).toBe(true);
    }
    expect([...files.values()].some((b) => b.equals(PNG))).toBe(true);
    expect([...files.values()].some((b) => b.equals(PDF))).toBe(true);
    expect(JSON.parse(files.get("schedules.json")?.toString() ?? "[]")[0]).toMatchObject({ message: "Lembrete da visita técnica" });
    expect(JSON.parse(files.get("disparos.json")?.toString() ?? "[]")[0]).toMatchObject({ number: NUMBER, message: "Promoção" });
    expect(JSON.parse(files.get("tickets.json")?.toString() ?? "[]")).toHaveLength(1);
    expect(files.has("contracts.json")).toBe(true);
    expect(files.has("audit.json")).toBe(true);

    const audit = await api(t, t.adminToken, "GET", "/audit?action=contact.export");
    expect(audit.body.entries[0]).toMatchObject({ target: `contact:${contactId}` });
  });

  it("is for admins only", async () => {
    const superv = await t.createUser({ profile: "superv" });
    expect((await api(t, superv.token, "GET", `/contacts/${contactId}/export`)).status).toBe(403);
    expect((await api(t, superv.token, "POST", `/contacts/${contactId}/erase`)).status).toBe(403);
  });
});

describe("POST /contacts/{id}/erase", () => {
  it("leaves no message text or media file readable, keeps the conversation's shape, and is audited", async () => {
    const before = await messageRows();
    const keys = before.map((r) => r.media_key).filter((k): k is string => !!k);
    expect(keys).toHaveLength(2);
    const mediaDir = join(t.config.dataDir, "media");
    for (const k of keys) expect(existsSync(join(mediaDir, k))).toBe(true);

    const res = await api(t, t.adminToken, "POST", `/contacts/${contactId}/erase`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ erased: true, messages: before.length, mediaFiles: 2, keptSignedContracts: 0 });

    const after = await messageRows();
    expect(after).toHaveLength(before.length);
    for (const r of after) {
      expect(r.body).toBe("");
      expect(r.media_key).toBeNull();
      expect(r.transcription).toBeNull();
    }
    for (const k of keys) {
      expect(existsSync(join(mediaDir, k))).toBe(false);
      expect((await t.app.inject({ method: "GET", url: `/media/${k}` })).statusCode).toBe(404);
    }
    const dump = JSON.stringify(
      (
        await t.ctx.db.execute(
          sql`select c.*, t.last_message from contacts c join tickets t on t.contact_id = c.id where c.id = ${contactId}`,
        )
      ).rows,
    );
    expect(dump).not.toContain("Maria");
    expect(dump).not.toContain(NUMBER);
    const scheduleDump = JSON.stringify((await t.ctx.db.execute(sql`select * from schedules where ticket_id = ${ticketId}`)).rows);
    expect(scheduleDump).not.toContain("visita técnica");
    expect(scheduleDump).toContain('"canceled"');
    const disparoDump = JSON.stringify((await t.ctx.db.execute(sql`select * from disparos`)).rows);
    expect(disparoDump).not.toContain(NUMBER);
    expect(disparoDump).not.toContain("Promoção");

    // the chat still lists its messages (for the counts), empty
    const chat = await api(t, t.adminToken, "GET", `/messages/${ticketId}`);
    expect(chat.body.count).toBe(before.length);
    expect(chat.body.messages.every((m: { body: string; mediaUrl: string | null }) => m.body === "" && m.mediaUrl === null)).toBe(true);
    const contact = await api(t, t.adminToken, "GET", `/contacts/${contactId}`);
    expect(contact.body.erasedAt).toBeTruthy();

    // an export now holds nothing personal
    const again = unzip(
      (await t.app.inject({ method: "GET", url: `/contacts/${contactId}/export`, headers: bearer(t.adminToken) })).rawPayload,
    );
    expect([...again.keys()].some((k) => k.startsWith("media/"))).toBe(false);
    expect(again.get("messages.json")?.toString()).not.toContain("CPF");

    const audit = await api(t, t.adminToken, "GET", "/audit?action=contact.erase");
    expect(audit.body.entries[0]).toMatchObject({ target: `contact:${contactId}`, userId: 1 });
  });
});

describe("media retention", () => {
  it("a daily job deletes media files older than the setting's days; newer ones stay", async () => {
    const number = "5511970002002";
    await customerSays(t, sim, number, "foto antiga", { media: { data: PNG, mimetype: "image/png" } });
    await customerSays(t, sim, number, "foto nova", { media: { data: PDF, mimetype: "application/pdf", fileName: "nova.pdf" } });
    const [ticket] = await ticketOfContact(t, number);
    const rows = (
      await t.ctx.db.execute<{ id: number; media_key: string }>(
        sql`select id, media_key from messages where ticket_id = ${ticket.id} and media_key is not null order by id`,
      )
    ).rows;
    expect(rows).toHaveLength(2);
    const [old, recent] = rows;
    await t.ctx.db.execute(sql`update messages set created_at = now() - interval '10 days' where id = ${old.id}`);
    expect((await api(t, t.adminToken, "PUT", "/settings/mediaRetentionDays", { value: "7" })).status).toBe(200);
    await t.jobs.enqueue(MEDIA_RETENTION_JOB);
    const mediaDir = join(t.config.dataDir, "media");
    await eventually(() => !existsSync(join(mediaDir, old.media_key)), "the old file deleted");
    expect(existsSync(join(mediaDir, recent.media_key))).toBe(true);
    const [row] = (await t.ctx.db.execute<{ media_key: string | null }>(sql`select media_key from messages where id = ${old.id}`)).rows;
    expect(row.media_key).toBeNull();
    expect(readdirSync(mediaDir)).toContain(recent.media_key);
  });
});
