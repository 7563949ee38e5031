#!/usr/bin/env node
// `npm start`: builds what is missing or out of date, then starts the server (embedded PGlite by
// default, PostgreSQL with DATABASE_URL). One process, one port: the API, the socket and the web app.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildStale, root } from "./build-state.mjs";

if (!existsSync(join(root, "node_modules"))) {
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
buildStale();
const child = spawn(process.execPath, ["--enable-source-maps", "apps/server/dist/main.js"], { cwd: root, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
