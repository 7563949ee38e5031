import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * A fresh `npm install` prints no warning of the project's making: every installed package accepts
 * every Node version the project says it supports (no EBADENGINE), and every install script is
 * decided in `allowScripts` (no install-scripts warning). Read from the lockfile, which is what a
 * fresh install installs; packages for other platforms (optional, not installed here) are left out.
 */
const root = resolve(import.meta.dirname, "../../..");
const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(resolve(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; link?: boolean; engines?: { node?: string } | string[]; hasInstallScript?: boolean }>;
};
const installed = Object.entries(lock.packages)
  .filter(([path, info]) => path.includes("node_modules/") && !info.link && existsSync(resolve(root, path, "package.json")))
  .map(([path, info]) => ({ name: path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length), ...info }));

describe("a fresh install", () => {
  it("supports Node 20, 22 and 24, and nothing installed asks for more", () => {
    const supported = pkg.engines.node;
    expect(lock.packages[""]?.engines, "the lockfile is in step with package.json (run npm install)").toEqual(pkg.engines);
    for (const v of ["20.19.0", "22.12.0", "24.0.0"]) expect(semver.satisfies(v, supported), `${v} in ${supported}`).toBe(true);
    expect(semver.satisfies(process.versions.node, supported), `this Node (${process.versions.node}) in ${supported}`).toBe(true);
    const narrower = installed
      .filter((p) => p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.subset(supported, p.engines.node))
      .map((p) => `${p.name}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(narrower).toEqual([]);
  });

  it("every dependency's install script is decided in allowScripts", () => {
    const decided = new Set(Object.keys(pkg.allowScripts ?? {}).map((k) => k.replace(/(.)@.*$/, "$1")));
    const undecided = installed.filter((p) => p.hasInstallScript && !decided.has(p.name)).map((p) => `${p.name}@${p.version}`);
    expect(undecided).toEqual([]);
  });
});
