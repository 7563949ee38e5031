import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../src/app.js";
import { DEMO_ADMIN } from "../src/config.js";
import { openDatabase } from "../src/db/client.js";
import { startSession } from "../src/modules/connections/service.js";
import { testConfig } from "./helpers.js";

/**
 * Several server processes on one PostgreSQL (DATABASE_URL): each WhatsApp session is owned by one
 * process (a lease), and what needs the session reaches its owner from any process. The apps here
 * are in one test process, each with its own pool, listener and node name (the spawned cluster is
 * cluster.test.ts). Always on PostgreSQL (127.0.0.1:5432, or TEST_DATABASE_URL's server): a
 * database of its own, dropped afterwards, in the PGlite pass too.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `balcao_own_${randomBytes(5).toString("hex")}`;
const dbUrl = (() => {
  const u = new URL(SERVER_URL);
  u.pathname = `/${name}`;
  return u.toString();
})();

type Node = App & { token: string; dataDir: string };
const nodes: Node[] = [];

async function startNode(node: string): Promise<Node> {
  const database = await openDatabase({ databaseUrl: dbUrl, poolSize: 5 });
  const config = testConfig({
    DATABASE_URL: dbUrl,
    CLUSTER_NODE: node,
    SESSION_LEASE_TTL_MS: "3000",
    SESSION_LEASE_RENEW_MS: "500",
    OUTBOX_POLL_MS: "500",
  });
  const built = await buildApp(config, { database, logger: false, serveWeb: false, simulatorAckDelayMs: 20 });
  const login = await built.app.inject({
    method: "POST",
    url: "/auth/login",
    payload: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
  });
  const n = Object.assign(built, { token: login.json().token as string, dataDir: config.dataDir });
  const close = built.close;
  n.close = async () => {
    await close();
    await database.close();
  };
  nodes.push(n);
  return n;
}

async function api(n: Node, method: string, url: string, payload?: unknown) {
  const res = await n.app.inject({
    method: method as "GET",
    url,
    headers: { authorization: `Bearer ${n.token}` },
    ...(payload !== undefined && { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The QR code the simulator page shows for a connection, once its session's status has been stored
 * (a new connection's answer comes before that; the page hears it over the socket).
 */
const shownQr = (n: Node, id: number) =>
  until("the QR code shown", async () => {
    const c = (await api(n, "GET", "/simulator/api/connections")).body.find((x: { id: number }) => x.id === id);
    return c?.status === "qrcode" && (c.qrcode as string);
  });

/** Which of the nodes run each connection's session (the live ChannelManager sessions). */
const runners = (ids: number[], of: Node[]) => ids.map((id) => of.filter((n) => n.channels.get(id)).length);

const CONNECTIONS = 3;
let connIds: number[] = [];

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  // one process pairs three simulator connections, then hands them over as it stops
  const first = await startNode("first");
  for (let i = 0; i < CONNECTIONS; i++) {
    const conn = await api(first, "POST", "/simulator/api/connections", { name: `Sim ${i}` });
    expect(conn.status).toBe(200);
    const shown = await shownQr(first, conn.body.id);
    expect((await api(first, "POST", `/simulator/api/connections/${conn.body.id}/scan`, { qrcode: shown })).status).toBe(200);
    connIds.push(conn.body.id);
  }
  expect(first.ownership?.ownedIds()).toEqual(connIds);
  await first.close();
  nodes.splice(nodes.indexOf(first), 1);
}, 60_000);

afterAll(async () => {
  for (const n of nodes) await n.close().catch(() => {});
  for (const n of nodes) rmSync(n.dataDir, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
});

describe("several processes, one inbox: session ownership", () => {
  let a: Node;
  let b: Node;

  it("two processes starting together start each session once", async () => {
    [a, b] = await Promise.all([startNode("node-a"), startNode("node-b")]);
    // every connection ends up owned and connected; never run by both
    await until("every session owned", async () => runners(connIds, [a, b]).every((n) => n === 1) && true);
    expect(runners(connIds, [a, b])).toEqual(connIds.map(() => 1));
    const owned = [...(a.ownership?.ownedIds() ?? []), ...(b.ownership?.ownedIds() ?? [])].sort((x, y) => x - y);
    expect(owned).toEqual(connIds);
    // the leases say the same
    const rows = await a.ctx.database.query<{ whatsapp_id: number; owner: string }>(
      "select whatsapp_id, owner from session_leases order by whatsapp_id",
    );
    expect(rows.map((r) => r.owner)).toEqual(connIds.map((id) => (a.channels.get(id) ? a.ownership?.id : b.ownership?.id)));
  });

  it("what needs the session reaches its owner from the other process (simulator, agent send, phone's contacts)", async () => {
    const id = connIds[0];
    const owner = a.channels.get(id) ? a : b;
    const other = owner === a ? b : a;
    await until("connected", async () => (await owner.channels.isConnected(id)) && (await other.channels.isConnected(id)));
    // a customer writes through the process that does not own the session
    const sent = await api(other, "POST", `/simulator/api/connections/${id}/messages`, {
      number: "5511977770001",
      name: "Cli",
      body: "oi",
    });
    expect(sent.status).toBe(200);
    const ticket = await until("the ticket", async () => {
      const list = await api(other, "GET", "/tickets?showAll=true&status=pending");
      return list.body.tickets.find((t: { contact: { number: string } }) => t.contact.number === "5511977770001");
    });
    // an agent takes the ticket and answers through that process too: the owner's sender sends it (woken by NOTIFY)
    expect((await api(other, "PUT", `/tickets/${ticket.id}`, { status: "open" })).status).toBe(200);
    const reply = await api(other, "POST", `/messages/${ticket.id}`, { body: "resposta pelo outro processo" });
    expect(reply.status).toBe(200);
    const phone = await until("the phone has the reply", async () => {
      const chat = await api(other, "GET", `/simulator/api/connections/${id}/chats/5511977770001`);
      return chat.body.messages.some((m: { fromMe: boolean; body: string }) => m.fromMe && m.body === "resposta pelo outro processo")
        ? chat.body
        : undefined;
    });
    expect(phone.messages.filter((m: { fromMe: boolean }) => m.fromMe)).toHaveLength(1);
    // the phone's contacts ('Importar do WhatsApp') come from the owner's session
    const imported = await api(other, "POST", "/contacts/import", { whatsappId: id });
    expect(imported.status).toBe(200);
  });

  it("a connection created on one process is started there, once", async () => {
    const conn = await api(b, "POST", "/simulator/api/connections", { name: "Nova" });
    expect(conn.status).toBe(200);
    connIds = [...connIds, conn.body.id];
    expect(b.channels.get(conn.body.id)).toBeDefined();
    expect(a.channels.get(conn.body.id)).toBeUndefined();
    // its QR code scanned through the other process
    const shown = await shownQr(a, conn.body.id);
    expect((await api(a, "POST", `/simulator/api/connections/${conn.body.id}/scan`, { qrcode: shown })).status).toBe(200);
    await until("connected", async () => b.channels.get(conn.body.id)?.connected);
  });

  it("a connection created while a lease round runs is started once: the QR code shown is the one its session scans", async () => {
    // a process that owns nothing yet: each of its rounds takes any connection without a lease
    const r = await startNode("node-r");
    const starts: number[] = [];
    // every process's session starts (one of the others' rounds may take the new connection first)
    r.ctx.events.onEverywhere("whatsapp.session", ({ id, status }) => void (status === "OPENING" && starts.push(id)));
    for (let i = 0; i < 4; i++) {
      // rounds back to back while the connection is created: one finds the new row without a lease
      // and takes it over while the request starts it too
      let created = false;
      const rounds = (async () => {
        while (!created) await r.ownership?.tick();
      })();
      const conn = await api(r, "POST", "/simulator/api/connections", { name: `Corrida ${i}` }).finally(() => (created = true));
      await rounds;
      expect(conn.status).toBe(200);
      connIds = [...connIds, conn.body.id];
      const shown = await shownQr(a, conn.body.id);
      expect((await api(a, "POST", `/simulator/api/connections/${conn.body.id}/scan`, { qrcode: shown })).status).toBe(200);
      await until("its start heard", () => starts.includes(conn.body.id));
      expect(starts.filter((id) => id === conn.body.id)).toHaveLength(1);
    }
    // deterministic: a connection whose session a lease round has already started (here or on
    // another process) is not started again when its creation asks for it ("ensure")
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const { rows } = await db.query<{ id: number }>("insert into whatsapps (name, type) values ('Já iniciada', 'simulator') returning id");
    await db.end();
    const id = rows[0].id;
    connIds = [...connIds, id];
    const all = [a, b, r];
    const owner = await until("a round's owner started it", async () => {
      await Promise.all(all.map((n) => n.ownership?.tick()));
      return all.find((n) => n.channels.get(id));
    });
    const shownBefore = await shownQr(a, id);
    await until("its start heard", () => starts.includes(id));
    const other = all.find((n) => n !== owner) as Node;
    await startSession(other.ctx, other.channels, id, "ensure");
    await startSession(owner.ctx, owner.channels, id, "ensure");
    expect(starts.filter((s) => s === id)).toHaveLength(1);
    expect(await shownQr(a, id)).toBe(shownBefore);
    expect((await api(a, "POST", `/simulator/api/connections/${id}/scan`, { qrcode: shownBefore })).status).toBe(200);
    await until("connected", async () => owner.channels.get(id)?.connected);
    await r.close();
    nodes.splice(nodes.indexOf(r), 1);
  });

  it("a process that stops hands its sessions over at once; the other starts them from the database", async () => {
    const before = a.ownership?.ownedIds() ?? [];
    expect(before.length).toBeGreaterThan(0);
    // a customer message a stored and died before announcing (stored here without an event): the
    // process taking the session over announces its connection's last messages again
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const { rows: ticketRows } = await db.query<{ id: number }>("select id from tickets order by id limit 1");
    await db.query(
      "insert into messages (whatsapp_id, ticket_id, body, from_me, wid) values ($1, $2, 'guardada e nunca anunciada', false, 'UNANNOUNCED1')",
      [before[0], ticketRows[0].id],
    );
    await db.end();
    const announced: string[] = [];
    b.ctx.events.on("message.updated", ({ message }) => void announced.push(message.body));
    await a.close();
    nodes.splice(nodes.indexOf(a), 1);
    await until("all sessions on b", async () => connIds.every((id) => b.channels.get(id)?.connected) && true);
    expect(b.ownership?.ownedIds()).toEqual(connIds);
    expect(before.every((id) => b.channels.get(id))).toBe(true);
    await until("the unannounced message announced by b", async () => announced.includes("guardada e nunca anunciada"));
    // no process owns a connection: a live-session call from a third process answers the owner's
    const c = await startNode("node-c");
    const check = await api(c, "GET", `/simulator/api/connections/${connIds[0]}/chats`);
    expect(check.status).toBe(200);
  });
});
