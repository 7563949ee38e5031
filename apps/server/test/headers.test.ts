import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** Issue 12, item 14: security headers, origins for CORS and sockets, the API reference in production. */

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ CORS_ORIGINS: "https://painel.example.com" });
  url = await listen(t);
});
afterAll(() => t.teardown());

function socketWithOrigin(token: string, origin?: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(url, {
      auth: { token },
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
      ...(origin && { extraHeaders: { origin } }),
    });
    s.on("connect", () => {
      s.disconnect();
      resolve("connected");
    });
    s.on("connect_error", (e) => resolve(`refused: ${e.message}`));
  });
}

describe("headers", () => {
  it("every answer carries a CSP, nosniff, a frame rule and a referrer policy", async () => {
    for (const u of ["/colors", "/queue", "/nope"]) {
      const res = await t.app.inject({ method: "GET", url: u, headers: bearer(t.adminToken) });
      expect(res.headers["content-security-policy"], u).toContain("default-src 'self'");
      expect(res.headers["content-security-policy"], u).toContain("frame-ancestors 'none'");
      expect(res.headers["content-security-policy"], u).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers["x-content-type-options"], u).toBe("nosniff");
      expect(res.headers["x-frame-options"], u).toBe("DENY");
      expect(res.headers["referrer-policy"], u).toBe("same-origin");
    }
  });

  it("the simulator page allows its own inline script by hash, not any inline script", async () => {
    const res = await t.app.inject({ method: "GET", url: "/simulator" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});

describe("origins", () => {
  it("a socket from another site is refused; from the app's own origin or a CORS_ORIGINS one it connects", async () => {
    expect(await socketWithOrigin(t.adminToken, "https://evil.example")).toMatch(/^refused/);
    expect(await socketWithOrigin(t.adminToken, url)).toBe("connected");
    expect(await socketWithOrigin(t.adminToken, "https://painel.example.com")).toBe("connected");
    expect(await socketWithOrigin(t.adminToken)).toBe("connected");
  });

  it("CORS answers the listed origins only", async () => {
    const listed = await t.app.inject({
      method: "OPTIONS",
      url: "/tickets",
      headers: { origin: "https://painel.example.com", "access-control-request-method": "GET" },
    });
    expect(listed.statusCode).toBe(204);
    expect(listed.headers["access-control-allow-origin"]).toBe("https://painel.example.com");
    expect(listed.headers["access-control-allow-credentials"]).toBe("true");
    const other = await t.app.inject({ method: "GET", url: "/colors", headers: { origin: "https://evil.example" } });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("guards run before the body is read: an anonymous caller learns nothing of the schema", async () => {
    const res = await t.app.inject({ method: "POST", url: "/queue", payload: { name: 42 } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
  });
});

describe("the API reference in production", () => {
  let p: TestApp;
  let agentToken: string;
  beforeAll(async () => {
    p = await createTestApp({ NODE_ENV: "production", ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "root-pass-1" });
    agentToken = (await p.createUser({ profile: "user" })).token;
  });
  afterAll(() => p.teardown());

  it("the document is for signed-in admins only", async () => {
    expect((await p.app.inject({ method: "GET", url: "/api-docs/json" })).statusCode).toBe(401);
    expect((await p.app.inject({ method: "GET", url: "/api-docs/json", headers: bearer(agentToken) })).statusCode).toBe(403);
    const doc = await p.app.inject({ method: "GET", url: "/api-docs/json", headers: bearer(p.adminToken) });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
  });

  it("a browser navigation gets a gate that trades the web app's token for a docs cookie", async () => {
    const gate = await p.app.inject({ method: "GET", url: "/api-docs", headers: { accept: "text/html" } });
    expect(gate.statusCode).toBe(401);
    expect(gate.body).toContain("/api-docs/session");
    expect(gate.body).not.toContain("openapi");
    expect((await p.app.inject({ method: "POST", url: "/api-docs/session", headers: bearer(agentToken) })).statusCode).toBe(403);
    const session = await p.app.inject({ method: "POST", url: "/api-docs/session", headers: bearer(p.adminToken) });
    expect(session.statusCode).toBe(204);
    const cookie = String(session.headers["set-cookie"]);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api-docs/);
    const doc = await p.app.inject({ method: "GET", url: "/api-docs/json", headers: { cookie: cookie.split(";")[0] } });
    expect(doc.statusCode).toBe(200);
    const page = await p.app.inject({ method: "GET", url: "/api-docs/", headers: { cookie: cookie.split(";")[0], accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("swagger");
  });
});
