import { AUDIT_PAGE_SIZE } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_RETENTION_JOB } from "../src/modules/audit/module.js";
import { recordAudit } from "../src/modules/audit/service.js";
import { api, createQueue, customerSays, eventually, pairedSimulator, settle, ticketOfContact } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;

/** The database refused the statement as the append-only trigger does (drizzle wraps the driver's error). */
async function refused(p: Promise<unknown>) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e as { message?: string; cause?: { message?: string } },
  );
  expect(err, "the statement should have been refused").toBeDefined();
  expect(`${err?.message} ${err?.cause?.message ?? ""}`).toMatch(/append-only/);
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.teardown());

const entries = async (query: string) => {
  const res = await api(t, t.adminToken, "GET", `/audit?${query}`);
  expect(res.status).toBe(200);
  return res.body as {
    entries: {
      id: number;
      action: string;
      userId: number | null;
      userName: string;
      target: string;
      before?: unknown;
      after?: unknown;
      ip: string;
    }[];
    count: number;
    hasMore: boolean;
  };
};

describe("the audit log records", () => {
  it("sign-ins, failed ones with the e-mail typed (never the password), with the address", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: "admin@admin.com", password: "wrong-one-123" },
      remoteAddress: "203.0.113.9",
    });
    expect(bad.statusCode).toBe(401);
    await t.login();
    const failed = await entries("action=auth.loginFailed");
    expect(failed.entries[0]).toMatchObject({ userName: "admin@admin.com", ip: "203.0.113.9" });
    expect(JSON.stringify(failed)).not.toContain("wrong-one-123");
    expect((await entries("action=auth.login")).count).toBeGreaterThanOrEqual(2);
  });

  it("settings changes with before/after, a secret's value never", async () => {
    expect((await api(t, t.adminToken, "PUT", "/settings/autoCloseHours", { value: "12" })).status).toBe(200);
    expect((await api(t, t.adminToken, "PUT", "/settings/mail_password", { value: "s3nha-do-smtp" })).status).toBe(200);
    const list = await entries("action=settings.update");
    expect(list.entries.find((e) => e.target === "setting:autoCloseHours")).toMatchObject({
      before: { key: "autoCloseHours", value: "24" },
      after: { key: "autoCloseHours", value: "12" },
    });
    expect(list.entries.find((e) => e.target === "setting:mail_password")).toMatchObject({
      after: { key: "mail_password", value: "[redacted]" },
    });
    const all = await api(t, t.adminToken, "GET", "/audit/export");
    expect(JSON.stringify(list)).not.toContain("s3nha-do-smtp");
    expect(all.body).not.toContain("s3nha-do-smtp");
  });

  it("permission changes, ticket transfers and deletions, message deletions, contact edits", async () => {
    const q1 = await createQueue(t, "Suporte");
    const q2 = await createQueue(t, "Financeiro");
    const agent = await t.createUser({ name: "Agente", queueIds: [q1] });
    expect((await api(t, t.adminToken, "PUT", `/users/${agent.id}`, { profile: "superv", queueIds: [q1, q2] })).status).toBe(200);
    const perm = (await entries("action=user.update")).entries.find((e) => e.target === `user:${agent.id}`);
    expect(perm).toMatchObject({ before: { profile: "user", queueIds: [q1] }, after: { profile: "superv", queueIds: [q1, q2] } });

    const sim = await pairedSimulator(t, { queueIds: [q1] });
    await customerSays(t, sim, "5511970001001", "oi");
    const [ticket] = await ticketOfContact(t, "5511970001001");
    expect((await api(t, t.adminToken, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: 1 })).status).toBe(200);
    const sent = await api(t, t.adminToken, "POST", `/messages/${ticket.id}`, { body: "apagar esta" });
    await settle(t);
    expect((await api(t, t.adminToken, "DELETE", `/messages/${sent.body[0].id}`)).status).toBe(200);
    expect(
      (await api(t, t.adminToken, "PUT", `/tickets/${ticket.id}`, { queueId: q2, userId: null, status: "pending", transf: true })).status,
    ).toBe(200);
    expect((await api(t, t.adminToken, "PUT", `/contacts/${ticket.contactId}`, { name: "Cliente Renomeado" })).status).toBe(200);
    expect((await api(t, t.adminToken, "DELETE", `/tickets/${ticket.id}`)).status).toBe(200);

    const byAction = async (action: string) => (await entries(`action=${action}`)).entries[0];
    expect(await byAction("message.delete")).toMatchObject({ target: `message:${sent.body[0].id}`, userId: 1 });
    expect(await byAction("ticket.transfer")).toMatchObject({
      target: `ticket:${ticket.id}`,
      before: { queueId: q1 },
      after: { queueId: q2 },
    });
    // by reference: which field changed, never the contact's data (docs/lgpd.md)
    expect(await byAction("contact.update")).toMatchObject({ after: { fields: ["name"] } });
    expect(JSON.stringify(await byAction("contact.update"))).not.toContain("Cliente Renomeado");
    expect(JSON.stringify(await byAction("message.delete"))).not.toContain("apagar esta");
    expect(await byAction("ticket.delete")).toMatchObject({ target: `ticket:${ticket.id}` });
  });
});

describe("GET /audit", () => {
  it("filters by action, user and dates, pages with hasMore, and is for admins only", async () => {
    for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
      await recordAudit(t.ctx.db, { actor: { id: 777, name: "Robô" }, action: "disparo.start", target: `disparos:${i}` });
    }
    const p1 = await entries("userId=777");
    expect(p1).toMatchObject({ count: AUDIT_PAGE_SIZE + 5, hasMore: true });
    expect(p1.entries).toHaveLength(AUDIT_PAGE_SIZE);
    const p2 = await entries("userId=777&pageNumber=2");
    expect(p2).toMatchObject({ hasMore: false });
    expect(p2.entries).toHaveLength(5);
    expect(new Set([...p1.entries, ...p2.entries].map((e) => e.id)).size).toBe(AUDIT_PAGE_SIZE + 5);
    expect((await entries("userId=777&to=2000-01-01")).count).toBe(0);
    expect((await entries("userId=777&from=2000-01-01")).count).toBe(AUDIT_PAGE_SIZE + 5);
    expect((await entries("userId=777&action=auth.login")).count).toBe(0);

    const agent = await t.createUser({ name: "Sem acesso" });
    expect((await api(t, agent.token, "GET", "/audit")).status).toBe(403);
    expect((await api(t, agent.token, "GET", "/audit/export")).status).toBe(403);
  });

  it("exports CSV with formulas neutralised, and the export is audited", async () => {
    await recordAudit(t.ctx.db, { actor: { id: 778, name: '=HYPERLINK("http://x")' }, action: "contact.update", target: "contact:1" });
    const res = await t.app.inject({ method: "GET", url: "/audit/export?userId=778", headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    const lines = res.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("id,at,userId,userName,action,target,before,after,ip");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect((await entries("action=audit.export")).entries[0]).toMatchObject({ userId: 1, after: { userId: 778 } });
  });
});

describe("append-only", () => {
  it("no route edits or deletes an entry", async () => {
    const [first] = (await entries("")).entries;
    for (const method of ["PUT", "DELETE", "PATCH"] as const) {
      const res = await t.app.inject({ method, url: `/audit/${first.id}`, headers: bearer(t.adminToken), payload: {} });
      expect(res.statusCode).toBe(404);
    }
    const res = await t.app.inject({ method: "DELETE", url: "/audit", headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(404);
  });

  it("the database refuses UPDATE, DELETE and TRUNCATE", async () => {
    const [{ n: before }] = (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_entries`)).rows;
    await refused(t.ctx.db.execute(sql`update audit_entries set user_name = 'outro'`));
    await refused(t.ctx.db.execute(sql`delete from audit_entries`));
    await refused(t.ctx.db.execute(sql`truncate audit_entries`));
    const [{ n: after }] = (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_entries`)).rows;
    expect(after).toBe(before);
    expect((await t.ctx.db.execute(sql`select 1 from audit_entries where user_name = 'outro'`)).rows).toHaveLength(0);
  });

  it("only the retention job deletes, and only entries past the setting's days", async () => {
    await t.ctx.db.execute(
      sql`insert into audit_entries (at, user_name, action, target) values (now() - interval '100 days', 'antigo', 'auth.login', 'user:1')`,
    );
    // an admin may not shorten the trail below the floor (yesterday's actions erased): 0 (forever) or 90 days and more
    const short = await api(t, t.adminToken, "PUT", "/settings/auditRetentionDays", { value: "30" });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe("ERR_VALIDATION");
    expect((await api(t, t.adminToken, "PUT", "/settings/auditRetentionDays", { value: "1" })).status).toBe(400);
    expect((await api(t, t.adminToken, "PUT", "/settings/auditRetentionDays", { value: "90" })).status).toBe(200);
    // the change itself is in the trail
    const changed = await entries("action=settings.update");
    expect(changed.entries.find((e) => e.target === "setting:auditRetentionDays")).toMatchObject({
      before: { key: "auditRetentionDays", value: "365" },
      after: { key: "auditRetentionDays", value: "90" },
    });
    // an older installation's stored value under the floor is read as the floor: a 40-day-old entry stays
    await t.ctx.db.execute(
      sql`insert into audit_entries (at, user_name, action, target) values (now() - interval '40 days', 'recente', 'auth.login', 'user:1')`,
    );
    await t.ctx.db.execute(sql`update settings set value = '30' where key = 'auditRetentionDays'`);
    const [{ n: recent }] = (
      await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_entries where at > now() - interval '90 days'`)
    ).rows;
    await t.jobs.enqueue(AUDIT_RETENTION_JOB);
    await eventually(
      async () => (await t.ctx.db.execute(sql`select 1 from audit_entries where user_name = 'antigo'`)).rows.length === 0,
      "the old entry purged",
    );
    const [{ n: left }] = (
      await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_entries where at > now() - interval '90 days'`)
    ).rows;
    expect(left).toBeGreaterThanOrEqual(recent);
    expect((await t.ctx.db.execute(sql`select 1 from audit_entries where user_name = 'recente'`)).rows).toHaveLength(1);
    // the purge's permission ended with its transaction
    await refused(t.ctx.db.execute(sql`delete from audit_entries`));
  });
});
