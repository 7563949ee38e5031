#!/usr/bin/env node
// `npm start`: builds what is missing or out of date, then starts the server (embedded PGlite by
// default, PostgreSQL with DATABASE_URL). One process, one port: the API, the socket and the web app.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function stale(output, inputs) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((dir) => newest(join(root, dir)) > built);
}

function run(args) {
  const r = spawnSync("npm", args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync(join(root, "node_modules"))) run(["install", "--no-audit", "--no-fund"]);
const contract = "packages/contract/src";
if (stale(join(root, "apps/web/dist/index.html"), [contract, "apps/web/src", "apps/web/index.html", "apps/web/public"])) {
  console.log("Building the web app…");
  run(["run", "build", "-w", "apps/web"]);
}
if (stale(join(root, "apps/server/dist/main.js"), [contract, "apps/server/src", "apps/server/drizzle"])) {
  console.log("Building the server…");
  run(["run", "build", "-w", "apps/server"]);
}
const child = spawn(process.execPath, ["--enable-source-maps", "apps/server/dist/main.js"], { cwd: root, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
