#!/usr/bin/env node
// The import rules of docs/architecture.md, checked on the source: which folder may import which, and no
// import cycle in any workspace. Every import counts: static, `import type`, `export … from`, `import()`.
//
//   node scripts/check-imports.mjs                 every rule (what `npm run lint` runs)
//   node scripts/check-imports.mjs --only web      the web rules and the web workspace's cycles
//   node scripts/check-imports.mjs --only server   the server rules and the server workspace's cycles
//   node scripts/check-imports.mjs --root DIR      another tree (the checker's own tests)
//   node scripts/check-imports.mjs --folders       prints the server's module map (folder → folder, one example import each)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

/** The workspaces: each is checked for cycles on its own (a workspace reaches another only by package name). */
export const WORKSPACES = [
  { name: "contract", dirs: ["packages/contract/src"] },
  { name: "server", dirs: ["apps/server/src", "apps/server/test"] },
  { name: "web", dirs: ["apps/web/src"] },
  { name: "e2e", dirs: ["e2e"] },
  { name: "scripts", dirs: ["scripts"] },
];

const WEB = "apps/web/src/";
const SERVER = "apps/server/src/";
const SHARED_WEB = ["components", "lib", "api", "locales"];

/** A web file's place: the feature it belongs to, or the shared folder it sits in. */
function webPlace(file) {
  if (!file?.startsWith(WEB)) return undefined;
  const parts = file.slice(WEB.length).split("/");
  if (parts[0] === "features" && parts.length > 2) return { kind: "feature", feature: parts[1], rest: parts.slice(2).join("/") };
  return { kind: parts.length > 1 ? parts[0] : "root" };
}

const isFeatureIndex = (p) => p.kind === "feature" && /^index\.tsx?$/.test(p.rest);
const isShared = (p) => SHARED_WEB.includes(p.kind);

/** A rule between two web files, given their places (`to` a package: never broken). */
const webRule = (id, text, breaks) => ({
  id,
  scope: "web",
  text,
  breaks: ({ from, to }) => {
    const a = webPlace(from);
    const b = webPlace(to);
    return a !== undefined && b !== undefined && breaks(a, b);
  },
});

/** A component's name: PascalCase (constants in UPPER_CASE and hooks and functions in camelCase are not). */
const isComponentName = (name) => /^[A-Z][a-z0-9]/.test(name) || /^[A-Z]$/.test(name);

/** A rule of the server: `from` a file, `to` a file or undefined for a package, `specifier` as written. */
const serverRule = (id, text, breaks) => ({ id, scope: "server", text, breaks });

/** Each rule looks at one import and answers whether it breaks the rule. */
export const RULES = [
  webRule(
    "web/feature-internals",
    "a feature imports another feature only through its index.ts",
    (a, b) => a.kind === "feature" && b.kind === "feature" && a.feature !== b.feature && !isFeatureIndex(b),
  ),
  webRule(
    "web/app-feature-internals",
    "app/ (and main.tsx) import a feature only through its index.ts",
    (a, b) => (a.kind === "app" || a.kind === "root") && b.kind === "feature" && !isFeatureIndex(b),
  ),
  webRule(
    "web/shared-imports-feature",
    "components/, lib/, api/ and locales/ never import features/",
    (a, b) => isShared(a) && b.kind === "feature",
  ),
  {
    id: "web/feature-composes-feature",
    scope: "web",
    text: "a feature takes hooks, functions, constants and types from another feature, never a component: screens made of several features are composed in app/",
    breaks: ({ from, to, names }) => {
      const a = webPlace(from);
      const b = webPlace(to);
      return a?.kind === "feature" && b?.kind === "feature" && a.feature !== b.feature && (names ?? []).some(isComponentName);
    },
  },
  webRule("web/shared-imports-app", "components/, lib/, api/ and locales/ never import app/", (a, b) => isShared(a) && b.kind === "app"),
  serverRule(
    "server/channels-imports-upper-layer",
    "channels/ never import modules/, db/, http/ or realtime/",
    ({ from, to }) => from.startsWith(`${SERVER}channels/`) && /^apps\/server\/src\/(modules|db|http|realtime)\//.test(to ?? ""),
  ),
  serverRule(
    "server/db-imports-modules",
    "db/ never imports modules/",
    ({ from, to }) => from.startsWith(`${SERVER}db/`) && (to ?? "").startsWith(`${SERVER}modules/`),
  ),
  serverRule(
    "server/http-imports-modules",
    "http/ never imports modules/ (routes use http/; what http/ needs of a module, app.ts hands it)",
    ({ from, to }) => from.startsWith(`${SERVER}http/`) && (to ?? "").startsWith(`${SERVER}modules/`),
  ),
  serverRule(
    "server/contacts-imports-tickets",
    "modules/contacts/ never imports modules/tickets/ (a ticket has a contact: tickets build on contacts)",
    ({ from, to }) => from.startsWith(`${SERVER}modules/contacts/`) && (to ?? "").startsWith(`${SERVER}modules/tickets/`),
  ),
  serverRule(
    "server/service-imports-fastify",
    "a service.ts never imports fastify or @fastify/*",
    ({ from, to, specifier }) =>
      from.startsWith(SERVER) && from.endsWith("/service.ts") && to === undefined && /^(fastify|@fastify\/)/.test(specifier),
  ),
];

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const SKIP_DIRS = new Set(["node_modules", "dist", "fixtures", "screenshots"]);

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...listFiles(join(dir, entry.name)));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(join(dir, entry.name));
  }
  return out;
}

/** Every module specifier a file names: imports, `export … from`, `import x = require()`, `import()` and `typeof import()`. */
export function importsOf(fileName, text) {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : fileName.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const add = (node, literal, how, names) => {
    if (literal && ts.isStringLiteralLike(literal)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ specifier: literal.text, line, how, names });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node))
      add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ? "import type" : "import", valueNames(node));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier)
      add(node, node.moduleSpecifier, node.isTypeOnly ? "export type" : "export");
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node, node.moduleReference.expression, "import");
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], "import()");
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, "typeof import()");
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The names an import declaration brings in as values (the default import and named imports without `type`; none for `import type`). */
function valueNames(node) {
  const clause = node.importClause;
  if (!clause || clause.isTypeOnly) return [];
  const names = clause.name ? [clause.name.text] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamedImports(bindings))
    for (const e of bindings.elements) if (!e.isTypeOnly) names.push((e.propertyName ?? e.name).text);
  return names;
}

/** A relative specifier to the file it names (`./x.js` is `./x.ts` in TypeScript sources); undefined for packages. */
function resolveSpecifier(root, fromFile, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(join(root, fromFile)), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, "");
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mjs`,
    `${base}.js`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
    join(base, "index.mjs"),
    join(base, "index.js"),
  ];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return toPosix(relative(root, c));
  return null;
}

const toPosix = (p) => p.split(sep).join("/");

/** The import graph of one workspace: file → its imports, each with the file it resolves to. */
function graphOf(root, workspace) {
  const graph = new Map();
  for (const dir of workspace.dirs) {
    for (const abs of listFiles(join(root, dir))) {
      const file = toPosix(relative(root, abs));
      const imports = importsOf(file, readFileSync(abs, "utf8")).map((i) => ({ ...i, to: resolveSpecifier(root, file, i.specifier) }));
      graph.set(file, imports);
    }
  }
  return graph;
}

/** Strongly connected components (Tarjan), each with one cycle path through it. */
export function cyclesOf(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const idx = new Map();
  const low = new Map();
  const components = [];
  const edges = (f) => [...new Set((graph.get(f) ?? []).map((i) => i.to).filter((t) => t && graph.has(t)))];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = edges(v).includes(v);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  // one shortest cycle per component, starting at its first file: a breadth-first walk back to the start
  return components.map((component) => {
    const inside = new Set(component);
    const start = component[0];
    const previous = new Map([[start, null]]);
    const queue = [start];
    let closing;
    while (queue.length && !closing) {
      const v = queue.shift();
      for (const w of edges(v).filter((x) => inside.has(x))) {
        if (w === start) {
          closing = v;
          break;
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = closing; v && v !== start; v = previous.get(v)) path.splice(1, 0, v);
    path.push(start);
    return { files: component, path };
  });
}

/**
 * Features that need each other, even through files that do not form a file cycle (tickets' page
 * showing chat's view while chat reads tickets' cache): the feature graph has no cycle either.
 */
function featureCycles(graph) {
  const example = new Map();
  const featureGraph = new Map();
  for (const [from, imports] of graph) {
    const a = webPlace(from);
    if (a?.kind !== "feature") continue;
    if (!featureGraph.has(a.feature)) featureGraph.set(a.feature, []);
    for (const i of imports) {
      const b = webPlace(i.to);
      if (b?.kind !== "feature" || b.feature === a.feature) continue;
      featureGraph.get(a.feature).push({ to: b.feature });
      if (!example.has(`${a.feature}>${b.feature}`)) example.set(`${a.feature}>${b.feature}`, `${from}:${i.line} imports ${i.to}`);
    }
  }
  for (const f of [...featureGraph.values()].flat()) if (!featureGraph.has(f.to)) featureGraph.set(f.to, []);
  return cyclesOf(featureGraph).map(({ path }) => {
    const arrows = path.slice(1).map((to, k) => `  ${path[k]} → ${to}: ${example.get(`${path[k]}>${to}`)}`);
    return {
      rule: "web/feature-cycle",
      message: `web/feature-cycle (features depend on each other one way only): ${path.join(" → ")}\n${arrows.join("\n")}`,
    };
  });
}

/**
 * A server file's folder, as the module map counts it: `modules/<area>`, or the top folder under
 * src/ (jobs, channels, lib, http, realtime, db), or "app" for the files at src/'s root (the
 * composition root and the process's entry, which may import anything). Tests are not in the map.
 */
export function serverFolder(file) {
  if (!file?.startsWith(SERVER)) return undefined;
  const parts = file.slice(SERVER.length).split("/");
  if (parts.length === 1) return "app";
  if (parts[0] === "modules" && parts.length > 2) return `modules/${parts[1]}`;
  return parts[0];
}

/** The server's folder-to-folder imports: "from → to" with one example import each. */
export function serverFolderGraph(graph) {
  const edges = new Map();
  for (const [from, imports] of graph) {
    const a = serverFolder(from);
    if (a === undefined || a === "app") continue;
    for (const i of imports) {
      const b = serverFolder(i.to);
      if (b === undefined || b === a) continue;
      const key = `${a}>${b}`;
      if (!edges.has(key)) edges.set(key, `${from}:${i.line} imports ${i.to}`);
    }
  }
  return edges;
}

/**
 * Folders of the server that need each other, even when no file cycle shows it (connections → health
 * → disparos → … → connections through different files): the folder graph has no cycle either.
 */
function serverFolderCycles(graph) {
  const edges = serverFolderGraph(graph);
  const folderGraph = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(">");
    if (!folderGraph.has(a)) folderGraph.set(a, []);
    if (!folderGraph.has(b)) folderGraph.set(b, []);
    folderGraph.get(a).push({ to: b });
  }
  return cyclesOf(folderGraph).map(({ path, files }) => {
    const arrows = path.slice(1).map((to, k) => `  ${path[k]} → ${to}: ${edges.get(`${path[k]}>${to}`)}`);
    const more = files.length > path.length - 1 ? ` (${files.length} folders take part: ${files.join(", ")})` : "";
    return {
      rule: "server/folder-cycle",
      message: `server/folder-cycle (the server's folders depend on each other one way only): ${path.join(" → ")}${more}\n${arrows.join("\n")}`,
    };
  });
}

/**
 * Runs the rules (those of `only`, or all) over the tree at `root`; answers the violations, each
 * with its rule and a message naming the importing and the imported file.
 */
export function check(root, { only } = {}) {
  const violations = [];
  const workspaces = WORKSPACES.filter((w) => !only || w.name === only);
  const rules = RULES.filter((r) => !only || r.scope === only);
  for (const workspace of workspaces) {
    const graph = graphOf(root, workspace);
    for (const [from, imports] of graph) {
      for (const i of imports) {
        if (i.to === null) {
          violations.push({
            rule: "unresolved",
            message: `unresolved: ${from}:${i.line} imports "${i.specifier}", which names no file`,
          });
          continue;
        }
        for (const rule of rules) {
          if (!rule.breaks({ from, to: i.to, specifier: i.specifier, names: i.names })) continue;
          const target = i.to ?? `the package "${i.specifier}"`;
          violations.push({
            rule: rule.id,
            message: `${rule.id} (${rule.text}): ${from}:${i.line} imports ${target}${i.how === "import" ? "" : ` (${i.how})`}`,
          });
        }
      }
    }
    if (workspace.name === "web" && (!only || only === "web")) violations.push(...featureCycles(graph));
    if (workspace.name === "server" && (!only || only === "server")) violations.push(...serverFolderCycles(graph));
    for (const cycle of cyclesOf(graph)) {
      violations.push({
        rule: "cycle",
        message: `cycle (no import cycle in a workspace) in ${workspace.name}: ${cycle.path.join(" → ")}${
          cycle.files.length > cycle.path.length - 1 ? ` (${cycle.files.length} files take part: ${cycle.files.join(", ")})` : ""
        }`,
      });
    }
  }
  return violations;
}

function main(argv) {
  let only;
  let root = resolve(import.meta.dirname, "..");
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--only") only = argv[++i];
    else if (argv[i] === "--root") root = resolve(argv[++i]);
    else if (argv[i] === "--folders") {
      // the server's module map: one line per folder-to-folder import, with an example
      const server = WORKSPACES.find((w) => w.name === "server");
      for (const [key, example] of [...serverFolderGraph(graphOf(root, server)).entries()].sort())
        console.log(`${key.replace(">", " → ")}    (${example.replace(/apps\/server\/src\//g, "")})`);
      return 0;
    } else {
      console.error(`check-imports: unknown argument ${argv[i]} (use --only web|server|contract|e2e|scripts, --root DIR, --folders)`);
      return 2;
    }
  }
  if (only && !WORKSPACES.some((w) => w.name === only)) {
    console.error(`check-imports: --only takes one of ${WORKSPACES.map((w) => w.name).join(", ")}`);
    return 2;
  }
  const violations = check(root, { only });
  for (const v of violations) console.error(v.message);
  const what = only ? `the ${only} workspace's rules` : "every rule";
  if (violations.length) {
    console.error(`\ncheck-imports: ${violations.length} import(s) break ${what} (see docs/architecture.md)`);
    return 1;
  }
  console.log(`check-imports: ${what} kept`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) process.exitCode = main(process.argv.slice(2));
