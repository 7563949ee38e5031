import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { createTestDatabase, testConfig } from "./helpers.js";

let app: Awaited<ReturnType<typeof buildApp>>;
let drop: () => Promise<void>;
const INDEX = "<!doctype html><title>Balcão</title><div id=root></div>";
const SCRIPT = `export const words = ${JSON.stringify("balcão ".repeat(500))};`;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), "balcao-dist-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), INDEX);
  writeFileSync(join(dist, "assets", "index-abc123.js"), "console.log(1)");
  // what the build writes beside each text file: its brotli and gzip forms
  writeFileSync(join(dist, "assets", "big-def456.js"), SCRIPT);
  writeFileSync(join(dist, "assets", "big-def456.js.br"), brotliCompressSync(SCRIPT));
  writeFileSync(join(dist, "assets", "big-def456.js.gz"), gzipSync(SCRIPT));
  writeFileSync(join(dist, "index.html.gz"), gzipSync(INDEX));
  writeFileSync(join(dist, "logo.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  writeFileSync(join(dist, "favicon.ico"), "ico");
  const db = await createTestDatabase();
  drop = db.drop;
  app = await buildApp(testConfig({ WEB_DIST: dist }), { database: db.database, logger: false });
});
afterAll(async () => {
  await app.close();
  await drop();
});

describe("one process serves the API and the built web app", () => {
  it("a browser navigation to an SPA route gets index.html, the API client gets the API", async () => {
    const page = await app.app.inject({ method: "GET", url: "/contacts", headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("<div id=root>");
    const api = await app.app.inject({ method: "GET", url: "/contacts", headers: { accept: "application/json" } });
    expect(api.statusCode).toBe(401);
    expect(api.json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
    const deep = await app.app.inject({ method: "GET", url: "/tickets/42", headers: { accept: "text/html" } });
    expect(deep.body).toContain("<div id=root>");
  });

  it("serves the build's files, hashed assets cached for good", async () => {
    const asset = await app.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
    expect((await app.app.inject({ method: "GET", url: "/logo.svg" })).statusCode).toBe(200);
    expect((await app.app.inject({ method: "GET", url: "/favicon.ico" })).statusCode).toBe(200);
    const missing = await app.app.inject({ method: "GET", url: "/assets/nope.js" });
    expect(missing.statusCode).toBe(404);
  });
});

describe("pages the server renders itself are not swallowed by the app", () => {
  const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

  it("a browser opening /simulator gets the simulator page", async () => {
    const page = await app.app.inject({ method: "GET", url: "/simulator", headers: html });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Simulador de WhatsApp");
    expect(page.body).not.toContain("<div id=root>");
    const withQuery = await app.app.inject({ method: "GET", url: "/simulator?connection=1", headers: html });
    expect(withQuery.body).toContain("Simulador de WhatsApp");
    // its API stays an API for a browser too
    const api = await app.app.inject({ method: "GET", url: "/simulator/api/connections", headers: html });
    expect(api.statusCode).toBe(401);
  });

  it("the API reference, its JSON and the health check answer themselves", async () => {
    const docs = await app.app.inject({ method: "GET", url: "/api-docs", headers: html });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain("swagger-ui");
    expect(docs.body).not.toContain("<div id=root>");
    const json = await app.app.inject({ method: "GET", url: "/api-docs/json", headers: html });
    expect(json.json()).toHaveProperty("openapi");
    const health = await app.app.inject({ method: "GET", url: "/health", headers: html });
    expect(health.json()).toMatchObject({ ok: true });
  });
});

describe("the app's root answers the app", () => {
  it("whatever the client accepts, unless it asks for JSON", async () => {
    for (const headers of [{}, { accept: "*/*" }, { accept: "text/html" }]) {
      const res = await app.app.inject({ method: "GET", url: "/", headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toContain("<div id=root>");
    }
    const head = await app.app.inject({ method: "HEAD", url: "/" });
    expect(head.statusCode).toBe(200);
    const json = await app.app.inject({ method: "GET", url: "/", headers: { accept: "application/json" } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ error: "ERR_NOT_FOUND" });
  });
});

describe("the build's text files travel compressed", () => {
  it("brotli or gzip by the client's Accept-Encoding, the same bytes once decoded, cached for good", async () => {
    const br = await app.app.inject({ method: "GET", url: "/assets/big-def456.js", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toContain("javascript");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(br.headers["content-length"])).toBeLessThan(Buffer.byteLength(SCRIPT) / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await app.app.inject({ method: "GET", url: "/assets/big-def456.js", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["cache-control"]).toContain("immutable");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await app.app.inject({ method: "GET", url: "/assets/big-def456.js", headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("accept-encoding");
    expect(plain.body).toBe(SCRIPT);
  });

  it("a file built without compressed forms is sent as it is; index.html is compressed too, never cached", async () => {
    const small = await app.app.inject({ method: "GET", url: "/assets/index-abc123.js", headers: { "accept-encoding": "br, gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body).toBe("console.log(1)");
    const page = await app.app.inject({ method: "GET", url: "/tickets", headers: { accept: "text/html", "accept-encoding": "gzip, br" } });
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers.vary).toContain("accept-encoding");
    expect(gunzipSync(page.rawPayload).toString()).toBe(INDEX);
  });
});
