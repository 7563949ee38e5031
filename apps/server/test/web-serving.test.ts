import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { createTestDatabase, testConfig } from "./helpers.js";

let app: Awaited<ReturnType<typeof buildApp>>;
let drop: () => Promise<void>;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), "balcao-dist-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>Balcão</title><div id=root></div>");
  writeFileSync(join(dist, "assets", "index-abc123.js"), "console.log(1)");
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
