// `npm install && npm test` on a fresh machine: the e2e runner finds a Chromium, or installs
// Debian's when the machine allows it, or stops with the one command to run; the specs drive the
// browser the runner chose.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { CHROMIUM, launch } from "../lib/browser.mjs";
import { APT_PACKAGES, distroFamily, ensureChromium, findChromium, setupPlan } from "../lib/chromium.mjs";

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n';
const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n';
const FEDORA = 'NAME="Fedora Linux"\nID=fedora\nVERSION_ID=41\n';
const nothing = () => false;

test("looks at CHROMIUM_PATH first, then Debian's, Ubuntu's and Google Chrome's paths", () => {
  const only =
    (...paths) =>
    (p) =>
      paths.includes(p);
  assert.deepEqual(findChromium({ env: { CHROMIUM_PATH: "/opt/c/chrome" }, exists: only("/opt/c/chrome", "/usr/bin/chromium") }), {
    path: "/opt/c/chrome",
  });
  assert.deepEqual(findChromium({ env: { CHROMIUM_PATH: "/nope" }, exists: only("/usr/bin/chromium") }), {
    error: "CHROMIUM_PATH=/nope does not exist",
  });
  assert.deepEqual(findChromium({ env: {}, exists: only("/usr/bin/chromium", "/usr/bin/google-chrome") }), { path: "/usr/bin/chromium" });
  assert.deepEqual(findChromium({ env: {}, exists: only("/usr/bin/google-chrome-stable") }), { path: "/usr/bin/google-chrome-stable" });
  assert.deepEqual(findChromium({ env: {}, exists: nothing }), {});
});

test("tells Debian and Ubuntu from other distributions", () => {
  assert.equal(distroFamily(DEBIAN), "debian");
  assert.equal(distroFamily(UBUNTU), "debian");
  assert.equal(distroFamily(FEDORA), "fedora");
  assert.equal(distroFamily(undefined), undefined);
});

test("installs Debian's chromium and fonts as root or through passwordless sudo (update first, waiting for apt's lock), else names the one command", () => {
  assert.deepEqual(setupPlan({ osRelease: DEBIAN, isRoot: true, sudoWithoutPassword: false, hasAptGet: true }), {
    install: {
      as: "root",
      commands: [
        ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=300", "update", "-qq"],
        [
          "env",
          "DEBIAN_FRONTEND=noninteractive",
          "apt-get",
          "-o",
          "DPkg::Lock::Timeout=300",
          "install",
          "-y",
          "-qq",
          "chromium",
          "fonts-dejavu-core",
        ],
      ],
    },
  });
  const sudo = setupPlan({ osRelease: UBUNTU, isRoot: false, sudoWithoutPassword: true, hasAptGet: true });
  assert.equal(sudo.install?.as, "sudo");
  for (const argv of sudo.install.commands) assert.deepEqual(argv.slice(0, 4), ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive"]);

  assert.deepEqual(setupPlan({ osRelease: DEBIAN, isRoot: false, sudoWithoutPassword: false, hasAptGet: true }), {
    manual: "sudo apt-get update && sudo apt-get install -y chromium fonts-dejavu-core",
  });
  assert.deepEqual(setupPlan({ osRelease: FEDORA, isRoot: true, sudoWithoutPassword: false, hasAptGet: false }), {
    manual: "sudo dnf install -y chromium",
  });
  assert.deepEqual(setupPlan({ osRelease: undefined, isRoot: false, sudoWithoutPassword: false, hasAptGet: false }), {
    manual: "CHROMIUM_PATH=/path/to/chromium npm run test:e2e",
  });
});

test("with no Chromium on a Debian machine it may change, it says so, installs Debian's, and answers its path", () => {
  const installed = new Set();
  const ran = [];
  const said = [];
  const path = ensureChromium({
    env: {},
    exists: (p) => installed.has(p),
    facts: () => ({ osRelease: DEBIAN, isRoot: true, sudoWithoutPassword: false, hasAptGet: true }),
    run: (argv) => {
      ran.push(argv.join(" "));
      if (argv.includes("install")) installed.add("/usr/bin/chromium");
      return 0;
    },
    log: (line) => said.push(line),
  });
  assert.equal(path, "/usr/bin/chromium");
  assert.deepEqual(ran, [
    "env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -qq",
    `env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq ${APT_PACKAGES.join(" ")}`,
  ]);
  assert.match(said[0], /no Chromium found; installing Debian's chromium and fonts-dejavu-core with apt-get \(as root\)/);
});

test("elsewhere it stops with the one command to run, and a failed apt-get stops it too", () => {
  assert.throws(
    () =>
      ensureChromium({
        env: {},
        exists: nothing,
        facts: () => ({ osRelease: DEBIAN, isRoot: false, sudoWithoutPassword: false, hasAptGet: true }),
        run: () => assert.fail("must not run anything"),
        log: () => {},
      }),
    (err) => err.message.endsWith("Install one with:\n  sudo apt-get update && sudo apt-get install -y chromium fonts-dejavu-core"),
  );
  assert.throws(
    () =>
      ensureChromium({
        env: {},
        exists: nothing,
        facts: () => ({ osRelease: DEBIAN, isRoot: true, sudoWithoutPassword: false, hasAptGet: true }),
        run: () => 100,
        log: () => {},
      }),
    /apt-get -o DPkg::Lock::Timeout=300 update -qq` failed \(exit 100\)/,
  );
  assert.throws(() => ensureChromium({ env: { CHROMIUM_PATH: "/nope" }, exists: nothing }), /CHROMIUM_PATH=\/nope does not exist/);
});

test("the specs drive the browser the runner chose", async () => {
  assert.ok(process.env.CHROMIUM_PATH, "e2e/run.mjs passes the chosen browser in CHROMIUM_PATH");
  assert.equal(CHROMIUM, process.env.CHROMIUM_PATH);
  assert.ok(existsSync(CHROMIUM));
  const browser = await launch();
  try {
    assert.match(browser.version(), /^\d+\./);
  } finally {
    await browser.close();
  }
});
