// apt-get as the repository's scripts and test helpers run it (the e2e suite's Chromium, the server
// suite's poppler-utils, the cluster spec's HAProxy): `apt-get update`, then `apt-get install`, each
// waiting its turn when another apt or dpkg holds the lock instead of failing at once.
//
// apt-get waits for dpkg's locks when told `-o DPkg::Lock::Timeout=<seconds>` (apt ≥ 1.9.11; older
// versions ignore it). `apt-get update` takes another lock, /var/lib/apt/lists/lock, which apt 2.6
// does not wait for whatever the option says (it answers "Could not get lock" at once): a command
// refused for a lock is run again every few seconds, within the same five minutes.
import { spawnSync } from "node:child_process";

/** How long one apt-get waits for a lock another apt or dpkg holds, in seconds. */
export const APT_LOCK_TIMEOUT_S = 300;

/** The options that make apt-get wait for dpkg's locks; they come before the command (`update`, `install`). */
export const APT_LOCK_WAIT = ["-o", `DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_S}`];

/** What apt-get prints when a lock is held: the lists' (update), dpkg's frontend, dpkg's, the archives'. */
const LOCK_REFUSED =
  /Could not get lock|Unable to lock directory|Unable to acquire the dpkg frontend lock|Unable to lock the administration directory/;

/**
 * The argv of `apt-get update` and then `apt-get install -y <packages>`, as root or through
 * passwordless sudo, without questions (DEBIAN_FRONTEND=noninteractive), each waiting for the lock.
 * `installOptions` go before the packages (e.g. `--no-install-recommends`).
 */
export function aptInstallCommands(packages, { asRoot, installOptions = [] }) {
  const prefix = asRoot ? ["env", "DEBIAN_FRONTEND=noninteractive"] : ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive"];
  return [
    [...prefix, "apt-get", ...APT_LOCK_WAIT, "update", "-qq"],
    [...prefix, "apt-get", ...APT_LOCK_WAIT, "install", "-y", "-qq", ...installOptions, ...packages],
  ];
}

/** Runs argv with the terminal's output; answers its exit status and what it printed on stderr (printed too). */
function runShowingStderr(argv) {
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ["ignore", "inherit", "pipe"], encoding: "utf8" });
  if (r.stderr) process.stderr.write(r.stderr);
  return { status: r.status ?? 1, stderr: `${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs the commands in order. One refused because another apt holds a lock is run again every
 * `retryMs` until `timeoutMs` after its first try; any other failure stops at once. Answers
 * undefined when all succeeded, else the command that failed and its exit status.
 * `run` answers an exit status, or `{ status, stderr }` (a bare status never counts as a lock).
 */
export function runAptCommands(
  commands,
  {
    run = runShowingStderr,
    sleep = sleepSync,
    now = Date.now,
    log = console.log,
    timeoutMs = APT_LOCK_TIMEOUT_S * 1000,
    retryMs = 5000,
  } = {},
) {
  for (const argv of commands) {
    const until = now() + timeoutMs;
    for (;;) {
      const answer = run(argv);
      const { status, stderr = "" } = typeof answer === "number" ? { status: answer } : answer;
      if (status === 0) break;
      if (!LOCK_REFUSED.test(stderr) || now() + retryMs > until) return { argv, status };
      log(
        `apt-get: another apt or dpkg holds its lock; trying \`${argv.slice(argv.indexOf("apt-get")).join(" ")}\` again in ${retryMs / 1000} s`,
      );
      sleep(retryMs);
    }
  }
  return undefined;
}
