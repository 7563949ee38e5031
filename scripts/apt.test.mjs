// apt-get as the scripts and test helpers run it (scripts/apt.mjs): update before install, both waiting for
// another apt's lock; a command refused for a lock runs again within the five minutes, any other failure
// stops at once; and no file of the repository runs apt-get another way.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { APT_LOCK_WAIT, aptInstallCommands, runAptCommands } from "./apt.mjs";

const root = join(import.meta.dirname, "..");

test("update first, then install; each apt-get waits up to 300 s for dpkg's lock, as root or through sudo", () => {
  assert.deepEqual(APT_LOCK_WAIT, ["-o", "DPkg::Lock::Timeout=300"]);
  assert.deepEqual(aptInstallCommands(["poppler-utils"], { asRoot: true }), [
    ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=300", "update", "-qq"],
    ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "-qq", "poppler-utils"],
  ]);
  assert.deepEqual(aptInstallCommands(["haproxy"], { asRoot: false, installOptions: ["--no-install-recommends"] }), [
    ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=300", "update", "-qq"],
    [
      "sudo",
      "-n",
      "env",
      "DEBIAN_FRONTEND=noninteractive",
      "apt-get",
      "-o",
      "DPkg::Lock::Timeout=300",
      "install",
      "-y",
      "-qq",
      "--no-install-recommends",
      "haproxy",
    ],
  ]);
});

/** A clock that moves only when slept on, and a log of what ran. */
function fakes(answers) {
  let t = 0;
  const ran = [];
  const said = [];
  return {
    ran,
    said,
    slept: () => t,
    deps: {
      run: (argv) => {
        ran.push(argv[argv.length - 1]);
        return answers.shift() ?? 0;
      },
      sleep: (ms) => {
        t += ms;
      },
      now: () => t,
      log: (line) => said.push(line),
    },
  };
}

const LISTS_LOCKED = {
  status: 100,
  stderr:
    "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 2023 (apt-get)\nE: Unable to lock directory /var/lib/apt/lists/\n",
};
const commands = aptInstallCommands(["chromium"], { asRoot: true });

test("an update refused for the lists' lock (which DPkg::Lock::Timeout does not cover) runs again until the lock is free", () => {
  const f = fakes([LISTS_LOCKED, LISTS_LOCKED, 0, 0]);
  assert.equal(runAptCommands(commands, f.deps), undefined);
  assert.deepEqual(f.ran, ["-qq", "-qq", "-qq", "chromium"]);
  assert.equal(f.slept(), 10_000);
  assert.match(f.said[0], /another apt or dpkg holds its lock; trying `apt-get -o DPkg::Lock::Timeout=300 update -qq` again in 5 s/);
});

test("a lock still held after five minutes, or any other failure, stops with the command and its exit status", () => {
  const held = fakes(Array.from({ length: 100 }, () => LISTS_LOCKED));
  assert.deepEqual(runAptCommands(commands, held.deps), { argv: commands[0], status: 100 });
  assert.ok(held.slept() <= 300_000 && held.slept() >= 295_000, `waited ${held.slept()} ms`);

  const missing = fakes([0, { status: 100, stderr: "E: Unable to locate package chromium\n" }]);
  assert.deepEqual(runAptCommands(commands, missing.deps), { argv: commands[1], status: 100 });
  assert.equal(missing.slept(), 0);

  // a bare exit status (a caller's own runner) is a failure, never a lock
  const bare = fakes([100]);
  assert.deepEqual(runAptCommands(commands, bare.deps), { argv: commands[0], status: 100 });
});

/** The repository's files, without dependencies, builds, data and pictures. */
function files(dir = root) {
  const skip = new Set(["node_modules", ".git", "dist", "data", "screenshots", "results", "drizzle", "test-results"]);
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!skip.has(e.name)) out.push(...files(join(dir, e.name)));
    } else out.push(join(dir, e.name));
  }
  return out;
}

test("every apt-get the repository runs goes through scripts/apt.mjs, or waits for the lock itself (shell)", () => {
  const offenders = [];
  for (const file of files()) {
    const path = relative(root, file);
    if (path === "scripts/apt.mjs" || /\.test\.[cm]?[jt]sx?$/.test(path)) continue;
    if (/\.([cm]?[jt]sx?)$/.test(path)) {
      // an argv naming apt-get ("apt-get", …), or a command line run through a shell
      const text = readFileSync(file, "utf8");
      const argv = /["'`]apt-get["'`]\s*,/.test(text);
      const shellLine = /\b(exec|execSync|spawn|spawnSync)\(\s*["'`](sudo\s+)?(-n\s+)?(env\s+\S+\s+)?apt-get\b/.test(text);
      if (argv || shellLine) offenders.push(`${path}: builds an apt-get command line itself; use scripts/apt.mjs`);
      continue;
    }
    const text = readFileSync(file, "utf8");
    const shell = /\.sh$/.test(path) || /^#!.*\b(ba|da|z)?sh\b/.test(text);
    if (!shell) continue;
    for (const [i, line] of text.split("\n").entries()) {
      const code = line.replace(/#.*$/, "");
      if (/\bapt-get\b/.test(code) && !code.includes("DPkg::Lock::Timeout=")) {
        offenders.push(`${path}:${i + 1}: apt-get without -o DPkg::Lock::Timeout=300`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});
