import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { aptInstallCommands, runAptCommands } from "../../../scripts/apt.mjs";

/**
 * Poppler's command-line tools (Debian's poppler-utils): `pdftotext -layout` reads a PDF's text
 * with its lines as a reader sees them. Installed like the e2e suite's Chromium: found on the
 * machine, else installed with apt-get when the machine allows it (root or passwordless sudo on
 * Debian or Ubuntu; waiting for another apt to finish: scripts/apt.mjs), else the test fails with
 * the one command to run.
 */

const run = promisify(execFile);
export const POPPLER_APT = "poppler-utils";
const onPath = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;

let ready: Promise<void> | undefined;

function install(): void {
  if (onPath("pdftotext")) return;
  const osRelease = existsSync("/etc/os-release") ? readFileSync("/etc/os-release", "utf8") : "";
  const debian = /^(ID|ID_LIKE)="?[^"\n]*\b(debian|ubuntu)\b/m.test(osRelease);
  const isRoot = process.getuid?.() === 0;
  const sudo = !isRoot && onPath("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
  const manual = `sudo apt-get update && sudo apt-get install -y ${POPPLER_APT}`;
  if (!debian || !onPath("apt-get") || !(isRoot || sudo)) {
    throw new Error(`pdftotext (poppler) is not installed and this machine cannot install it here. Install it with:\n  ${manual}`);
  }
  const failed = runAptCommands(aptInstallCommands([POPPLER_APT], { asRoot: isRoot }));
  if (failed) throw new Error(`\`${failed.argv.join(" ")}\` failed (exit ${failed.status}); install it with:\n  ${manual}`);
  if (!onPath("pdftotext")) throw new Error(`apt-get installed ${POPPLER_APT}, yet pdftotext is not on PATH`);
}

/** pdftotext on PATH, installing poppler-utils once when missing (see above). */
export function ensurePoppler(): Promise<void> {
  ready ??= Promise.resolve().then(install);
  return ready;
}

async function withFile<T>(pdf: Buffer, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "balcao-pdf-"));
  try {
    const path = join(dir, "doc.pdf");
    await writeFile(path, pdf);
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PDF's text laid out as on the page (`pdftotext -layout`), pages separated by form feeds. */
export async function pdfLayoutText(pdf: Buffer): Promise<string> {
  await ensurePoppler();
  return withFile(pdf, async (path) => (await run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"], { maxBuffer: 32 << 20 })).stdout);
}

/** The page count as poppler reads it (pdfinfo): also proves the file parses. */
export async function pdfPages(pdf: Buffer): Promise<number> {
  await ensurePoppler();
  return withFile(pdf, async (path) => {
    const { stdout } = await run("pdfinfo", [path]);
    const m = /^Pages:\s+(\d+)/m.exec(stdout);
    if (!m) throw new Error(`pdfinfo printed no page count:\n${stdout}`);
    return Number(m[1]);
  });
}
