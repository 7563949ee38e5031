import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBrCode } from "../src/lib/pix-brcode.js";
import { bearer } from "./helpers.js";
import { api, createQueue, pairedSimulator, phoneOf, settle, type SimConnection } from "./conversation-kit.js";
import { SGP_APP, SGP_TOKEN, startFakeSgp } from "./fakes/sgp.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * The agent's customer panel over HTTP against the fake SGP: the customer found by the contact's
 * phone or a typed CPF, 2ª via and PIX sent through the outbox to the customer's phone, a confirmed
 * unlock recorded, who may do what, 'Testar conexão', and a billing system that is down answering
 * at once while the inbox goes on.
 */

let t: TestApp;
let sgp: Awaited<ReturnType<typeof startFakeSgp>>;
let sim: SimConnection;
let agent: { id: number; token: string };
let colleague: { token: string };
let queueA: number;
const MARIA = "5549991234567";
const EMPRESA = "5548900002222";

async function ticketFor(number: string, userId: number) {
  const contact = (await api(t, t.adminToken, "POST", "/contacts", { name: `Cliente ${number.slice(-4)}`, number })).body;
  const ticket = await api(t, t.adminToken, "POST", "/tickets", {
    contactId: contact.id,
    whatsappId: sim.whatsappId,
    queueId: queueA,
    status: "open",
    userId,
  });
  if (ticket.status !== 200) throw new Error(JSON.stringify(ticket.body));
  return ticket.body.id as number;
}

beforeAll(async () => {
  sgp = await startFakeSgp();
  t = await createTestApp(
    {},
    { billingHttp: { timeoutMs: 400, attempts: 2, backoffMs: 10, breakerThreshold: 2, breakerCooldownMs: 60_000 } },
  );
  queueA = await createQueue(t, "Financeiro");
  const queueB = await createQueue(t, "Suporte");
  sim = await pairedSimulator(t, { queueIds: [queueA, queueB], greetingMessage: "Olá! Escolha um setor." });
  agent = await t.createUser({ name: "Ana", queueIds: [queueA] });
  colleague = await t.createUser({ name: "Bruno", queueIds: [queueB] });
  for (const [key, value] of [
    ["integrationSystem", "SGP"],
    ["integrationUrl", sgp.url],
    ["integrationApp", SGP_APP],
    ["integrationToken", SGP_TOKEN],
    ["pixKey", "12345678000195"],
    ["pixMerchantName", "Provedor Exemplo"],
    ["pixMerchantCity", "Chapecó"],
  ])
    expect((await api(t, t.adminToken, "PUT", `/settings/${key}`, { value })).status).toBe(200);
});
afterAll(async () => {
  await t.teardown();
  await sgp.close();
});

describe("the customer panel", () => {
  it("finds the customer by the contact's phone: contracts, open invoices oldest first, connection status", async () => {
    const ticketId = await ticketFor(MARIA, agent.id);
    const res = await api(t, agent.token, "GET", `/billing/${ticketId}/customer`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      system: "SGP",
      via: "phone",
      contract: { id: "1001", status: "suspended" },
      connection: { state: "blocked" },
    });
    expect(res.body.invoices.map((i: { id: string }) => i.id)).toEqual(["9001", "9003"]);
    // another agent does not see it
    expect((await api(t, colleague.token, "GET", `/billing/${ticketId}/customer`)).status).toBe(403);
  });

  it("a CPF typed by the agent is checked, found, and linked to the ticket (the panel then starts from it)", async () => {
    const ticketId = await ticketFor(EMPRESA, agent.id);
    expect((await api(t, agent.token, "GET", `/billing/${ticketId}/customer`)).body).toMatchObject({
      via: "none",
      contract: null,
      invoices: [],
    });
    expect((await api(t, agent.token, "GET", `/billing/${ticketId}/customer?document=12345678000196`)).body.error).toBe(
      "ERR_INVALID_DOCUMENT",
    );
    const typed = await api(t, agent.token, "GET", `/billing/${ticketId}/customer?document=12.345.678/0001-95`);
    expect(typed.body).toMatchObject({ via: "document", contract: { id: "2002" } });
    const again = await api(t, agent.token, "GET", `/billing/${ticketId}/customer`);
    expect(again.body).toMatchObject({ via: "linked", contract: { id: "2002" }, connection: { state: "online" } });
  });

  it("sends a 2ª via into the conversation through the outbox: the bill, the PIX code and its QR reach the phone", async () => {
    const list = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${MARIA}`);
    const ticketId = list.body.tickets[0].id as number;
    const sent = await api(t, agent.token, "POST", `/billing/${ticketId}/send-invoice`, { contractId: "1001", invoiceId: "9001" });
    expect(sent.status).toBe(200);
    expect(sent.body.messageIds).toHaveLength(3);
    await settle(t);
    // the three go one typing gap apart (a reply's replyGapMs): wait for the third on the phone
    let phone = await phoneOf(sim, MARIA);
    for (let i = 0; i < 200 && !phone.some((m) => m.fromMe && m.mediaType === "image"); i++) {
      await new Promise((r) => setTimeout(r, 25));
      phone = await phoneOf(sim, MARIA);
    }
    const bodies = phone.map((m) => m.body ?? "");
    expect(bodies.some((b) => b.includes("Linha digitável: 23790.00009 00000.000003 00000.000000 1 99990000008990"))).toBe(true);
    const pix = bodies.find((b) => b.startsWith("000201")) as string;
    expect(parseBrCode(pix, { strict: true }).get("54")).toBe("89.90");
    expect(phone.some((m) => m.fromMe && m.mediaType === "image" && m.mimetype === "image/png")).toBe(true);
    // a colleague may not write in someone else's open ticket
    expect((await api(t, colleague.token, "POST", `/billing/${ticketId}/send-pix`, { contractId: "1001", invoiceId: "9001" })).status).toBe(
      403,
    );
    // an invoice of another customer's contract cannot be sent from this ticket
    expect((await api(t, agent.token, "POST", `/billing/${ticketId}/send-pix`, { contractId: "2002", invoiceId: "9100" })).body.error).toBe(
      "ERR_BILLING_CUSTOMER_NOT_FOUND",
    );
  });

  it("a 2ª via sent again with the same Idempotency-Key (a click retried after a lost answer) reaches the phone once", async () => {
    const list = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${MARIA}`);
    const ticketId = list.body.tickets[0].id as number;
    const send = () =>
      t.app.inject({
        method: "POST",
        url: `/billing/${ticketId}/send-pix`,
        headers: { ...bearer(agent.token), "idempotency-key": "clique-2via-1" },
        payload: { contractId: "1001", invoiceId: "9001" },
      });
    await settle(t);
    const before = (await phoneOf(sim, MARIA)).length;
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    await settle(t);
    const added = (await phoneOf(sim, MARIA)).slice(before);
    expect(added).toHaveLength(first.json().messageIds.length);
    expect(added.filter((m) => (m.body ?? "").startsWith("000201"))).toHaveLength(1);
    // a new click is a new key: sent again
    const third = await t.app.inject({
      method: "POST",
      url: `/billing/${ticketId}/send-pix`,
      headers: { ...bearer(agent.token), "idempotency-key": "clique-2via-2" },
      payload: { contractId: "1001", invoiceId: "9001" },
    });
    expect(third.json().messageIds).not.toEqual(first.json().messageIds);
  });

  it("a confirmed unlock: SGP's answer, recorded with the agent, the customer told", async () => {
    const list = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${MARIA}`);
    const ticketId = list.body.tickets[0].id as number;
    expect((await api(t, agent.token, "POST", `/billing/${ticketId}/unlock`, { contractId: "1001" })).status).toBe(400); // not confirmed
    const res = await api(t, agent.token, "POST", `/billing/${ticketId}/unlock`, { contractId: "1001", confirm: true });
    expect(res.body).toMatchObject({ unlocked: true, days: 3, protocol: "PRT1001" });
    expect(res.body.messageIds).toHaveLength(1);
    const { rows } = await t.ctx.db.execute<{ user_id: number; ok: boolean; protocol: string; action: string }>(
      sql`select user_id, ok, protocol, action from billing_actions where ticket_id = ${ticketId}`,
    );
    expect(rows).toEqual([{ user_id: agent.id, ok: true, protocol: "PRT1001", action: "unlock" }]);
    expect(sgp.requests.at(-1)?.body.conteudo).toContain("Ana");
    await settle(t);
    expect((await phoneOf(sim, MARIA)).some((m) => (m.body ?? "").includes("liberada por 3 dia(s)"))).toBe(true);
    // the panel shows the record
    const panel = await api(t, agent.token, "GET", `/billing/${ticketId}/customer`);
    expect(panel.body.actions).toEqual([
      expect.objectContaining({ action: "unlock", ok: true, protocol: "PRT1001", userName: "Ana", message: "Liberado com sucesso" }),
    ]);
  });

  it("'Testar conexão' answers what is wrong without the secret, and ok with the saved settings", async () => {
    expect((await api(t, t.adminToken, "POST", "/billing/test", {})).body).toMatchObject({ ok: true, system: "SGP" });
    const wrong = await api(t, t.adminToken, "POST", "/billing/test", { token: "not-the-token-xyz" });
    expect(wrong.body.ok).toBe(false);
    expect(wrong.body.detail).toMatch(/Credenciais recusadas/);
    expect(JSON.stringify(wrong.body)).not.toContain("not-the-token-xyz");
    expect((await api(t, agent.token, "POST", "/billing/test", {})).status).toBe(403);
    // a PIX key is checked when saved: a CPF with wrong digits is refused
    expect((await api(t, t.adminToken, "PUT", "/settings/pixKey", { value: "52998224724" })).status).toBe(400);
    // the settings answer the token write-only
    const settings = (await api(t, t.adminToken, "GET", "/settings")).body as { key: string; value: string }[];
    expect(JSON.stringify(settings)).not.toContain(SGP_TOKEN);
  });

  it("the billing system down: the panel answers 503 at once after the circuit opens, and the inbox goes on", async () => {
    const list = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${MARIA}`);
    const ticketId = list.body.tickets[0].id as number;
    sgp.knobs.fail.set("consultacliente", "500");
    sgp.knobs.fail.set("titulos", "500");
    try {
      // other questions than the cached ones: the contact of a new ticket
      const other = await ticketFor("5547911112222", agent.id);
      for (let i = 0; i < 2; i++)
        expect((await api(t, agent.token, "GET", `/billing/${other}/customer?document=11144477735`)).body.error).toBe(
          "ERR_BILLING_UNAVAILABLE",
        );
      const before = sgp.requests.length;
      const res = await api(t, agent.token, "GET", `/billing/${other}/customer?document=52998224725`);
      expect(res.status).toBe(503);
      expect(sgp.requests.length).toBe(before); // the open circuit did not even ask
      // the inbox works: messages are sent and tickets listed
      expect((await api(t, agent.token, "POST", `/messages/${ticketId}`, { body: "Estamos verificando" })).status).toBe(200);
      expect((await api(t, agent.token, "GET", "/tickets")).status).toBe(200);
    } finally {
      sgp.knobs.fail.clear();
    }
  });
});
