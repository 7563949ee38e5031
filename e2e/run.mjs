#!/usr/bin/env node
// End-to-end suite: finds a Chromium (installs Debian's when there is none and the machine allows
// it), builds what is missing or stale, starts the server on a free port with a fresh embedded
// database, runs the Playwright specs (node:test + playwright-core + that Chromium), stops the server.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildStale, root } from "../scripts/build-state.mjs";
import { ensureChromium } from "./lib/chromium.mjs";

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

async function waitUp(base, server, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const r = await fetch(`${base}/colors`, { headers: { accept: "application/json" } });
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server did not start in time");
}

let CHROMIUM;
try {
  CHROMIUM = ensureChromium();
} catch (err) {
  console.error(`e2e: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
if (process.env.E2E_SKIP_BUILD !== "1") buildStale((line) => console.log(`e2e: ${line}`));

const port = await freePort();
// the fake Graph API (WhatsApp Cloud API) of 70-cloud listens here; the server is pointed at it
const graphPort = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), "balcao-e2e-"));
mkdirSync(join(root, "e2e/screenshots"), { recursive: true });
// E2E_SERVER_ENTRY: run against another server build (e.g. a patched one while bisecting).
const server = spawn(process.execPath, [process.env.E2E_SERVER_ENTRY ?? join(root, "apps/server/dist/main.js")], {
  cwd: join(root, "apps/server"),
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ENABLE_SIMULATOR: "true",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    LOGIN_RATE_PER_IP: "1000",
    NODE_ENV: "test",
    // the specs' fakes of outside systems (SGP, Typebot, the AI server) listen on loopback
    ALLOWED_PRIVATE_HOSTS: process.env.ALLOWED_PRIVATE_HOSTS ?? "127.0.0.0/8,localhost",
    WHATSAPP_GRAPH_URL: process.env.WHATSAPP_GRAPH_URL ?? `http://127.0.0.1:${graphPort}/v23.0`,
  },
  stdio: ["ignore", "inherit", "inherit"],
});

let code = 1;
try {
  await waitUp(base, server);
  console.log(`e2e: server up at ${base} (data in ${dataDir})`);
  const specs = readdirSync(join(root, "e2e/specs"))
    .filter((f) => f.endsWith(".test.mjs"))
    .sort()
    .map((f) => join(root, "e2e/specs", f));
  const only = process.argv.slice(2);
  const chosen = only.length ? specs.filter((s) => only.some((o) => s.includes(o))) : specs;
  // One file at a time: they share one server and database (dark mode is a server-wide setting).
  // E2E_GREP: only the tests whose name matches (node --test-name-pattern), e.g. while fixing one.
  const grep = process.env.E2E_GREP ? [`--test-name-pattern=${process.env.E2E_GREP}`] : [];
  const run = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...grep, ...chosen], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, E2E_BASE_URL: base, CHROMIUM_PATH: CHROMIUM, E2E_GRAPH_PORT: String(graphPort) },
  });
  code = run.status ?? 1;
} catch (err) {
  console.error(`e2e: ${err instanceof Error ? err.message : err}`);
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => {
    if (server.exitCode !== null) return r();
    const t = setTimeout(() => {
      server.kill("SIGKILL");
      r();
    }, 10_000);
    server.once("exit", () => {
      clearTimeout(t);
      r();
    });
  });
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
