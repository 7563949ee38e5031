#!/usr/bin/env node
/**
 * Initial transfer size of the built web app: bytes on the wire (response headers + body) of the
 * sign-in page (index.html and the scripts, styles, fonts and images it loads before sign-in) and of
 * the tickets screen (what /tickets loads after sign-in: its lazy chunks), uncompressed (what the
 * server sent before it served precompressed files) against gzip and brotli.
 *
 *   npm run bench:transfer              totals
 *   npm run bench:transfer -- --files   and every file
 *
 * Builds what is stale, starts the built server on a free port with a fresh embedded data dir, loads
 * the pages in Chromium (playwright-core) to learn which files they load, then fetches each file
 * once per encoding with node:http and counts the bytes received (and prints what Chromium itself
 * received). Prints figures; asserts nothing.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ensureChromium } from "../e2e/lib/chromium.mjs";
import { buildStale, root } from "../scripts/build-state.mjs";

const ADMIN = { email: "admin@balcao.local", password: "admin123" };
const ENCODINGS = ["identity", "gzip", "br"];
/** What a page loads to show itself; API calls (fetch, xhr) and the socket are not counted. */
const STATIC = new Set(["document", "script", "stylesheet", "font", "image", "manifest"]);
const showFiles = process.argv.includes("--files");

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

async function waitUp(base, server) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start in time");
}

/** Bytes received for one GET: the status line and headers as sent, and the body as sent (not decoded). */
function onTheWire(url, encoding, accept) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { "accept-encoding": encoding, accept } }, (res) => {
      let body = 0;
      res.on("data", (chunk) => {
        body += chunk.length;
      });
      res.on("end", () => {
        let headers = `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
        resolve({ status: res.statusCode, encoding: res.headers["content-encoding"] ?? "identity", headers, body });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Each file's bytes on the wire per encoding, and the encoding the server actually chose. */
async function measure(files) {
  const rows = [];
  for (const f of files) {
    const row = { path: f.path, chromium: f.chromium };
    for (const enc of ENCODINGS) {
      const got = await onTheWire(f.url, enc, f.type === "document" ? "text/html" : "*/*");
      if (got.status !== 200) throw new Error(`${f.path}: ${got.status}`);
      row[enc] = { wire: got.headers + got.body, sentAs: got.encoding };
    }
    rows.push(row);
  }
  return rows;
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const pct = (n, of) => `${((100 * n) / of).toFixed(0)}%`;

function report(title, rows) {
  const sum = (pick) => rows.reduce((n, r) => n + pick(r), 0);
  const plain = sum((r) => r.identity.wire);
  const gz = sum((r) => r.gzip.wire);
  const br = sum((r) => r.br.wire);
  const browser = sum((r) => r.chromium.wire);
  console.log(`\n${title}: ${rows.length} file(s)`);
  if (showFiles) {
    for (const r of rows) {
      const enc = (e) => `${kb(r[e].wire).padStart(9)}${r[e].sentAs === e ? " " : "*"}`;
      console.log(`  ${r.path.padEnd(44)} ${enc("identity")} ${enc("gzip")} ${enc("br")}`);
    }
    console.log("  (* the server sent it uncompressed: too small to be worth it)");
  }
  console.log(`  uncompressed (before)  ${kb(plain).padStart(9)}  ${plain} B`);
  console.log(`  gzip                   ${kb(gz).padStart(9)}  ${gz} B  (${pct(gz, plain)} of uncompressed)`);
  console.log(`  brotli                 ${kb(br).padStart(9)}  ${br} B  (${pct(br, plain)} of uncompressed)`);
  const encodings = [...new Set(rows.map((r) => r.chromium.encoding))].sort().join(", ");
  console.log(`  Chromium received      ${kb(browser).padStart(9)}  ${browser} B  (sent as ${encodings})`);
  return { plain, gz, br };
}

buildStale();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), "balcao-bench-transfer-"));
const server = spawn(process.execPath, [join(root, "apps/server/dist/main.js")], {
  cwd: join(root, "apps/server"),
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "development" },
  stdio: ["ignore", "inherit", "inherit"],
});
let browser;
try {
  await waitUp(base, server);
  browser = await chromium.launch({ executablePath: ensureChromium(), args: ["--no-sandbox", "--disable-gpu", "--disable-quic"] });
  const page = await (await browser.newContext({ baseURL: base, locale: "pt-BR", viewport: { width: 1366, height: 800 } })).newPage();
  const loaded = [];
  page.on("requestfinished", async (req) => {
    const url = new URL(req.url());
    if (url.origin !== base || req.method() !== "GET" || !STATIC.has(req.resourceType())) return;
    const entry = { url: req.url(), path: url.pathname, type: req.resourceType(), chromium: undefined };
    loaded.push(entry);
    try {
      const [sizes, response] = await Promise.all([req.sizes(), req.response()]);
      entry.chromium = {
        wire: sizes.responseHeadersSize + sizes.responseBodySize,
        encoding: (await response?.allHeaders())?.["content-encoding"] ?? "identity",
      };
    } catch (err) {
      entry.chromium = { wire: 0, encoding: `unknown (${err instanceof Error ? err.message : err})` };
    }
  });
  const settled = async () => {
    await page.waitForLoadState("networkidle");
    while (loaded.some((f) => !f.chromium)) await new Promise((r) => setTimeout(r, 20));
  };

  await page.goto("/login");
  await page.getByRole("button", { name: "Entrar" }).waitFor();
  await settled();
  const signIn = loaded.splice(0);

  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Senha").fill(ADMIN.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL("**/tickets");
  await page.getByTestId("tickets-welcome").waitFor();
  await settled();
  // files the sign-in page loaded already (the logo) are in the browser's cache: not counted twice
  const tickets = loaded.splice(0).filter((f) => !signIn.some((s) => s.path === f.path));

  console.log(`Balcão transfer sizes: bytes on the wire (response headers + body), built app at ${base}`);
  const a = report("sign-in page (/login, before sign-in)", await measure(signIn));
  const b = report("tickets screen (what /tickets adds after sign-in)", await measure(tickets));
  console.log(`\nsign-in to tickets, in all: ${kb(a.plain + b.plain)} uncompressed → ${kb(a.gz + b.gz)} gzip, ${kb(a.br + b.br)} brotli`);
} finally {
  await browser?.close();
  server.kill("SIGTERM");
  await new Promise((r) => (server.exitCode !== null ? r() : server.once("exit", r)));
  rmSync(dataDir, { recursive: true, force: true });
}
