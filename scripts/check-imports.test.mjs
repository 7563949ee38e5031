// The import checker on small trees written for each test: a deliberately bad import fails with a message
// naming the rule, the importing file and the imported file; a tree that keeps the rules passes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { check } from "./check-imports.mjs";

const roots = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A tree with these files (path → text). */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), "check-imports-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const CLI = join(import.meta.dirname, "check-imports.mjs");
const run = (root, ...args) => spawnSync(process.execPath, [CLI, "--root", root, ...args], { encoding: "utf8" });

/**
 * A web app that keeps the rules: features reach each other through index.ts and take data (hooks,
 * types) from each other; a screen made of two features' components is composed in app/; the shell
 * gets its menu from app/.
 */
const goodWeb = {
  "apps/web/src/lib/menu.ts": "export interface MenuEntry { to: string }\n",
  "apps/web/src/components/Shell.tsx":
    'import type { MenuEntry } from "../lib/menu";\nexport const Shell = (p: { menu: MenuEntry[] }) => p.menu.length;\n',
  "apps/web/src/features/queues/index.ts":
    'export { QueuePicker } from "./components/QueuePicker";\nexport { useQueues, type Queue } from "./api/queues";\n',
  "apps/web/src/features/queues/api/queues.ts": "export type Queue = { id: number };\nexport const useQueues = (): Queue[] => [];\n",
  "apps/web/src/features/queues/components/QueuePicker.tsx": "export const QueuePicker = () => null;\n",
  "apps/web/src/features/users/index.ts":
    'export const usersMenu = { to: "/users" };\nexport { UserDialog } from "./components/UserDialog";\n',
  "apps/web/src/features/users/components/UserDialog.tsx":
    'import { type Queue, useQueues } from "../../queues";\nexport const UserDialog = (p: { picker: unknown }) => [useQueues() as Queue[], p.picker];\n',
  "apps/web/src/app/registry.ts": 'import { usersMenu } from "../features/users";\nexport const MENU = [usersMenu];\n',
  "apps/web/src/app/users-screen.tsx":
    'import { QueuePicker } from "../features/queues";\nimport { UserDialog } from "../features/users";\nexport const Screen = () => UserDialog({ picker: QueuePicker() });\n',
};

test("a tree that keeps every rule passes", () => {
  const root = tree({
    ...goodWeb,
    "apps/server/src/modules/users/service.ts": 'import type { Db } from "../../db/client.js";\nexport const list = (db: Db) => db;\n',
    "apps/server/src/modules/users/routes.ts":
      'import type { FastifyInstance } from "fastify";\nimport { list } from "./service.js";\nexport const r = (app: FastifyInstance) => [app, list];\n',
    "apps/server/src/db/client.ts": "export type Db = { q: number };\n",
    "apps/server/src/channels/channel.ts": 'import type { Db } from "../lib/types.js";\nexport type C = Db;\n',
    "apps/server/src/lib/types.ts": "export type Db = number;\n",
  });
  assert.deepEqual(check(root), []);
  const r = run(root);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /every rule kept/);
});

test("a feature importing another feature's internals fails, naming the rule and both files", () => {
  const root = tree({
    ...goodWeb,
    "apps/web/src/features/users/components/UserDialog.tsx":
      'import { QueuePicker } from "../../queues/components/QueuePicker";\nexport const UserDialog = () => QueuePicker();\n',
  });
  const r = run(root, "--only", "web");
  assert.equal(r.status, 1);
  assert.equal(
    r.stderr.split("\n")[0],
    "web/feature-internals (a feature imports another feature only through its index.ts): " +
      "apps/web/src/features/users/components/UserDialog.tsx:1 imports apps/web/src/features/queues/components/QueuePicker.tsx",
  );
});

test("a feature that renders another feature's component fails: the screen is composed in app/", () => {
  const root = tree({
    ...goodWeb,
    "apps/web/src/features/users/components/UserDialog.tsx":
      'import { QueuePicker, type Queue, useQueues } from "../../queues";\nexport const UserDialog = () => [QueuePicker(), useQueues() as Queue[]];\n',
  });
  const r = run(root, "--only", "web");
  assert.equal(r.status, 1);
  assert.deepEqual(
    check(root, { only: "web" }).map((v) => v.message),
    [
      "web/feature-composes-feature (a feature takes hooks, functions, constants and types from another feature, never a component: " +
        "screens made of several features are composed in app/): apps/web/src/features/users/components/UserDialog.tsx:1 imports apps/web/src/features/queues/index.ts",
    ],
  );
});

test("components/, lib/ and api/ never import a feature; app/ only through index.ts", () => {
  const root = tree({
    ...goodWeb,
    "apps/web/src/components/Bell.tsx": 'import { usersMenu } from "../features/users";\nexport const Bell = () => usersMenu;\n',
    "apps/web/src/lib/who.ts": 'export type { UserDialog } from "../features/users/components/UserDialog";\n',
    "apps/web/src/app/router.tsx": 'export const load = () => import("../features/users/components/UserDialog");\n',
  });
  const rules = check(root, { only: "web" }).map((v) => v.message);
  assert.deepEqual(rules, [
    "web/app-feature-internals (app/ (and main.tsx) import a feature only through its index.ts): apps/web/src/app/router.tsx:1 imports apps/web/src/features/users/components/UserDialog.tsx (import())",
    "web/shared-imports-feature (components/, lib/, api/ and locales/ never import features/): apps/web/src/components/Bell.tsx:1 imports apps/web/src/features/users/index.ts",
    "web/shared-imports-feature (components/, lib/, api/ and locales/ never import features/): apps/web/src/lib/who.ts:1 imports apps/web/src/features/users/components/UserDialog.tsx (export type)",
  ]);
});

test("two features that need each other fail, with the path and one import per arrow", () => {
  const root = tree({
    ...goodWeb,
    "apps/web/src/features/queues/components/QueuePicker.tsx":
      'import { usersMenu } from "../../users";\nexport const QueuePicker = () => usersMenu;\n',
  });
  const [v] = check(root, { only: "web" });
  assert.equal(v.rule, "web/feature-cycle");
  assert.equal(
    v.message,
    [
      "web/feature-cycle (features depend on each other one way only): queues → users → queues",
      "  queues → users: apps/web/src/features/queues/components/QueuePicker.tsx:1 imports apps/web/src/features/users/index.ts",
      "  users → queues: apps/web/src/features/users/components/UserDialog.tsx:1 imports apps/web/src/features/queues/index.ts",
    ].join("\n"),
  );
});

test("the server rules: channels/ and db/ below modules/, no Fastify in a service.ts", () => {
  const root = tree({
    "apps/server/src/modules/settings/service.ts":
      'import type { FastifyRequest } from "fastify";\nimport cookie from "@fastify/cookie";\nexport const defaults = (r: FastifyRequest) => [r, cookie];\n',
    "apps/server/src/db/seed.ts": 'import { defaults } from "../modules/settings/service.js";\nexport const seed = defaults;\n',
    "apps/server/src/channels/manager.ts": 'import { seed } from "../db/seed.js";\nexport const m = seed;\n',
  });
  assert.deepEqual(
    check(root, { only: "server" }).map((v) => v.message),
    [
      "server/channels-imports-upper-layer (channels/ never import modules/, db/, http/ or realtime/): apps/server/src/channels/manager.ts:1 imports apps/server/src/db/seed.ts",
      "server/db-imports-modules (db/ never imports modules/): apps/server/src/db/seed.ts:1 imports apps/server/src/modules/settings/service.ts",
      'server/service-imports-fastify (a service.ts never imports fastify or @fastify/*): apps/server/src/modules/settings/service.ts:1 imports the package "fastify" (import type)',
      'server/service-imports-fastify (a service.ts never imports fastify or @fastify/*): apps/server/src/modules/settings/service.ts:2 imports the package "@fastify/cookie"',
    ],
  );
});

test("the server's one-way arrows: http/ below modules/, contacts/ below tickets/", () => {
  const root = tree({
    "apps/server/src/modules/auth/tokens.ts": "export const verify = (t: string) => t.length > 0;\n",
    "apps/server/src/http/guards.ts": 'import { verify } from "../modules/auth/tokens.js";\nexport const guard = verify;\n',
    "apps/server/src/modules/tickets/queries.ts": "export const canSee = () => true;\n",
    "apps/server/src/modules/contacts/service.ts": 'import { canSee } from "../tickets/queries.js";\nexport const access = canSee;\n',
    "apps/server/src/modules/tickets/service.ts": 'import { access } from "../contacts/service.js";\nexport const open = access;\n',
  });
  assert.deepEqual(
    check(root, { only: "server" }).map((v) => v.message),
    [
      "server/http-imports-modules (http/ never imports modules/ (routes use http/; what http/ needs of a module, app.ts hands it)): apps/server/src/http/guards.ts:1 imports apps/server/src/modules/auth/tokens.ts",
      "server/contacts-imports-tickets (modules/contacts/ never imports modules/tickets/ (a ticket has a contact: tickets build on contacts)): apps/server/src/modules/contacts/service.ts:1 imports apps/server/src/modules/tickets/queries.ts",
      // and the two folders now go round, which the folder rule names too
      [
        "server/folder-cycle (the server's folders depend on each other one way only): modules/contacts → modules/tickets → modules/contacts",
        "  modules/contacts → modules/tickets: apps/server/src/modules/contacts/service.ts:1 imports apps/server/src/modules/tickets/queries.ts",
        "  modules/tickets → modules/contacts: apps/server/src/modules/tickets/service.ts:1 imports apps/server/src/modules/contacts/service.ts",
      ].join("\n"),
    ],
  );
});

test("a cycle made only of type imports fails too, with its path", () => {
  const root = tree({
    "apps/server/src/context.ts":
      'import type { SessionCache } from "./modules/users/session-cache.js";\nexport interface AppContext { sessions: SessionCache }\n',
    "apps/server/src/modules/users/session-cache.ts":
      'import type { AppContext } from "../../context.js";\nexport interface SessionCache { ctx: AppContext }\n',
  });
  const r = run(root, "--only", "server");
  assert.equal(r.status, 1);
  assert.equal(
    r.stderr.split("\n")[0],
    "cycle (no import cycle in a workspace) in server: apps/server/src/context.ts → apps/server/src/modules/users/session-cache.ts → apps/server/src/context.ts",
  );
});

test("an import that names no file is reported instead of skipped", () => {
  const root = tree({ "apps/web/src/lib/a.ts": 'export { b } from "./b";\n' });
  assert.deepEqual(
    check(root).map((v) => v.message),
    ['unresolved: apps/web/src/lib/a.ts:1 imports "./b", which names no file'],
  );
});

test("the server's module folders depend one way: a loop through different files is caught", () => {
  // no file imports itself back, but the folders go round: connections → health → disparos → connections
  const root = tree({
    "apps/server/src/modules/connections/service.ts":
      'import { statusChanged } from "../health/service.js";\nexport const apply = statusChanged;\n',
    "apps/server/src/modules/health/service.ts": 'import { wakeJob } from "../disparos/deps.js";\nexport const statusChanged = wakeJob;\n',
    "apps/server/src/modules/disparos/deps.ts": "export const wakeJob = () => undefined;\n",
    "apps/server/src/modules/disparos/routes.ts": 'import { apply } from "../connections/service.js";\nexport const routes = apply;\n',
  });
  const violations = check(root, { only: "server" });
  assert.deepEqual(
    violations.map((v) => v.rule),
    ["server/folder-cycle"],
  );
  assert.equal(
    violations[0].message,
    [
      "server/folder-cycle (the server's folders depend on each other one way only): modules/connections → modules/health → modules/disparos → modules/connections",
      "  modules/connections → modules/health: apps/server/src/modules/connections/service.ts:1 imports apps/server/src/modules/health/service.ts",
      "  modules/health → modules/disparos: apps/server/src/modules/health/service.ts:1 imports apps/server/src/modules/disparos/deps.ts",
      "  modules/disparos → modules/connections: apps/server/src/modules/disparos/routes.ts:1 imports apps/server/src/modules/connections/service.ts",
    ].join("\n"),
  );
  // the composition root (src/*.ts) may import every folder: it is not in the loop
  const fine = tree({
    "apps/server/src/app.ts": 'import { apply } from "./modules/connections/service.js";\nexport const app = apply;\n',
    "apps/server/src/modules/connections/service.ts": 'import { cfg } from "../../config.js";\nexport const apply = cfg;\n',
    "apps/server/src/config.ts": "export const cfg = 1;\n",
  });
  assert.deepEqual(check(fine, { only: "server" }), []);
});
