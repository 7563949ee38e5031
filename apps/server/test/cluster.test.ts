import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { connect, type Socket } from "socket.io-client";
import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, freePort, login, pairedConnection, quiet, Server } from "./crash-kit.js";

/**
 * Three server processes, one inbox (PostgreSQL + Redis). A simulator connection owned by one of
 * them; 20 customers write 1 000 messages and agents send 200, each request through a different
 * process in turn; the session's owner is killed (SIGKILL) in the middle. The requests that failed
 * are sent once more (customer messages with their id, agent sends with their Idempotency-Key)
 * once another process owns the session. Then: every customer message stored once, every agent
 * message stored once and on the customer's phone once; the seconds until the session was owned
 * again are printed. Then the new owner gets a SIGTERM during a second burst: its sessions are
 * handed over and not one request fails (a request its closed listener refused goes to the next
 * process, as a load balancer does). An agent socket on the process that survives both heard
 * every customer message (needs the cross-process events of lib/events.ts + the socket.io Redis
 * adapter).
 *
 * Always on PostgreSQL (TEST_DATABASE_URL's server, or 127.0.0.1:5432): a database of its own.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const CUSTOMERS = 20;
const INBOUND = 1000;
const OUTBOUND = 200;
const PARALLEL = 10;
/** the owner is killed when this many agent sends have been answered */
const KILL_AFTER_OUTBOUND = 100;
const SECOND_INBOUND = 200;
const SECOND_OUTBOUND = 50;
const TERM_AFTER_OUTBOUND = 20;

const dbName = `balcao_cluster_${randomBytes(5).toString("hex")}`;
const dbUrl = (() => {
  const u = new URL(SERVER_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const dataDir = mkdtempSync(join(tmpdir(), "balcao-cluster-"));
const sockets: Socket[] = [];
let sql: pg.Client | undefined;

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await sql?.end();
  await cleanupAll();
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await c.end();
  rmSync(dataDir, { recursive: true, force: true });
});

type Outcome = { ok: true } | { ok: false; status?: number; error: string };

/** One request to one process; a connection error (the process is gone) is an outcome too. */
async function attempt(
  base: string,
  token: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Outcome> {
  try {
    await call(base, token, method, path, body, headers);
    return { ok: true };
  } catch (err) {
    const status = (err as { status?: number }).status;
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { ok: false, status, error: status ? (err as Error).message : `network: ${cause ?? (err as Error).message}` };
  }
}

/** Runs tasks `parallel` at a time. */
async function pool<T>(items: T[], parallel: number, task: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const i = next++;
        await task(items[i], i);
      }
    }),
  );
}

async function leaseOf(whatsappId: number): Promise<{ owner: string; status: string } | undefined> {
  const { rows } = await (sql as pg.Client).query(
    `select l.owner, w.status from session_leases l join whatsapps w on w.id = l.whatsapp_id
     where l.whatsapp_id = $1 and l.expires_at > now()`,
    [whatsappId],
  );
  return rows[0];
}

async function socketFor(base: string, token: string) {
  const s = connect(base, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    s.once("connect", () => resolve());
    s.once("connect_error", (err) => reject(err));
  });
  sockets.push(s);
  const heard = new Set<string>();
  s.on("appMessage", (p: { message?: { body?: string; fromMe?: boolean } }) => {
    if (p.message && !p.message.fromMe && p.message.body) heard.add(p.message.body);
  });
  await new Promise((resolve) => s.emit("joinTickets", "open", resolve));
  return heard;
}

const heardBy = new Map<number, Set<string>>();
let survivor = -1;

// three spawned processes on PostgreSQL + Redis, ~1–3 min: run once in CI, in its PostgreSQL pass
// (TEST_DATABASE_URL set, on Node 24); the PGlite pass runs the two-process tests of ownership.test.ts
// and cluster-bus.test.ts instead. CLUSTER_TEST=1 runs it anywhere.
describe.skipIf(!process.env.TEST_DATABASE_URL && process.env.CLUSTER_TEST !== "1")("three processes, one inbox", () => {
  it("1 000 in, 200 out, the owner killed mid-way: nothing lost, nothing twice; then a SIGTERM hand-over without a failed request", async () => {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    sql = new pg.Client({ connectionString: dbUrl });
    await sql.connect();

    const env = (i: number) => ({ DATABASE_URL: dbUrl, REDIS_URL, DATA_DIR: dataDir, CLUSTER_NODE: `p${i}` });
    const servers = await Promise.all([0, 1, 2].map(async (i) => new Server(await freePort(), env(i))));
    // the first one applies the migrations and seeds; the other two start together
    await servers[0].start();
    await Promise.all([servers[1].start(), servers[2].start()]);
    const token = await login(servers[0].base);
    const live = new Set([0, 1, 2]);
    let turn = 0;
    const nextLive = () => {
      const ids = [...live];
      return ids[turn++ % ids.length];
    };

    const conn = await pairedConnection(servers[1].base, token, "Cluster", { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
    const indexOf = (owner: string) => Number(owner.split(":")[0].slice(1));
    const first = await leaseOf(conn.id);
    expect(first?.status).toBe("CONNECTED");
    const owner = indexOf(first?.owner as string);

    // 20 customers with an open ticket each, through every process in turn
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `55119700${String(i).padStart(5, "0")}`);
    for (const number of customers) {
      await call(servers[nextLive()].base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, {
        number,
        name: `C${number.slice(-2)}`,
        body: `hello ${number}`,
      });
    }
    await quiet(servers[0].base, token);
    const ticketOf = new Map<string, number>();
    const list = await call(servers[0].base, token, "GET", "/tickets?showAll=true&status=pending&rowsPerPage=200");
    for (const t of list.tickets) ticketOf.set(t.contact.number, t.id);
    expect(ticketOf.size).toBe(CUSTOMERS);
    for (const id of ticketOf.values()) await call(servers[nextLive()].base, token, "PUT", `/tickets/${id}`, { status: "open" });

    // an agent's socket on each process that does not own the session
    for (const i of [0, 1, 2].filter((i) => i !== owner)) heardBy.set(i, await socketFor(servers[i].base, token));

    const inbound = Array.from({ length: INBOUND }, (_, i) => ({
      i,
      number: customers[i % CUSTOMERS],
      id: `CLIN${String(i).padStart(6, "0")}`,
    }));
    const outbound = Array.from({ length: OUTBOUND }, (_, i) => ({ i, number: customers[i % CUSTOMERS], key: `cl-out-${i}` }));
    const sendIn = (base: string, m: (typeof inbound)[number]) =>
      attempt(base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, { number: m.number, body: `in ${m.i}`, id: m.id });
    const sendOut = (base: string, m: { i: number; number: string; key: string }, prefix = "agent") =>
      attempt(base, token, "POST", `/messages/${ticketOf.get(m.number)}`, { body: `${prefix} ${m.i}` }, { "idempotency-key": m.key });

    const failedIn: (typeof inbound)[number][] = [];
    const failedOut: (typeof outbound)[number][] = [];
    let answeredOut = 0;
    let killedAt = 0;
    let killing: Promise<void> | undefined;
    /** watches, from the kill on, for the session owned again by another process (connected) */
    const ownedAgain = async (): Promise<{ owner: string; status: string; at: number } | undefined> => {
      for (let i = 0; i < 1200; i++) {
        const l = await leaseOf(conn.id);
        if (l && indexOf(l.owner) !== owner && l.status === "CONNECTED") return { ...l, at: Date.now() };
        await new Promise((r) => setTimeout(r, 100));
      }
      return undefined;
    };
    let watching: ReturnType<typeof ownedAgain> | undefined;
    await Promise.all([
      pool(inbound, PARALLEL, async (m) => {
        if (!(await sendIn(servers[nextLive()].base, m)).ok) failedIn.push(m);
      }),
      pool(outbound, PARALLEL, async (m) => {
        if (!(await sendOut(servers[nextLive()].base, m)).ok) failedOut.push(m);
        if (++answeredOut === KILL_AFTER_OUTBOUND) {
          live.delete(owner);
          killedAt = Date.now();
          killing = servers[owner].kill();
          watching = ownedAgain();
        }
      }),
    ]);
    await killing;
    expect(killedAt).toBeGreaterThan(0);

    // the session owned again, by another process, from the database
    const again = await watching;
    expect(again).toBeDefined();
    const takeoverS = ((again?.at ?? Date.now()) - killedAt) / 1000;
    console.log(
      `cluster: the session was owned again ${takeoverS.toFixed(1)} s after the SIGKILL of its owner (p${owner} → ${again?.owner})`,
    );
    expect(takeoverS).toBeLessThan(30);
    const newOwner = indexOf(again?.owner as string);
    console.log(
      `cluster: ${failedIn.length} customer messages and ${failedOut.length} agent sends failed around the kill; each sent once more`,
    );

    // each failed request once more, through the live processes in turn
    for (const m of failedIn) expect(await sendIn(servers[nextLive()].base, m)).toEqual({ ok: true });
    for (const m of failedOut) expect(await sendOut(servers[nextLive()].base, m)).toEqual({ ok: true });
    await quiet(servers[newOwner].base, token);

    const check = async (inPrefix: string, inCount: number, outPrefix: string, outCount: number) => {
      // the database: every customer message once, every agent message once and sent
      const { rows: ins } = await (sql as pg.Client).query(
        `select body, count(*)::int as n from messages where whatsapp_id = $1 and not from_me and body like $2 group by body`,
        [conn.id, `${inPrefix} %`],
      );
      expect(ins.length).toBe(inCount);
      expect(ins.filter((r) => r.n !== 1)).toEqual([]);
      const { rows: outs } = await (sql as pg.Client).query(
        `select body, count(*)::int as n, count(sent_at)::int as sent from messages where from_me and body like $1 group by body`,
        [`${outPrefix} %`],
      );
      expect(outs.length).toBe(outCount);
      expect(outs.filter((r) => r.n !== 1 || r.sent !== 1)).toEqual([]);
      // the customers' phones: every agent message received once, every customer message kept once and delivered
      const { rows: phone } = await (sql as pg.Client).query(
        `select body, from_me, count(*)::int as n, bool_and(delivered) as delivered from simulator_messages
         where whatsapp_id = $1 and (body like $2 or body like $3) group by body, from_me`,
        [conn.id, `${inPrefix} %`, `${outPrefix} %`],
      );
      expect(phone.filter((r) => r.from_me).length).toBe(outCount);
      expect(phone.filter((r) => !r.from_me).length).toBe(inCount);
      expect(phone.filter((r) => r.n !== 1 || !r.delivered)).toEqual([]);
    };
    await check("in", INBOUND, "agent", OUTBOUND);

    // a SIGTERM of the new owner during a second burst: not one request fails
    survivor = [0, 1, 2].find((i) => i !== owner && i !== newOwner) as number;
    const inbound2 = Array.from({ length: SECOND_INBOUND }, (_, i) => ({
      i,
      number: customers[i % CUSTOMERS],
      id: `CLTERM${String(i).padStart(6, "0")}`,
    }));
    const outbound2 = Array.from({ length: SECOND_OUTBOUND }, (_, i) => ({ i, number: customers[i % CUSTOMERS], key: `cl-term-${i}` }));
    const failures: string[] = [];
    const exited = new Promise<void>((r) => servers[newOwner].proc?.once("exit", () => r()));
    /**
     * Like a load balancer (HAProxy's `retry-on conn-failure empty-response` + `option redispatch`):
     * a request that got no answer at all (the closing process's listener refused or dropped the
     * connection before reading it) goes to the next process; any answer counts, and an error is a failure.
     */
    const balanced = async (send: (base: string) => Promise<Outcome>) => {
      const tried = new Set<number>();
      const errors: string[] = [];
      for (;;) {
        const candidates = [...live].filter((i) => !tried.has(i));
        if (!candidates.length) break;
        const i = candidates[turn++ % candidates.length];
        tried.add(i);
        const r = await send(servers[i].base);
        if (r.ok) return;
        if (r.status !== undefined) {
          failures.push(r.error);
          return;
        }
        errors.push(`p${i} ${r.error}`);
      }
      failures.push(`no process answered: ${errors.join("; ")}`);
    };
    let answered2 = 0;
    await Promise.all([
      pool(inbound2, PARALLEL, (m) =>
        balanced((base) =>
          attempt(base, token, "POST", `/simulator/api/connections/${conn.id}/messages`, {
            number: m.number,
            body: `term ${m.i}`,
            id: m.id,
          }),
        ),
      ),
      pool(outbound2, PARALLEL / 2, async (m) => {
        await balanced((base) => sendOut(base, m, "agent-term"));
        if (++answered2 === TERM_AFTER_OUTBOUND) servers[newOwner].proc?.kill("SIGTERM");
      }),
    ]);
    await exited;
    live.delete(newOwner);
    expect(servers[newOwner].proc?.exitCode).toBe(0);
    expect(failures).toEqual([]);
    const last = await leaseOf(conn.id);
    expect(last && indexOf(last.owner)).toBe(survivor);
    await quiet(servers[survivor].base, token);
    await check("term", SECOND_INBOUND, "agent-term", SECOND_OUTBOUND);
  }, 300_000);

  it("an agent socket on the process that survived both heard every customer message", async () => {
    expect(survivor).toBeGreaterThanOrEqual(0);
    const heard = heardBy.get(survivor) as Set<string>;
    const missing = [
      ...Array.from({ length: INBOUND }, (_, i) => `in ${i}`),
      ...Array.from({ length: SECOND_INBOUND }, (_, i) => `term ${i}`),
    ].filter((b) => !heard.has(b));
    expect(missing.length).toBe(0);
  });
});
