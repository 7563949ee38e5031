// Issue 28 §8: two server processes (PostgreSQL + Redis) behind HAProxy with deploy/haproxy.cfg, started by
// deploy/cluster.mjs (HAProxy installed from Debian's packages when missing, like Chromium). Two agents, each
// with its socket on a different process (the example's socket.io cookie set up front), see each other's work
// live: the customer's new ticket (received by the process that owns the session) on both, then each one's
// acceptance leaving the other's waiting list. Also: deploy/nginx.conf is valid nginx and serves the cluster
// (HTTP and the socket.io handshake). Needs PostgreSQL and Redis: E2E_PG_URL (postgres://postgres@127.0.0.1:5432/postgres)
// and E2E_REDIS_URL (redis://127.0.0.1:6379); skipped, saying so, when they do not answer.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { freePort, root, startCluster } from "../../deploy/cluster.mjs";
import { ADMIN, launch, socketJoined } from "../lib/browser.mjs";
import { randomColor, ticketRow, until } from "../lib/conversation.mjs";

const PG_URL = process.env.E2E_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.E2E_REDIS_URL ?? "redis://127.0.0.1:6379";

let skip;
let cluster;
let dbName;
let browser;
let admin;

function reachable(url, dflt) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(u.port || dflt), u.hostname);
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/** The admin API at one address (the load balancer or one process). */
async function apiAt(base, token) {
  const tok =
    token ??
    (
      await (
        await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })
      ).json()
    ).token;
  const call = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${tok}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${base}${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { token: tok, get: (p) => call("GET", p), post: (p, b) => call("POST", p, b), put: (p, b) => call("PUT", p, b) };
}

before(async () => {
  if (!(await reachable(PG_URL, 5432)) || !(await reachable(REDIS_URL, 6379))) {
    skip = `PostgreSQL (${PG_URL}) or Redis (${REDIS_URL}) does not answer`;
    return;
  }
  dbName = `balcao_e2e_${randomBytes(5).toString("hex")}`;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`CREATE DATABASE ${dbName}`);
  await c.end();
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  cluster = await startCluster({
    // E2E_CLUSTER_PROCESSES=1 runs the same steps on one process behind HAProxy (checks the spec itself)
    processes: Number(process.env.E2E_CLUSTER_PROCESSES ?? 2),
    env: {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL,
      ENABLE_SIMULATOR: "true",
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
      LOGIN_RATE_PER_IP: "1000",
      NODE_ENV: "test",
      ALLOWED_PRIVATE_HOSTS: "127.0.0.0/8,localhost",
    },
    entry: process.env.E2E_SERVER_ENTRY,
  });
  admin = await apiAt(cluster.base);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await cluster?.stop();
  if (dbName) {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  }
});

/** A signed-in page whose socket lives on `server` (HAProxy's socket.io cookie, deploy/haproxy.cfg). */
async function agentOn(server, user) {
  const context = await browser.newContext({ baseURL: cluster.base, viewport: { width: 1366, height: 850 }, locale: "pt-BR" });
  await context.addCookies([{ name: "balcao_socket", value: server.name, domain: "127.0.0.1", path: "/" }]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const joined = socketJoined(page);
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Senha").fill(user.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL("**/tickets");
  await joined;
  await page.getByTestId("tab-waiting").click();
  await page.getByTestId("tickets-scroll").filter({ visible: true }).waitFor();
  return page;
}

test("two agents on different processes behind HAProxy see each other's work live", async (t) => {
  if (skip) return t.skip(skip);
  const [p1, p2 = p1] = cluster.servers;
  const health = async (s) => (await fetch(`${s.url}/health`)).json();
  if (p1 !== p2) assert.notEqual((await health(p1)).process, (await health(p2)).process);

  const queue = await admin.post("/queue", { name: `Suporte ${Date.now() % 10000}`, color: randomColor(), greetingMessage: "" });
  const mk = async (name) => {
    const email = `${name.toLowerCase()}.${Date.now()}@example.com`;
    const user = await admin.post("/users", { name, email, password: "segredo1", profile: "user", queueIds: [queue.id] });
    return { ...user, email, password: "segredo1" };
  };
  const ana = await mk("Ana");
  const beto = await mk("Beto");

  // a simulator connection; the process that owns its session answers for its phone
  const conn = await admin.post("/simulator/api/connections", { name: `Sim ${Date.now() % 10000}`, queueIds: [queue.id] });
  const owner = await until(async () => {
    for (const s of cluster.servers) if ((await health(s)).sessions.includes(conn.id)) return s;
  }, "the process that owns the new session");
  const phone = await apiAt(owner.url, admin.token);
  const qr = await until(async () => {
    const c = (await phone.get("/simulator/api/connections")).find((x) => x.id === conn.id);
    return c?.status === "qrcode" && c.qrcode;
  }, "the QR code");
  await phone.post(`/simulator/api/connections/${conn.id}/scan`, { qrcode: qr });
  await until(async () => (await admin.get("/simulator/api/connections")).find((x) => x.id === conn.id)?.status === "CONNECTED", "pairing");

  // Ana's socket on the first process, Beto's on the second: one of them is not the session's owner
  const anaPage = await agentOn(p1, ana);
  const betoPage = await agentOn(p2, beto);

  // two customers write: both agents see both new tickets in their waiting lists, live
  const first = { number: `5511${String(Date.now()).slice(-9)}`, name: `Carla ${randomBytes(2).toString("hex")}` };
  const second = { number: `5521${String(Date.now() + 1).slice(-9)}`, name: `Davi ${randomBytes(2).toString("hex")}` };
  for (const c of [first, second])
    await phone.post(`/simulator/api/connections/${conn.id}/messages`, { number: c.number, name: c.name, body: "oi, sem internet" });
  for (const page of [anaPage, betoPage]) for (const c of [first, second]) await ticketRow(page, c.name).waitFor({ timeout: 15_000 });

  // Ana accepts the first: it leaves Beto's waiting list; Beto accepts the second: it leaves Ana's
  await ticketRow(anaPage, first.name).getByRole("button", { name: "Atender" }).click();
  await anaPage.waitForURL(/\/tickets\/\d+$/);
  await until(async () => (await ticketRow(betoPage, first.name).count()) === 0, "Ana's accepted ticket leaving Beto's waiting list");
  await ticketRow(betoPage, second.name).getByRole("button", { name: "Atender" }).click();
  await betoPage.waitForURL(/\/tickets\/\d+$/);
  await anaPage.getByTestId("tab-waiting").click();
  await until(async () => (await ticketRow(anaPage, second.name).count()) === 0, "Beto's accepted ticket leaving Ana's waiting list");

  // Ana answers: her message reaches the customer's phone (sent by the session's owner)
  const input = anaPage.getByTestId("message-input");
  await anaPage.getByTestId("tab-assigned").click();
  await ticketRow(anaPage, first.name).click();
  await input.fill("Já estou verificando.");
  await input.press("Enter");
  await until(
    async () =>
      (await phone.get(`/simulator/api/connections/${conn.id}/chats/${first.number}`)).messages.some(
        (m) => m.fromMe && m.body.includes("Já estou verificando."),
      ),
    "the answer on the customer's phone",
  );
});

test("deploy/nginx.conf is valid nginx and serves the processes (HTTP and the socket.io handshake)", async (t) => {
  if (skip) return t.skip(skip);
  const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => spawnSync(p, ["-v"], { stdio: "ignore" }).status === 0);
  if (!nginx) return t.skip("nginx is not installed (apt-get install nginx)");
  const dir = mkdtempSync(join(tmpdir(), "balcao-nginx-"));
  const port = await freePort();
  const [p1, p2 = p1] = cluster.servers;
  const site = readFileSync(join(root, "deploy/nginx.conf"), "utf8")
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
    .replaceAll("127.0.0.1:8081", `127.0.0.1:${p1.port}`)
    .replaceAll("127.0.0.1:8082", `127.0.0.1:${p2.port}`);
  writeFileSync(join(dir, "site.conf"), site);
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fastcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n  include ${dir}/site.conf;\n}\n`,
  );
  const check = spawnSync(nginx, ["-t", "-p", dir, "-c", join(dir, "nginx.conf")], { encoding: "utf8" });
  assert.equal(check.status, 0, check.stderr);
  const proc = spawn(nginx, ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: "ignore" });
  try {
    const base = `http://127.0.0.1:${port}`;
    const seen = await until(async () => {
      const s = new Set();
      for (let i = 0; i < 6; i++) s.add((await (await fetch(`${base}/health`)).json()).process);
      return s.size === cluster.servers.length && s;
    }, "every process answering through nginx");
    assert.equal(seen.size, cluster.servers.length);
    const hs = await fetch(`${base}/socket.io/?EIO=4&transport=polling`);
    assert.equal(hs.status, 200);
    assert.match(await hs.text(), /"sid":"/);
  } finally {
    proc.kill("SIGTERM");
    await new Promise((r) => (proc.exitCode !== null ? r() : proc.once("exit", r)));
    rmSync(dir, { recursive: true, force: true });
  }
});
