#!/usr/bin/env node
// A local trial of several server processes behind HAProxy (deploy/haproxy.cfg): starts N processes
// of the built server (apps/server/dist/main.js) on consecutive ports with the same DATABASE_URL,
// REDIS_URL and JWT_SECRET, waits until each answers GET /ready, then HAProxy on the given port.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/balcao REDIS_URL=redis://127.0.0.1:6379 \
//     JWT_SECRET=$(openssl rand -base64 48) node deploy/cluster.mjs --processes 3 --port 8080
//
// Ctrl-C stops everything. The e2e suite (e2e/specs/70-cluster.test.mjs) and the bench use
// startCluster() below. Build first: npm run build.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { aptInstallCommands, runAptCommands } from "../scripts/apt.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, "..");

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/** Where HAProxy is, or undefined. */
export function findHaproxy() {
  for (const p of [process.env.HAPROXY_PATH, "/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"]) {
    if (p && spawnSync(p, ["-v"], { stdio: "ignore" }).status === 0) return p;
  }
  return undefined;
}

/**
 * HAProxy from Debian's packages when it is missing (as root, or through passwordless sudo, like
 * the e2e suite's Chromium); answers its path or throws with the command to run.
 */
export function ensureHaproxy() {
  const found = findHaproxy();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  const sudo = !isRoot && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (!apt || (!isRoot && !sudo)) throw new Error("HAProxy is missing: sudo apt-get install -y haproxy (or HAPROXY_PATH=/path/to/haproxy)");
  // update first, each apt-get waiting for another apt's lock (scripts/apt.mjs)
  const failed = runAptCommands(aptInstallCommands(["haproxy"], { asRoot: isRoot, installOptions: ["--no-install-recommends"] }));
  if (failed) throw new Error(`${failed.argv.join(" ")} failed (exit ${failed.status})`);
  const installed = findHaproxy();
  if (!installed) throw new Error("HAProxy was installed but is not found");
  return installed;
}

/** deploy/haproxy.cfg with this bind port and these servers (`[{ name, port }]`). */
export function haproxyConfig(lbPort, servers) {
  const cfg = readFileSync(join(here, "haproxy.cfg"), "utf8");
  const lines = (cookie) =>
    servers
      .map((s) => `  server ${s.name} 127.0.0.1:${s.port} check inter 1s fall 2 rise 1${cookie ? ` cookie ${s.name}` : ""}`)
      .join("\n");
  return cfg
    .replace(/bind :80\b/, `bind 127.0.0.1:${lbPort}`)
    .replace(/ {2}# BALCAO_SERVERS_BEGIN[\s\S]*?# BALCAO_SERVERS_END/, lines(false))
    .replace(/ {2}# BALCAO_SOCKET_SERVERS_BEGIN[\s\S]*?# BALCAO_SOCKET_SERVERS_END/, lines(true));
}

async function waitFor(check, what, ms, proc) {
  const until = Date.now() + ms;
  let last;
  while (Date.now() < until) {
    if (proc && proc.exitCode !== null) throw new Error(`${what}: the process exited with ${proc.exitCode}`);
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not come up in time${last ? ` (${last.message})` : ""}`);
}

/**
 * Starts `processes` server processes and HAProxy in front. `env` is added to each process's
 * environment (DATABASE_URL, REDIS_URL, JWT_SECRET and anything else they share); each also gets
 * its PORT, HOST=127.0.0.1, TRUST_PROXY=true and a DATA_DIR of its own (files go to S3 or a shared
 * folder if `env` says so). Answers `{ base, servers: [{ name, port, url, proc }], haproxy, stop() }`.
 * `nodeArgs` go to node before the entry (`--cpu-prof`, `--inspect`).
 */
export async function startCluster({
  processes = 2,
  lbPort,
  env = {},
  entry,
  stdio = "inherit",
  startTimeoutMs = 90_000,
  nodeArgs = [],
} = {}) {
  const haproxyBin = ensureHaproxy();
  const work = mkdtempSync(join(tmpdir(), "balcao-cluster-"));
  const serverEntry = entry ?? join(root, "apps/server/dist/main.js");
  const jwt = env.JWT_SECRET ?? randomBytes(48).toString("base64url");
  const servers = [];
  const stop = async () => {
    const all = [...servers.map((s) => s.proc), haproxy].filter(Boolean);
    for (const p of all) if (p.exitCode === null) p.kill("SIGTERM");
    await Promise.all(
      all.map(
        (p) =>
          new Promise((r) => {
            if (p.exitCode !== null) return r();
            const t = setTimeout(() => {
              p.kill("SIGKILL");
              r();
            }, 15_000);
            p.once("exit", () => {
              clearTimeout(t);
              r();
            });
          }),
      ),
    );
    rmSync(work, { recursive: true, force: true });
  };
  let haproxy;
  try {
    for (let i = 1; i <= processes; i++) {
      const port = await freePort();
      const name = `app${i}`;
      const proc = spawn(process.execPath, [...nodeArgs, serverEntry], {
        cwd: join(root, "apps/server"),
        env: {
          ...process.env,
          ...env,
          JWT_SECRET: jwt,
          PORT: String(port),
          HOST: "127.0.0.1",
          TRUST_PROXY: "true",
          DATA_DIR: env.DATA_DIR ?? join(work, name),
        },
        stdio: ["ignore", stdio, stdio],
      });
      // "pipe": each line on stderr, named by its process
      if (stdio === "pipe") for (const st of [proc.stdout, proc.stderr]) st.on("data", (d) => process.stderr.write(`[${name}] ${d}`));
      servers.push({ name, port, url: `http://127.0.0.1:${port}`, proc });
    }
    // started together: the migrations run once (an advisory lock), the others wait for it
    await Promise.all(
      servers.map((s) => waitFor(async () => (await fetch(`${s.url}/ready`)).ok, `${s.name} on ${s.port}`, startTimeoutMs, s.proc)),
    );
    const port = lbPort ?? (await freePort());
    const cfg = join(work, "haproxy.cfg");
    writeFileSync(cfg, haproxyConfig(port, servers));
    const check = spawnSync(haproxyBin, ["-c", "-q", "-f", cfg], { encoding: "utf8" });
    if (check.status !== 0) throw new Error(`haproxy -c: ${check.stderr || check.stdout}`);
    haproxy = spawn(haproxyBin, ["-db", "-f", cfg], { stdio: ["ignore", "ignore", stdio] });
    const base = `http://127.0.0.1:${port}`;
    // up once HAProxy's checks see every process
    await waitFor(
      async () => {
        const seen = new Set();
        for (let i = 0; i < servers.length * 3; i++) seen.add((await (await fetch(`${base}/health`)).json()).process);
        return seen.size === servers.length;
      },
      "HAProxy",
      30_000,
      haproxy,
    );
    return { base, servers, haproxy, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  if (!process.env.DATABASE_URL) {
    console.error("cluster: DATABASE_URL is required (several processes share one PostgreSQL); REDIS_URL too for live events");
    process.exit(1);
  }
  const cluster = await startCluster({ processes: Number(arg("processes", "2")), lbPort: Number(arg("port", "8080")) });
  console.log(`cluster: ${cluster.servers.length} processes (${cluster.servers.map((s) => s.port).join(", ")}) behind ${cluster.base}`);
  const bye = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.on("SIGINT", bye);
  process.on("SIGTERM", bye);
}
