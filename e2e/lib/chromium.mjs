// The Chromium the end-to-end suite drives: found on the machine, or installed from the
// distribution's packages when the machine allows it (as `playwright install --with-deps` does,
// but never from a vendor's download site).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { aptInstallCommands, runAptCommands } from "../../scripts/apt.mjs";

/** Where a distribution or a vendor package puts the browser, in order of preference. */
export const KNOWN_PATHS = [
  "/usr/bin/chromium", // Debian
  "/usr/bin/chromium-browser", // Ubuntu, Fedora, Alpine
  "/snap/bin/chromium",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
  "/opt/google/chrome/chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

/** Debian's packages: the browser, and the fonts the screenshots are drawn with. */
export const APT_PACKAGES = ["chromium", "fonts-dejavu-core"];

/**
 * `CHROMIUM_PATH` when set (it must exist: a wrong path is an error, not a reason to look elsewhere),
 * else the first known path that exists. Answers `{ path }`, `{ error }`, or `{}` when there is none.
 */
export function findChromium({ env = process.env, exists = existsSync } = {}) {
  if (env.CHROMIUM_PATH) {
    return exists(env.CHROMIUM_PATH) ? { path: env.CHROMIUM_PATH } : { error: `CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist` };
  }
  const path = KNOWN_PATHS.find((p) => exists(p));
  return path ? { path } : {};
}

/** The distribution family from /etc/os-release (`ID` and `ID_LIKE`): "debian", "fedora", "arch", "alpine" or undefined. */
export function distroFamily(osRelease) {
  if (!osRelease) return undefined;
  const field = (name) => osRelease.match(new RegExp(`^${name}="?([^"\\n]*)"?$`, "m"))?.[1] ?? "";
  const ids = `${field("ID")} ${field("ID_LIKE")}`.split(/\s+/);
  if (ids.includes("debian") || ids.includes("ubuntu")) return "debian";
  if (ids.some((id) => ["fedora", "rhel", "centos"].includes(id))) return "fedora";
  if (ids.includes("arch")) return "arch";
  if (ids.includes("alpine")) return "alpine";
  return undefined;
}

/**
 * What to do when no Chromium is found: install Debian's packages (as root, or through
 * passwordless sudo) on a Debian or Ubuntu machine with apt-get (`apt-get update` first, each
 * waiting for another apt's lock: scripts/apt.mjs), else the one command to run.
 * Answers `{ install: { as, commands } }` or `{ manual }`.
 */
export function setupPlan({ osRelease, isRoot, sudoWithoutPassword, hasAptGet }) {
  const family = distroFamily(osRelease);
  if (family === "debian" && hasAptGet && (isRoot || sudoWithoutPassword)) {
    return { install: { as: isRoot ? "root" : "sudo", commands: aptInstallCommands(APT_PACKAGES, { asRoot: isRoot }) } };
  }
  const manual = {
    debian: `sudo apt-get update && sudo apt-get install -y ${APT_PACKAGES.join(" ")}`,
    fedora: "sudo dnf install -y chromium",
    arch: "sudo pacman -S --noconfirm chromium",
    alpine: "sudo apk add chromium font-dejavu",
  }[family];
  return { manual: manual ?? "CHROMIUM_PATH=/path/to/chromium npm run test:e2e" };
}

/** The machine's facts that `setupPlan` decides on. */
export function machineFacts() {
  const onPath = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
  const isRoot = process.getuid?.() === 0;
  return {
    osRelease: existsSync("/etc/os-release") ? readFileSync("/etc/os-release", "utf8") : undefined,
    isRoot,
    sudoWithoutPassword: !isRoot && onPath("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0,
    hasAptGet: onPath("apt-get"),
  };
}

/**
 * The path of a Chromium to drive, installing Debian's when there is none and the machine allows
 * it. Throws with the one command to run otherwise. Every dependency can be replaced (tests): `run`
 * runs one apt-get (scripts/apt.mjs's runAptCommands, which runs again one refused for a lock).
 */
export function ensureChromium({ env = process.env, exists = existsSync, facts = machineFacts, run, log = console.log } = {}) {
  const found = findChromium({ env, exists });
  if (found.error) throw new Error(found.error);
  if (found.path) return found.path;
  const plan = setupPlan(facts());
  if (plan.manual) {
    throw new Error(`no Chromium found (looked at ${KNOWN_PATHS.join(", ")}). Install one with:\n  ${plan.manual}`);
  }
  log(
    `e2e: no Chromium found; installing Debian's ${APT_PACKAGES.join(" and ")} with apt-get (${plan.install.as === "root" ? "as root" : "through sudo"})…`,
  );
  const failed = runAptCommands(plan.install.commands, { log, ...(run && { run }) });
  if (failed) throw new Error(`\`${failed.argv.join(" ")}\` failed (exit ${failed.status})`);
  const after = findChromium({ env, exists });
  if (!after.path) throw new Error(`apt-get installed ${APT_PACKAGES.join(" ")}, yet no Chromium is at ${KNOWN_PATHS.join(", ")}`);
  log(`e2e: installed ${after.path}`);
  return after.path;
}
