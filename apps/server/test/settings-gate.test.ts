import { readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settings } from "../src/db/schema/index.js";
import { multipart } from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
/** An ICO header with one 16×16 entry pointing at a PNG. */
const ICO = Buffer.concat([
  Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]),
  Buffer.from([PNG.length & 0xff, PNG.length >> 8, 0, 0, 22, 0, 0, 0]),
  PNG,
]);
const CLEAN_SVG =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#003065"/></svg>';
const SCRIPT_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/settings")</script><rect width="1" height="1"/></svg>';
const HANDLER_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" onload="alert(1)"/></svg>';

const time = fakeClock();
let t: TestApp;
let otherAdmin: string;
let agent: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_PER_EMAIL: "5" }, { clock: time.clock });
  otherAdmin = (await t.createUser({ name: "Outra Admin", profile: "admin" })).token;
  agent = (await t.createUser({ name: "Agente" })).token;
});
afterAll(() => t.teardown());

type Headers = Record<string, string>;
const withToken = (settingsToken?: string, user = t.adminToken): Headers => ({
  ...bearer(user),
  ...(settingsToken !== undefined && { "x-settings-token": settingsToken }),
});
const put = (key: string, value: string, headers: Headers = withToken()) =>
  t.app.inject({ method: "PUT", url: `/settings/${key}`, headers, payload: { value } });
const unlock = (password: string, user = t.adminToken) =>
  t.app.inject({ method: "POST", url: "/settings/unlock", headers: bearer(user), payload: { password } });
const upload = (url: string, field: string, name: string, type: string, data: Buffer, headers: Headers = withToken(token)) => {
  const form = multipart({}, [{ field, name, type, data }]);
  return t.app.inject({ method: "POST", url, headers: { ...headers, ...form.headers }, payload: form.payload });
};
const settingsList = async () =>
  (await t.app.inject({ method: "GET", url: "/settings", headers: bearer(t.adminToken) })).json() as {
    key: string;
    value: string;
    hasValue?: boolean;
  }[];
const settingOf = async (key: string) => (await settingsList()).find((s) => s.key === key);

/** Every route the gate guards, called with the given headers. */
const guarded: { name: string; call: (h: Headers) => ReturnType<typeof put> }[] = [
  { name: "PUT /settings/topbarColor", call: (h) => put("topbarColor", "#224466", h) },
  { name: "PUT /settings/settingsPassword", call: (h) => put("settingsPassword", "outra-senha-9", h) },
  { name: "POST /upload/login", call: (h) => upload("/upload/login", "file", "logo.png", "image/png", PNG, h) },
  { name: "POST /email/upload", call: (h) => upload("/email/upload", "image", "logo.png", "image/png", PNG, h) },
  { name: "POST /email/test", call: (h) => t.app.inject({ method: "POST", url: "/email/test", headers: h, payload: {} }) },
  { name: "POST /settings/userApiToken", call: (h) => t.app.inject({ method: "POST", url: "/settings/userApiToken", headers: h }) },
  // the tests of saved settings sit behind the gate like the settings they test
  { name: "POST /billing/test", call: (h) => t.app.inject({ method: "POST", url: "/billing/test", headers: h, payload: {} }) },
];

describe("the settings gate ('Acesso restrito')", () => {
  it("with no settings password yet, settings change without a token and the unlock asks for one to be created", async () => {
    expect((await put("topbarColor", "#123456")).statusCode).toBe(200);
    const res = await unlock("admin123");
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: "ERR_SETTINGS_PASSWORD_NOT_SET" });
    expect(await settingOf("settingsPassword")).toEqual({ key: "settingsPassword", value: "", hasValue: false });
  });

  it("the first admin creates the password; it is kept hashed and never sent back", async () => {
    expect((await put("settingsPassword", "123")).statusCode).toBe(400); // too short
    const res = await put("settingsPassword", "cofre-forte-42");
    expect(res.json()).toEqual({ key: "settingsPassword", value: "", hasValue: true });
    expect(JSON.stringify(await settingsList())).not.toContain("cofre-forte-42");
    const [row] = await t.ctx.db.select().from(settings).where(eq(settings.key, "settingsPassword"));
    const stored = row?.value ?? "";
    expect(stored).not.toContain("cofre-forte-42");
    expect(stored.length).toBeGreaterThan(20);
  });

  it("every guarded route answers 403 ERR_SETTINGS_LOCKED without a token", async () => {
    for (const route of guarded) {
      const res = await route.call(withToken());
      expect({ route: route.name, status: res.statusCode, body: res.json() }).toEqual({
        route: route.name,
        status: 403,
        body: { error: "ERR_SETTINGS_LOCKED" },
      });
    }
    // a made-up token is no better
    expect((await put("topbarColor", "#224466", withToken("1.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))).statusCode).toBe(
      403,
    );
    // the top bar's dark-mode switch is not gated
    expect((await put("darkMode", "disabled")).statusCode).toBe(200);
  });

  it("a wrong password answers ERR_WRONG_SETTINGS_PASSWORD ('Senha incorreta!'); the right one a token bound to the admin", async () => {
    const wrong = await unlock("admin123");
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: "ERR_WRONG_SETTINGS_PASSWORD" });
    const res = await unlock("cofre-forte-42");
    expect(res.statusCode).toBe(200);
    const body = res.json() as { ok: boolean; settingsToken: string; expiresInSeconds: number };
    expect(body.ok).toBe(true);
    expect(body.expiresInSeconds).toBeGreaterThan(0);
    token = body.settingsToken;
    expect((await put("topbarColor", "#224466", withToken(token))).json()).toEqual({ key: "topbarColor", value: "#224466" });
  });

  it("another admin's token does not open the gate for this admin, and agents cannot unlock at all", async () => {
    const theirs = (await unlock("cofre-forte-42", otherAdmin)).json().settingsToken as string;
    expect((await put("topbarColor", "#335577", withToken(theirs, otherAdmin))).statusCode).toBe(200);
    for (const route of guarded) {
      const res = await route.call(withToken(theirs));
      expect([route.name, res.statusCode, res.json().error]).toEqual([route.name, 403, "ERR_SETTINGS_LOCKED"]);
    }
    expect((await unlock("cofre-forte-42", agent)).statusCode).toBe(403);
    expect((await put("topbarColor", "#335577", withToken(token, agent))).json()).toEqual({ error: "ERR_NO_PERMISSION" });
  });

  it("an expired token is refused on every guarded route", async () => {
    const early = (await unlock("cofre-forte-42")).json().settingsToken as string;
    time.advance(16 * 60 * 1000);
    for (const route of guarded) {
      const res = await route.call(withToken(early));
      expect([route.name, res.statusCode, res.json().error]).toEqual([route.name, 403, "ERR_SETTINGS_LOCKED"]);
    }
    token = (await unlock("cofre-forte-42")).json().settingsToken;
  });

  it("repeated wrong passwords are rate-limited (429 with Retry-After)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await unlock(`errada-${i}`, otherAdmin)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    const limited = await unlock("cofre-forte-42", otherAdmin);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("changing the settings password needs a token, and closes the tokens given under the old one", async () => {
    const res = await put("settingsPassword", "nova-senha-77", withToken(token));
    expect(res.statusCode).toBe(200);
    expect((await put("topbarColor", "#446688", withToken(token))).json()).toEqual({ error: "ERR_SETTINGS_LOCKED" });
    expect((await unlock("cofre-forte-42")).statusCode).toBe(403);
    token = (await unlock("nova-senha-77")).json().settingsToken;
    expect((await put("topbarColor", "#446688", withToken(token))).statusCode).toBe(200);
  });
});

describe("logos and favicon (POST /upload/{key}, field file)", () => {
  const brandingFiles = () => readdirSync(join(t.config.dataDir, "branding"));

  it("a real PNG is stored under a new name, served as image/png and used by /colors at once", async () => {
    const res = await upload("/upload/login", "file", "minha logo.png", "image/png", PNG);
    expect(res.statusCode).toBe(200);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(/^\/branding\/[a-f0-9]{32}\.png$/);
    expect(url).not.toContain("minha");
    const served = await t.app.inject({ method: "GET", url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: "/colors" })).json()).toMatchObject({ logoLogin: url });
    // a new logo replaces the old file
    const again = (await upload("/upload/login", "file", "logo2.png", "image/png", PNG)).json().url as string;
    expect(again).not.toBe(url);
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(404);
    expect(brandingFiles()).toContain(again.slice("/branding/".length));
  });

  it("a text file named .png is refused by its bytes", async () => {
    const before = brandingFiles().length;
    const res = await upload("/upload/dashboard", "file", "logo.png", "image/png", Buffer.from("isto não é uma imagem\n".repeat(50)));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_INVALID_FILE" });
    expect(brandingFiles().length).toBe(before);
    expect(await settingOf("logoDashboard")).toEqual({ key: "logoDashboard", value: "" });
  });

  it("an image over 1 MiB answers 413 and nothing is kept", async () => {
    const before = brandingFiles().length;
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10, 0)]);
    const res = await upload("/upload/mensagem", "file", "grande.png", "image/png", big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: "ERR_PAYLOAD_TOO_LARGE" });
    expect(brandingFiles().length).toBe(before);
  });

  it("an SVG with a script or an event handler is refused; a clean one is served as SVG under a sandboxing CSP", async () => {
    for (const svg of [SCRIPT_SVG, HANDLER_SVG]) {
      const res = await upload("/upload/dashboard", "file", "logo.svg", "image/svg+xml", Buffer.from(svg));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_INVALID_FILE" });
    }
    const ok = await upload("/upload/dashboard", "file", "logo.svg", "image/svg+xml", Buffer.from(CLEAN_SVG));
    expect(ok.statusCode).toBe(200);
    const served = await t.app.inject({ method: "GET", url: ok.json().url });
    expect(served.headers["content-type"]).toBe("image/svg+xml");
    expect(served.headers["content-security-policy"]).toContain("sandbox");
  });

  it("the favicon takes an ICO; logos do not, and an unknown key is refused", async () => {
    const ico = await upload("/upload/favicon", "file", "favicon.ico", "image/x-icon", ICO);
    expect(ico.statusCode).toBe(200);
    expect(ico.json().url).toMatch(/\.ico$/);
    expect((await t.app.inject({ method: "GET", url: ico.json().url })).headers["content-type"]).toBe("image/x-icon");
    expect((await t.app.inject({ method: "GET", url: "/colors" })).json()).toMatchObject({ favicon: ico.json().url });
    expect((await upload("/upload/login", "file", "favicon.ico", "image/x-icon", ICO)).statusCode).toBe(400);
    expect((await upload("/upload/whatever", "file", "logo.png", "image/png", PNG)).statusCode).toBe(400);
  });

  it("POST /email/upload takes a PNG in field image and answers its url; SVG is not for e-mails", async () => {
    const res = await upload("/email/upload", "image", "logo.png", "image/png", PNG);
    expect(res.statusCode).toBe(200);
    const { url } = res.json() as { url: string };
    const served = await t.app.inject({ method: "GET", url });
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["cross-origin-resource-policy"]).toBe("cross-origin"); // mail clients load it
    expect((await put("mail_logo", url, withToken(token))).json()).toEqual({ key: "mail_logo", value: url });
    expect((await upload("/email/upload", "image", "x.svg", "image/svg+xml", Buffer.from(CLEAN_SVG))).statusCode).toBe(400);
    expect((await put("mail_logo", "javascript:alert(1)", withToken(token))).statusCode).toBe(400);
  });
});

describe("other settings rules", () => {
  it("witness CPFs keep digits only and need valid check digits", async () => {
    const h = withToken(token);
    expect((await put("contrato_cpf1", "529.982.247-25", h)).json()).toEqual({ key: "contrato_cpf1", value: "52998224725" });
    expect((await put("contrato_cpf1", "52998224724", h)).statusCode).toBe(400);
    expect((await put("contrato_cpf2", "111.111.111-11", h)).statusCode).toBe(400);
    expect((await put("contrato_cpf2", "1234567890123", h)).statusCode).toBe(400);
    expect((await put("contrato_cpf2", "", h)).statusCode).toBe(200);
  });

  it("'Gerar novo' answers a new API token once; only a hash is kept", async () => {
    const res = await t.app.inject({ method: "POST", url: "/settings/userApiToken", headers: withToken(token) });
    const { token: apiToken } = res.json() as { token: string };
    expect(apiToken.length).toBeGreaterThanOrEqual(40);
    expect(JSON.stringify(await settingsList())).not.toContain(apiToken);
    expect(await settingOf("userApiToken")).toEqual({ key: "userApiToken", value: "", hasValue: true });
    expect((await put("userApiToken", "x", withToken(token))).statusCode).toBe(403);
  });

  it("the CSP lets frames load exactly the origin of financeBaseUrl", async () => {
    const before = (await t.app.inject({ method: "GET", url: "/colors" })).headers["content-security-policy"] as string;
    expect(before).toContain("frame-src 'self' blob:;");
    expect((await put("financeBaseUrl", "ftp://x", withToken(token))).statusCode).toBe(400);
    expect((await put("financeBaseUrl", "https://financeiro.provedor.com.br/app/", withToken(token))).statusCode).toBe(200);
    const csp = (await t.app.inject({ method: "GET", url: "/colors" })).headers["content-security-policy"] as string;
    expect(csp).toContain("frame-src 'self' blob: https://financeiro.provedor.com.br;");
    expect(csp).not.toMatch(/frame-src[^;]*https:(?!\/\/)/);
  });
});
