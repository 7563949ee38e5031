import { AGENT_SETTING_KEYS } from "@balcao/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./conversation-kit.js";
import { type FakeRequest, json, startFake } from "./fakes/http-fake.js";
import { SGP_APP, SGP_TOKEN, startFakeSgp } from "./fakes/sgp.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * Issue 33, items 1, 3 and 4: a saved secret never leaves for a new address (a listener on
 * 127.0.0.1 stands for an outside server and records what arrives), outgoing requests refuse
 * loopback with ALLOWED_PRIVATE_HOSTS unset, and agents read only the settings their screens use.
 */

let t: TestApp;
let sgp: Awaited<ReturnType<typeof startFakeSgp>>;
let outside: Awaited<ReturnType<typeof startFake>>;

/** Every secret-looking thing that reached the outside server. */
const leaked = (requests: FakeRequest[]) => requests.map((r) => `${r.raw} ${r.headers.authorization ?? ""} ${r.query}`).join("\n");

beforeAll(async () => {
  sgp = await startFakeSgp();
  outside = await startFake((_req, res) => json(res, 200, { ok: true }));
  t = await createTestApp();
  for (const [key, value] of [
    ["integrationSystem", "SGP"],
    ["integrationUrl", sgp.url],
    ["integrationApp", SGP_APP],
    ["integrationToken", SGP_TOKEN],
    ["mail_host", "smtp.provedor.example"],
    ["mail_username", "avisos@provedor.example"],
  ])
    expect((await api(t, t.adminToken, "PUT", `/settings/${key}`, { value })).status).toBe(200);
});
afterAll(async () => {
  await t.teardown();
  await sgp.close();
  await outside.close();
});

describe("'Testar conexão' of the billing system", () => {
  it("with the saved URL and a blank token, tests the saved settings", async () => {
    const res = await api(t, t.adminToken, "POST", "/billing/test", { system: "SGP", url: sgp.url, app: SGP_APP, token: "" });
    expect(res.body).toMatchObject({ ok: true, system: "SGP" });
  });

  it("never sends the saved token to another URL: the token must be typed, and nothing is sent", async () => {
    for (const system of ["SGP", "MK-AUTH"] as const) {
      const res = await api(t, t.adminToken, "POST", "/billing/test", { system, url: outside.url, app: SGP_APP, token: "" });
      expect(res.body).toEqual({
        ok: false,
        system,
        detail: "Digite o token/Client_Secret para testar esta URL: o token salvo só é enviado para a URL salva. Nada foi enviado.",
        technical: "ERR_SECRET_NEEDS_RETYPE",
      });
    }
    expect(outside.requests).toHaveLength(0);
  });

  it("sends the typed token to the typed URL, never the saved one", async () => {
    await api(t, t.adminToken, "POST", "/billing/test", {
      system: "SGP",
      url: `${outside.url}/`,
      app: "outro-app",
      token: "digitado-agora",
    });
    expect(outside.requests.length).toBeGreaterThan(0);
    expect(leaked(outside.requests)).toContain("digitado-agora");
    expect(leaked(outside.requests)).not.toContain(SGP_TOKEN);
  });

  it("the form's values are tested, not the saved ones (a typed app with the saved URL and token)", async () => {
    const before = sgp.requests.length;
    const res = await api(t, t.adminToken, "POST", "/billing/test", { system: "SGP", url: sgp.url, app: "app-errado", token: "" });
    expect(res.body).toMatchObject({ ok: false });
    expect(sgp.requests.slice(before).some((r) => r.body.app === "app-errado")).toBe(true);
  });

  it("a closed port: what failed and what to check in Portuguese, our code second, never the socket's text", async () => {
    const closed = await startFake(() => {});
    await closed.close();
    const res = await api(t, t.adminToken, "POST", "/billing/test", { system: "SGP", url: closed.url, app: SGP_APP, token: "x-typed" });
    const host = new URL(closed.url).host;
    expect(res.body).toEqual({
      ok: false,
      system: "SGP",
      detail: `Não foi possível conectar a ${host}. Confira a URL e a porta, e se este servidor alcança o sistema (firewall, VPN).`,
      technical: expect.stringMatching(/^ERR_OUTGOING_UNREACHABLE/),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|connect /);
  });
});

describe("with ALLOWED_PRIVATE_HOSTS unset (the default)", () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "" });
  });
  afterAll(() => strict.teardown());

  it("the billing test refuses loopback addresses and localhost without connecting, and says how to allow them", async () => {
    const port = new URL(outside.url).port;
    for (const url of [outside.url, `http://localhost:${port}`, `http://[::1]:${port}`, "http://169.254.169.254"]) {
      const res = await api(strict, strict.adminToken, "POST", "/billing/test", { system: "SGP", url, app: "a", token: "typed-token" });
      expect(res.body.ok).toBe(false);
      expect(res.body.detail).toMatch(/endereço da rede interna .* ALLOWED_PRIVATE_HOSTS/);
      expect(res.body.technical).toMatch(/^ERR_OUTGOING_PRIVATE_ADDRESS/);
    }
    // an open port and a closed one answer the same
    const closed = await startFake(() => {});
    await closed.close();
    const a = await api(strict, strict.adminToken, "POST", "/billing/test", { system: "SGP", url: outside.url, app: "a", token: "t" });
    const b = await api(strict, strict.adminToken, "POST", "/billing/test", { system: "SGP", url: closed.url, app: "a", token: "t" });
    expect(a.body.detail.replace(/:\d+/, "")).toBe(b.body.detail.replace(/:\d+/, ""));
    expect(a.body.technical).toBe(b.body.technical);
    expect(outside.requests.filter((r) => r.raw.includes("typed-token"))).toHaveLength(0);
  });
});

describe("GET /settings for an agent", () => {
  it("answers only what an agent's screens read: no mail server, no integration URL or app", async () => {
    const agent = await t.createUser({ name: "Agente" });
    const supervisor = await t.createUser({ name: "Supervisora", profile: "superv" });
    for (const token of [agent.token, supervisor.token]) {
      const rows = (await api(t, token, "GET", "/settings")).body as { key: string; value: string }[];
      const keys = rows.map((r) => r.key);
      for (const hidden of ["mail_host", "mail_port", "mail_username", "integrationUrl", "integrationApp", "integrationToken"])
        expect(keys).not.toContain(hidden);
      expect(keys.every((k) => (AGENT_SETTING_KEYS as readonly string[]).includes(k))).toBe(true);
      expect(keys).toEqual(expect.arrayContaining(["darkMode", "timezone", "topbarColor", "enableContract"]));
      expect(JSON.stringify(rows)).not.toContain(sgp.url);
    }
    const admin = ((await api(t, t.adminToken, "GET", "/settings")).body as { key: string }[]).map((r) => r.key);
    expect(admin).toEqual(expect.arrayContaining(["mail_host", "integrationUrl", "integrationApp"]));
  });
});
