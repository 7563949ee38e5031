// Whether the web app's and the server's builds are missing or older than what they are built
// from, and building what is: shared by `npm start`, the e2e runner and the transfer bench.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "..");

const CONTRACT = "packages/contract/src";
/** Each build's output file and its inputs (folders or files, relative to the repository). */
export const BUILDS = {
  web: {
    output: "apps/web/dist/index.html",
    inputs: [CONTRACT, "apps/web/src", "apps/web/index.html", "apps/web/public", "apps/web/vite.config.ts", "apps/web/plugins"],
  },
  server: { output: "apps/server/dist/main.js", inputs: [CONTRACT, "apps/server/src", "apps/server/drizzle"] },
};

function newest(path) {
  if (!existsSync(path)) return 0;
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    t = Math.max(t, newest(join(path, entry.name)));
  }
  return t;
}

/** True when the build's output is missing or older than one of its inputs. */
export function stale(name) {
  const { output, inputs } = BUILDS[name];
  const out = join(root, output);
  if (!existsSync(out)) return true;
  const built = statSync(out).mtimeMs;
  return inputs.some((input) => newest(join(root, input)) > built);
}

/** Builds the stale ones (`npm run build -w apps/<name>`); exits the process when a build fails. */
export function buildStale(log = console.log) {
  for (const name of Object.keys(BUILDS)) {
    if (!stale(name)) continue;
    log(`Building the ${name === "web" ? "web app" : "server"}…`);
    const r = spawnSync("npm", ["run", "build", "-w", `apps/${name}`], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
