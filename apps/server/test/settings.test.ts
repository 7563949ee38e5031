import { randomBytes, scryptSync } from "node:crypto";
import { SETTING_DEFAULTS } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let agentToken: string;
beforeAll(async () => {
  t = await createTestApp();
  agentToken = (await t.createUser({ name: "Agente" })).token;
});
afterAll(() => t.teardown());

const put = (key: string, value: unknown, token = t.adminToken) =>
  t.app.inject({ method: "PUT", url: `/settings/${key}`, headers: bearer(token), payload: { value } });
const all = async (token: string) =>
  (await t.app.inject({ method: "GET", url: "/settings", headers: bearer(token) })).json() as {
    key: string;
    value: string;
    hasValue?: boolean;
  }[];

describe("settings", () => {
  it("an empty database starts with every key of both documents and the spec's defaults", async () => {
    const list = await all(t.adminToken);
    const byKey = Object.fromEntries(list.map((s) => [s.key, s.value]));
    for (const key of Object.keys(SETTING_DEFAULTS)) expect(byKey).toHaveProperty(key);
    expect(byKey).toMatchObject({
      topbarColor: "#001f3f",
      secondaryColor: "#6b74d7",
      enableContract: "disabled",
      mail_port: "587",
      mail_smtp_secure: "tls",
      integrationSystem: "SGP",
      loginPagePrimaryColor: "#003065",
      loginPageSecondaryColor: "#f0f0f0",
      darkMode: "disabled",
    });
  });

  it("secrets are write-only: stored, never sent back, with a flag saying whether one is set", async () => {
    expect((await put("mail_password", "smtp-secret-123")).statusCode).toBe(200);
    expect((await put("integrationToken", "tok-abc-987")).statusCode).toBe(200);
    const list = await all(t.adminToken);
    expect(JSON.stringify(list)).not.toContain("smtp-secret-123");
    expect(JSON.stringify(list)).not.toContain("tok-abc-987");
    expect(list.find((s) => s.key === "mail_password")).toEqual({ key: "mail_password", value: "", hasValue: true });
    expect(list.find((s) => s.key === "integrationToken")).toMatchObject({ value: "", hasValue: true });
  });

  it("emits the change on the socket without the secret", async () => {
    const seen: unknown[] = [];
    const off = t.ctx.events.on("setting.updated", (p) => seen.push(p.setting));
    await put("mail_password", "another-secret");
    off();
    expect(JSON.stringify(seen)).not.toContain("another-secret");
  });

  it("validates choices, numbers and colours", async () => {
    const bad = await put("enableContract", "maybe");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { value: [expect.stringContaining("enabled")] } });
    expect((await put("mail_port", "abc")).statusCode).toBe(400);
    expect((await put("mail_port", "70000")).statusCode).toBe(400);
    expect((await put("topbarColor", "red")).statusCode).toBe(400);
    expect((await put("topbarColor", "#112233")).json()).toEqual({ key: "topbarColor", value: "#112233" });
    expect((await put("integrationSystem", "MK-AUTH")).statusCode).toBe(200);
    expect((await put("mail_port", 465)).statusCode).toBe(400); // wrong type: value is a string
  });

  it("an unknown key answers ERR_NO_SETTING_FOUND and read-only keys cannot be written", async () => {
    const res = await put("doesNotExist", "x");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "ERR_NO_SETTING_FOUND" });
    expect((await put("userApiToken", "x")).statusCode).toBe(403);
  });

  it("only admins change settings", async () => {
    const res = await put("darkMode", "enabled", agentToken);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
  });

  it("GET /colors/ is public and follows the settings", async () => {
    await put("loginPagePrimaryColor", "#101010");
    const res = await t.app.inject({ method: "GET", url: "/colors/" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ loginPagePrimaryColor: "#101010", loginPageSecondaryColor: "#f0f0f0", topbarColor: "#112233" });
  });

  it("the settings password is checked by the server (created first, then asked)", async () => {
    const unlock = (password: string, token = t.adminToken) =>
      t.app.inject({ method: "POST", url: "/settings/unlock", headers: bearer(token), payload: { password } });
    expect((await unlock("admin123")).json()).toEqual({ error: "ERR_SETTINGS_PASSWORD_NOT_SET" });
    expect((await put("settingsPassword", "cofre-42")).json()).toEqual({ key: "settingsPassword", value: "", hasValue: true });
    expect((await unlock("admin123")).statusCode).toBe(403);
    expect((await unlock("cofre-42")).json()).toMatchObject({ ok: true, settingsToken: expect.any(String) });
    expect((await unlock("cofre-42", agentToken)).statusCode).toBe(403);
  });

  it("a settings password hashed with older parameters is re-hashed with today's when it unlocks", async () => {
    const unlock = (password: string) =>
      t.app.inject({ method: "POST", url: "/settings/unlock", headers: bearer(t.adminToken), payload: { password } });
    const stored = async () =>
      (await t.ctx.db.execute<{ value: string }>(sql`select value from settings where key = 'settingsPassword'`)).rows[0].value;
    const salt = randomBytes(16);
    const key = scryptSync("cofre-antigo", salt, 32, { N: 16384, r: 8, p: 1 });
    const old = `scrypt$16384$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    await t.ctx.db.execute(
      sql`insert into settings (key, value) values ('settingsPassword', ${old}) on conflict (key) do update set value = excluded.value`,
    );
    // a wrong password leaves the old hash alone
    expect((await unlock("cofre-errado")).statusCode).toBe(403);
    expect(await stored()).toBe(old);
    expect((await unlock("cofre-antigo")).json()).toMatchObject({ ok: true });
    const upgraded = await stored();
    expect(upgraded).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect((await unlock("cofre-antigo")).json()).toMatchObject({ ok: true });
    expect(await stored()).toBe(upgraded);
  });
});
