import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createQueue, customerSays, multipart, pairedSimulator } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";
import { type Caller, type Fixture, HIDDEN_ROUTES, PERMISSIONS, type Row, type Target } from "./permissions.table.js";

/**
 * Issue 12, item 4: every route of the OpenAPI document (and the hidden ones that matter), called
 * as anonymous, an agent on its own queue's and on another queue's things, a supervisor and an
 * admin, against the table in permissions.table.ts. A route without a row fails.
 */

const CALLERS: Caller[] = ["anon", "own", "other", "superv", "admin"];

let t: TestApp;
let f: Fixture;
let routes: string[];
const tokens = {} as Record<Exclude<Caller, "anon">, string>;
const emails = {} as Record<Exclude<Caller, "anon">, string>;
const passwords = { own: "agent-pass", other: "agent-pass", superv: "superv-pass", admin: "admin123" };
let connB: number;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  const queueA = await createQueue(t, "Fila A");
  const queueB = await createQueue(t, "Fila B");
  const simA = await pairedSimulator(t, { name: "WA A", queueIds: [queueA], isDefault: true });
  const simB = await pairedSimulator(t, { name: "WA B", queueIds: [queueB] });
  connB = simB.whatsappId;
  const agentA = await t.createUser({ name: "Agente A", password: "agent-pass", queueIds: [queueA] });
  const agentB = await t.createUser({ name: "Agente B", password: "agent-pass", queueIds: [queueB] });
  const superv = await t.createUser({ name: "Supervisora A", profile: "superv", password: "superv-pass", queueIds: [queueA] });
  Object.assign(tokens, { own: agentA.token, other: agentA.token, superv: superv.token, admin: t.adminToken });
  Object.assign(emails, { own: agentA.email, other: agentA.email, superv: superv.email, admin: "admin@balcao.local" });

  await customerSays(t, simA, "5511922220001", "oi A");
  await customerSays(t, simB, "5511922220002", "oi B");
  const ticketOf = async (n: string) => (await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${n}`)).body.tickets[0];
  const tA = await ticketOf("5511922220001");
  const tB = await ticketOf("5511922220002");
  await api(t, agentA.token, "PUT", `/tickets/${tA.id}`, { status: "open" });
  await api(t, t.adminToken, "PUT", `/tickets/${tB.id}`, { status: "open" });
  const mA = await api(t, agentA.token, "POST", `/messages/${tA.id}`, { body: "do agente" });
  const mB = await api(t, t.adminToken, "POST", `/messages/${tB.id}`, { body: "do admin" });
  const qa = await api(t, t.adminToken, "POST", "/quickAnswers", { shortcut: "ola", message: "Olá, tudo bem?" });
  const tag = await api(t, t.adminToken, "POST", "/tags", { name: "VIP", color: "#ff0000" });
  await api(t, t.adminToken, "PUT", "/settings/enableContract", { value: "enabled" });
  const contractOf = async (token: string, ticketId: number) =>
    (await api(t, token, "POST", "/api/contratos", { ticketId, nome: "Maria da Silva", email: "", cpf: "529.982.247-25" })).body
      .id as number;
  const contract = { own: await contractOf(agentA.token, tA.id), other: await contractOf(t.adminToken, tB.id) };
  f = {
    queue: { own: queueA, other: queueB },
    ticket: { own: tA.id, other: tB.id },
    contact: { own: { id: tA.contact.id, number: tA.contact.number }, other: { id: tB.contact.id, number: tB.contact.number } },
    message: { own: mA.body[0].id, other: mB.body[0].id },
    user: { own: agentA.id, other: agentB.id },
    whatsapp: { own: simA.whatsappId, other: simB.whatsappId },
    contract,
    quickAnswer: qa.body.id,
    tag: tag.body.id,
    agentEmail: agentA.email,
    seq: () => ++seq,
  };
  const doc = (await t.app.inject({ method: "GET", url: "/api-docs/json" })).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
});
afterAll(() => t.teardown());

/** A throwaway target for a route that destroys it. */
async function fresh(kind: NonNullable<Row["fresh"]>): Promise<number> {
  const n = f.seq();
  if (kind === "user") return (await t.createUser({ name: "Descartável" })).id;
  if (kind === "queue") return createQueue(t, `Descartável ${n}`);
  if (kind === "quickAnswer")
    return (await api(t, t.adminToken, "POST", "/quickAnswers", { shortcut: `desc${n}`, message: "descartável" })).body.id;
  if (kind === "tag") return (await api(t, t.adminToken, "POST", "/tags", { name: `Desc ${n}`, color: "#000000" })).body.id;
  if (kind === "whatsapp") return (await api(t, t.adminToken, "POST", "/whatsapp", { name: `Desc ${n}`, type: "simulator" })).body.id;
  const contact = (await api(t, t.adminToken, "POST", "/contacts", { name: "Descartável", number: `55118${String(n).padStart(8, "0")}` }))
    .body;
  if (kind === "contact") return contact.id;
  const ticket = await api(t, t.adminToken, "POST", "/tickets", {
    contactId: contact.id,
    queueId: f.queue.other,
    whatsappId: connB,
    status: "open",
  });
  return ticket.body.id;
}

function fill(path: string, target: Target, freshId?: number): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (freshId !== undefined && (name === "id" || name === "ticketId")) return String(freshId);
    const base = path.split("/")[1];
    if (name === "key") return path.startsWith("/settings") ? "mail_host" : "0123456789abcdef0123456789abcdef.png";
    if (name === "tagId") return String(f.tag);
    if (name === "number") return f.contact[target].number;
    if (name === "messageId") return "nenhuma";
    if (name === "ticketId") return String(f.ticket[target]);
    if (base === "tickets") return String(f.ticket[target]);
    if (base === "messages") return String(f.message[target]);
    if (base === "contacts") return String(f.contact[target].id);
    if (base === "users") return String(f.user[target]);
    if (base === "queue") return String(f.queue[target]);
    if (base === "quickAnswers") return String(f.quickAnswer);
    if (base === "tags") return String(f.tag);
    if (path.startsWith("/api/contratos")) return String(f.contract[target]);
    return String(f.whatsapp[target]); // whatsapp, whatsappsession, typebot, simulator
  });
}

async function call(route: string, row: Row, caller: Caller): Promise<number> {
  const [method, path] = route.split(" ") as ["GET" | "POST" | "PUT" | "DELETE", string];
  const target: Target = caller === "own" ? "own" : "other";
  let token = caller === "anon" ? undefined : tokens[caller];
  if (row.freshSession && caller !== "anon") {
    const res = await t.app.inject({ method: "POST", url: "/auth/login", payload: { email: emails[caller], password: passwords[caller] } });
    token = res.json().token;
  }
  const freshId = row.fresh ? await fresh(row.fresh) : undefined;
  const url = fill(path, target, freshId);
  const headers = { ...(token && bearer(token)), accept: "application/json" };
  if (row.csv) {
    const form = multipart({}, [
      {
        field: "file",
        name: "c.csv",
        type: "text/csv",
        data: Buffer.from(`nome,numero\nImportado,5511977${String(f.seq()).padStart(6, "0")}\n`),
      },
    ]);
    return (await t.app.inject({ method, url, headers: { ...headers, ...form.headers }, payload: form.payload })).statusCode;
  }
  const body = row.body?.(f, target);
  return (await t.app.inject({ method, url, headers, ...(body !== undefined && { payload: body as object }) })).statusCode;
}

describe("owner-only actions on an open ticket (item 3, transfer)", () => {
  it("another agent of the same queue cannot transfer an open ticket it does not own; a supervisor can", async () => {
    const colleague = await t.createUser({ name: "Colega A", queueIds: [f.queue.own] });
    const move = { queueId: f.queue.other, userId: null, status: "pending", transf: true };
    const refused = await api(t, colleague.token, "PUT", `/tickets/${f.ticket.own}`, move);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api(t, colleague.token, "PUT", `/tickets/${f.ticket.own}`, { status: "closed" })).status).toBe(403);
    const superv = await api(t, tokens.superv, "PUT", `/tickets/${f.ticket.own}`, { userId: f.user.own, transf: true });
    expect(superv.status).toBe(200);
  });
});

describe("route × role", () => {
  it("every route of the OpenAPI document has a row, and every row a route", () => {
    const missing = routes.filter((r) => !PERMISSIONS[r]).map((r) => `${r}: add its row to test/permissions.table.ts`);
    const stale = Object.keys(PERMISSIONS)
      .filter((r) => !routes.includes(r) && !HIDDEN_ROUTES.includes(r))
      .map((r) => `${r}: no such route any more; remove its row from test/permissions.table.ts`);
    expect([...missing, ...stale]).toEqual([]);
  });

  it("each caller gets what the table says", async () => {
    // rows that wipe shared things run last, and the one ending sessions after them
    const rank = (r: string) => Number(!!PERMISSIONS[r].last) + Number(!!PERMISSIONS[r].freshSession);
    const order = [...routes, ...HIDDEN_ROUTES].filter((r) => PERMISSIONS[r]).sort((a, b) => rank(a) - rank(b));
    const wrong: string[] = [];
    let cases = 0;
    for (const route of order) {
      const row = PERMISSIONS[route];
      for (const caller of CALLERS) {
        const status = await call(route, row, caller);
        cases++;
        const want = row.expect[caller];
        const ok = want === "ok" ? status < 500 && status !== 401 && status !== 403 : status === want;
        if (!ok || status >= 500) wrong.push(`${route} as ${caller}: ${status}, expected ${want}`);
      }
    }
    console.log(`permissions: ${order.length} routes × ${CALLERS.length} callers = ${cases} cases`);
    expect(wrong).toEqual([]);
  });
});
