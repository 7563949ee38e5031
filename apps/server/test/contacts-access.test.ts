import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createQueue, customerSays, emitAck, listen, pairedSimulator, socketFor } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * Issue 12, item 1: an agent touches a contact only when it has a ticket the agent may see (or no
 * ticket at all); supervisors and admins all. A number change is audited: who, from, to.
 */

let t: TestApp;
let agentA: { id: number; token: string };
let superv: { id: number; token: string };
let contactB: number;
let contactA: number;
let loose: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const queueA = await createQueue(t, "Suporte");
  const queueB = await createQueue(t, "Financeiro");
  const simA = await pairedSimulator(t, { queueIds: [queueA], isDefault: true });
  const simB = await pairedSimulator(t, { queueIds: [queueB] });
  agentA = await t.createUser({ name: "Agente Suporte", queueIds: [queueA] });
  superv = await t.createUser({ name: "Supervisora", profile: "superv", queueIds: [queueA] });
  await customerSays(t, simB, "5511933330001", "minha fatura", { name: "Cliente Financeiro" });
  await customerSays(t, simA, "5511933330002", "sem internet", { name: "Cliente Suporte" });
  const byNumber = async (n: string) => (await api(t, t.adminToken, "GET", `/contacts?searchParam=${n}`)).body.contacts[0].id as number;
  contactB = await byNumber("5511933330001");
  contactA = await byNumber("5511933330002");
  loose = (await api(t, t.adminToken, "POST", "/contacts", { name: "Sem Atendimento", number: "5511933330003" })).body.id;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.teardown();
});

describe("contacts follow the tickets' rule", () => {
  it("an agent cannot read or edit a contact of another queue's tickets, nor retarget its number", async () => {
    expect((await api(t, agentA.token, "GET", `/contacts/${contactB}`)).status).toBe(403);
    const edit = await api(t, agentA.token, "PUT", `/contacts/${contactB}`, { number: "5511900000666" });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api(t, t.adminToken, "GET", `/contacts/${contactB}`)).body.number).toBe("5511933330001");
    // nor reach it another way: by number, by opening a ticket, in the list
    expect((await api(t, agentA.token, "POST", "/contact", { name: "Outro Nome", number: "5511933330001" })).status).toBe(403);
    expect((await api(t, agentA.token, "POST", "/tickets", { contactId: contactB, status: "open" })).status).toBe(403);
    const list = await api(t, agentA.token, "GET", "/contacts?searchParam=55119333");
    expect(list.body.contacts.map((c: { id: number }) => c.id).sort()).toEqual([contactA, loose].sort());
  });

  it("an agent reads and edits contacts of their queue's tickets and contacts with no ticket", async () => {
    expect((await api(t, agentA.token, "GET", `/contacts/${contactA}`)).status).toBe(200);
    expect((await api(t, agentA.token, "PUT", `/contacts/${contactA}`, { name: "Cliente Suporte Editado" })).status).toBe(200);
    expect((await api(t, agentA.token, "PUT", `/contacts/${loose}`, { email: "novo@example.com" })).status).toBe(200);
  });

  it("supervisors and admins touch any contact", async () => {
    expect((await api(t, superv.token, "GET", `/contacts/${contactB}`)).status).toBe(200);
    expect((await api(t, superv.token, "PUT", `/contacts/${contactB}`, { name: "Cliente Fin" })).status).toBe(200);
  });

  it("a contact's socket update reaches only who may touch it", async () => {
    const url = await listen(t);
    const agentSocket = await socketFor(url, agentA.token);
    const supervSocket = await socketFor(url, superv.token);
    sockets.push(agentSocket, supervSocket);
    const agentHeard: { contact?: { id: number } }[] = [];
    agentSocket.on("contact", (p: { contact?: { id: number } }) => agentHeard.push(p));
    const seenBySuperv = new Promise<void>((resolve) =>
      supervSocket.on("contact", (p: { contact?: { id: number } }) => p.contact?.id === contactA && resolve()),
    );
    const seenByAgent = new Promise<void>((resolve) =>
      agentSocket.on("contact", (p: { contact?: { id: number } }) => p.contact?.id === contactA && resolve()),
    );
    expect((await api(t, t.adminToken, "PUT", `/contacts/${contactB}`, { name: "Fin Secreto" })).status).toBe(200);
    // then one the agent may see: when it arrives, the earlier one would have too
    expect((await api(t, t.adminToken, "PUT", `/contacts/${contactA}`, { name: "Suporte Visível" })).status).toBe(200);
    await Promise.all([seenBySuperv, seenByAgent]);
    expect(agentHeard.map((p) => p.contact?.id)).toEqual([contactA]);
    expect(await emitAck(agentSocket, "joinTickets", "open")).toEqual({ ok: true });
  });
});

describe("a number change is audited", () => {
  it("records who changed it, from what, to what; the audit is for supervisors and admins", async () => {
    expect((await api(t, agentA.token, "PUT", `/contacts/${contactA}`, { number: "(11) 93333-0099" })).status).toBe(200);
    const audit = await api(t, superv.token, "GET", `/contacts/${contactA}/audit`);
    expect(audit.status).toBe(200);
    expect(audit.body[0]).toMatchObject({
      field: "number",
      oldValue: "5511933330002",
      newValue: "5511933330099",
      user: { id: agentA.id, name: "Agente Suporte" },
    });
    expect((await api(t, agentA.token, "GET", `/contacts/${contactA}/audit`)).status).toBe(403);
    // a save that keeps the number adds nothing
    await api(t, t.adminToken, "PUT", `/contacts/${contactA}`, { number: "5511933330099", name: "Mesmo Número" });
    expect((await api(t, t.adminToken, "GET", `/contacts/${contactA}/audit`)).body).toHaveLength(1);
  });
});
