// Issue 53 item 4: the public address links and URLs start with behind a proxy (PUBLIC_URL, the
// setting publicUrl), the Cloud API webhook URL built on it, and the warnings when it is not HTTPS
// or not reachable from the internet.
import { normalizePublicUrl, publicUrlWarnings } from "@balcao/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: "https://balcao.provedor.test/" });
});
afterAll(() => t.teardown());

const put = (value: string) =>
  t.app.inject({ method: "PUT", url: "/settings/publicUrl", headers: bearer(t.adminToken), payload: { value } });
const info = async () => (await t.app.inject({ method: "GET", url: "/settings/public-url", headers: bearer(t.adminToken) })).json();

describe("the public address", () => {
  it("PUBLIC_URL gives the webhook URL shown in the connection dialog, without warnings when public HTTPS", async () => {
    expect(await info()).toEqual({
      url: "https://balcao.provedor.test",
      source: "env",
      webhookUrl: "https://balcao.provedor.test/webhooks/whatsapp",
      warnings: [],
      warning: null,
    });
  });

  it("the setting wins when filled; plain http or an internal host is warned about in Portuguese", async () => {
    expect((await put("http://10.0.0.5:8080/balcao/")).json()).toEqual({ key: "publicUrl", value: "http://10.0.0.5:8080/balcao" });
    const got = await info();
    expect(got).toMatchObject({
      url: "http://10.0.0.5:8080/balcao",
      source: "setting",
      webhookUrl: "http://10.0.0.5:8080/balcao/webhooks/whatsapp",
      warnings: ["private", "not_https"],
    });
    expect(got.warning).toContain("O endereço público não usa HTTPS: o WhatsApp Cloud API e os links de assinatura precisam de HTTPS.");
    expect(got.warning).toContain("rede interna");
    // cleared: PUBLIC_URL again
    expect((await put("")).statusCode).toBe(200);
    expect((await info()).source).toBe("env");
  });

  it("an invalid value is refused with 400 ERR_VALIDATION and nothing changes", async () => {
    for (const value of [
      "balcao.provedor.test",
      "https://x.test/?a=1",
      "https://u:p@x.test",
      "ftp://x.test",
      "https://x.test/#a",
      "javascript:alert(1)",
    ]) {
      const res = await put(value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json(), value).toMatchObject({ error: "ERR_VALIDATION", fields: { value: [expect.any(String)] } });
    }
    expect((await info()).url).toBe("https://balcao.provedor.test");
  });

  it("agents read it (the API page's examples) but only admins change it", async () => {
    const agent = await t.createUser({ name: "Agente" });
    const res = await t.app.inject({ method: "GET", url: "/settings/public-url", headers: bearer(agent.token) });
    expect(res.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/settings/publicUrl",
          headers: bearer(agent.token),
          payload: { value: "https://x.test" },
        })
      ).statusCode,
    ).toBe(403);
  });

  it("an invalid PUBLIC_URL stops the server at start, naming it", () => {
    expect(() => loadConfig({ DATA_DIR: "/tmp/balcao-cfg-test", PUBLIC_URL: "balcao.provedor.test" })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ DATA_DIR: "/tmp/balcao-cfg-test", PUBLIC_URL: "HTTPS://Balcao.Test:8443/x/" }).PUBLIC_URL).toBe(
      "https://balcao.test:8443/x",
    );
  });

  it("names a local or internal host and plain http", () => {
    expect(normalizePublicUrl("https://[::1]:8080/")).toBe("https://[::1]:8080");
    for (const url of [
      "https://localhost",
      "https://127.0.0.1:8080",
      "https://192.168.0.10",
      "https://balcao",
      "https://balcao.local",
      "https://[fd00::1]",
    ])
      expect(publicUrlWarnings(url), url).toContain("private");
    expect(publicUrlWarnings("http://atendimento.provedor.com.br")).toEqual(["not_https"]);
    expect(publicUrlWarnings("https://8.8.8.8")).toEqual([]);
  });
});

describe("without PUBLIC_URL nor the setting", () => {
  it("the address the request came to (what a proxy without TRUST_PROXY turns into 127.0.0.1), warned about", async () => {
    const bare = await createTestApp();
    try {
      const got = (
        await bare.app.inject({
          method: "GET",
          url: "/settings/public-url",
          headers: { ...bearer(bare.adminToken), host: "127.0.0.1:8080" },
        })
      ).json();
      expect(got).toMatchObject({ url: "http://127.0.0.1:8080", source: "request", webhookUrl: "http://127.0.0.1:8080/webhooks/whatsapp" });
      expect(got.warnings).toEqual(["private", "not_https"]);
    } finally {
      await bare.teardown();
    }
  });
});
