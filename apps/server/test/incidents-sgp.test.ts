import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SelfServiceState } from "../src/modules/billing/self-service.js";
import { runSelfServiceTurn } from "../src/modules/billing/turn.js";
import { loadTicket } from "../src/modules/tickets/queries.js";
import { api, customerSays, pairedSimulator, phoneOf, type SimConnection, settle, ticketOfContact } from "./conversation-kit.js";
import { SGP_APP, SGP_TOKEN, sampleSgpContracts, startFakeSgp } from "./fakes/sgp.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * Outage mode with SGP (issue 32 §1): a customer who wrote before the incident opened is
 * identified by the self-service while it is open; the fake SGP's `verificaacesso` says the
 * contract is in maintenance (8), so the customer and ticket are linked to the open incident and
 * get its notice once. A contract that is online is left alone.
 */

let t: TestApp;
let sgp: Awaited<ReturnType<typeof startFakeSgp>>;
let sim: SimConnection;
const MARIA = "5549991234567"; // the fake's contract 1001 lists (49) 99123-4567
const NOTICE = "Manutenção na rede da sua região. Previsão de retorno: 18h.";

beforeAll(async () => {
  const contracts = sampleSgpContracts();
  contracts[0].acesso = 8; // Em manutenção
  sgp = await startFakeSgp({ contracts });
  t = await createTestApp();
  sim = await pairedSimulator(t);
  for (const [key, value] of [
    ["integrationSystem", "SGP"],
    ["integrationUrl", sgp.url],
    ["integrationApp", SGP_APP],
    ["integrationToken", SGP_TOKEN],
  ])
    expect((await api(t, t.adminToken, "PUT", `/settings/${key}`, { value })).status).toBe(200);
});
afterAll(async () => {
  await t.teardown();
  await sgp.close();
});

describe("SGP maintenance links the identified customer to the open incident", () => {
  it("identified while an incident is open, the contract in maintenance: linked (via sgp) and told once", async () => {
    // she wrote before the incident: no notice, no link
    await customerSays(t, sim, MARIA, "oi");
    const [row] = await ticketOfContact(t, MARIA);
    const opened = await api(t, t.adminToken, "POST", "/incidents", { title: "Manutenção programada", message: NOTICE });
    expect(opened.status).toBe(200);
    const id = opened.body.id as number;
    const ticket = await loadTicket(t.ctx.db, row.id);
    let state: SelfServiceState | null = null;
    for (const text of [null, "529.982.247-25"]) {
      const r = await runSelfServiceTurn(t.conv, t.billing, { ticket, text, state });
      state = r.state;
      await settle(t);
    }
    expect(state?.contractId).toBe("1001");
    const notices = (await phoneOf(sim, MARIA)).filter((m) => m.fromMe && m.body === NOTICE);
    expect(notices).toHaveLength(1);
    const { rows } = await t.ctx.db.execute<{ via: string }>(
      sql`select via from incident_contacts where incident_id = ${id} and contact_id = ${ticket.contactId}`,
    );
    expect(rows).toEqual([{ via: "sgp" }]);
    const list = await api(t, t.adminToken, "GET", `/tickets?incidentId=${id}&showAll=true`);
    expect(list.body.tickets.map((x: { id: number }) => x.id)).toEqual([ticket.id]);

    // she writes again: the notice is not repeated
    await customerSays(t, sim, MARIA, "ok, obrigada");
    expect((await phoneOf(sim, MARIA)).filter((m) => m.fromMe && m.body === NOTICE)).toHaveLength(1);
    await api(t, t.adminToken, "POST", `/incidents/${id}/close`, {});
  });

  it("a contract that is online is not linked", async () => {
    const EMPRESA = "5549988887777";
    await customerSays(t, sim, EMPRESA, "bom dia");
    const [row] = await ticketOfContact(t, EMPRESA);
    const opened = await api(t, t.adminToken, "POST", "/incidents", { title: "Outra queda", message: "Aviso B" });
    const ticket = await loadTicket(t.ctx.db, row.id);
    let state: SelfServiceState | null = null;
    for (const text of [null, "12.345.678/0001-95"]) {
      const r = await runSelfServiceTurn(t.conv, t.billing, { ticket, text, state });
      state = r.state;
      await settle(t);
    }
    // identified (contract 2002, online: verificaacesso 1), yet not linked and not told
    expect(state?.contractId).toBe("2002");
    const { rows } = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from incident_contacts where incident_id = ${opened.body.id}`,
    );
    expect(rows[0].n).toBe(0);
    expect((await phoneOf(sim, EMPRESA)).some((m) => m.fromMe && m.body === "Aviso B")).toBe(false);
    await api(t, t.adminToken, "POST", `/incidents/${opened.body.id}/close`, {});
  });
});
