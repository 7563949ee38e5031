import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SelfServiceState } from "../src/modules/billing/self-service.js";
import { runSelfServiceTurn } from "../src/modules/billing/turn.js";
import { loadTicket } from "../src/modules/tickets/queries.js";
import { api, customerSays, pairedSimulator, phoneOf, type SimConnection, settle, ticketOfContact } from "./conversation-kit.js";
import { MK_ID, MK_SECRET, startFakeMkAuth } from "./fakes/mkauth.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * The self-service bot's turn as a bot step will run it, against the fake MK-AUTH: the customer
 * writes on the simulator, each turn's replies go through the outbox to the phone (the PIX QR as
 * an image), the unlock is recorded, and the hand-over leaves the contract linked to the ticket,
 * where the agent's panel finds it.
 */

let t: TestApp;
let mk: Awaited<ReturnType<typeof startFakeMkAuth>>;
let sim: SimConnection;
const JOAO = "5511987654321";

beforeAll(async () => {
  mk = await startFakeMkAuth();
  t = await createTestApp();
  sim = await pairedSimulator(t);
  for (const [key, value] of [
    ["integrationSystem", "MK-AUTH"],
    ["integrationUrl", mk.url],
    ["integrationApp", MK_ID],
    ["integrationToken", MK_SECRET],
    ["mkAuthUnlockDays", "2"],
  ])
    expect((await api(t, t.adminToken, "PUT", `/settings/${key}`, { value })).status).toBe(200);
});
afterAll(async () => {
  await t.teardown();
  await mk.close();
});

describe("self-service turns on a real ticket (MK-AUTH)", () => {
  it("CPF, 2ª via with QR images on the phone, unlock recorded, hand-over with the contract visible in the panel", async () => {
    let state: SelfServiceState | null = null;
    const turn = async (text: string) => {
      await customerSays(t, sim, JOAO, text);
      const [row] = await ticketOfContact(t, JOAO);
      const ticket = await loadTicket(t.ctx.db, row.id);
      const r = await runSelfServiceTurn(t.conv, t.billing, { ticket, text, state });
      state = r.state;
      await settle(t);
      return { ...r, ticketId: ticket.id };
    };
    const fromUs = async () => (await phoneOf(sim, JOAO)).filter((m) => m.fromMe);

    await turn("oi, quero a segunda via");
    expect((await fromUs()).at(-1)?.body).toContain("CPF ou CNPJ");
    await turn("111.444.777-35");
    expect((await fromUs()).at(-1)?.body).toContain("Olá, Joao!");

    const before = (await fromUs()).length;
    await turn("1");
    const sent = (await fromUs()).slice(before);
    expect(sent.filter((m) => m.body.startsWith("Fatura com vencimento"))).toHaveLength(2);
    expect(sent.filter((m) => m.mediaType === "image" && m.mimetype === "image/png")).toHaveLength(2);
    expect(sent.some((m) => m.body === "00020126...MKPIX501")).toBe(true);

    const unlocked = await turn("2");
    expect((await fromUs()).some((m) => m.body.includes("liberada por 2 dia(s)"))).toBe(true);
    const { rows } = await t.ctx.db.execute<{ user_id: number | null; ok: boolean; contract_id: string }>(
      sql`select user_id, ok, contract_id from billing_actions where ticket_id = ${unlocked.ticketId}`,
    );
    expect(rows).toEqual([{ user_id: null, ok: true, contract_id: "joao.pppoe" }]);

    // MK-AUTH has no unlock policy: Balcão's keeps a second unlock within 30 days from reaching it
    const edits = mk.edits.length;
    await turn("2");
    expect((await fromUs()).some((m) => m.body.includes("já foi usado nos últimos 30 dias"))).toBe(true);
    expect(mk.edits.length).toBe(edits);

    const agent = await turn("4");
    expect(agent.handover).toEqual({
      system: "MK-AUTH",
      document: "11144477735",
      contractId: "joao.pppoe",
      reason: "asked",
      city: "São Paulo",
      pop: "",
    });
    const panel = await api(t, t.adminToken, "GET", `/billing/${agent.ticketId}/customer`);
    expect(panel.body).toMatchObject({ system: "MK-AUTH", via: "linked", contract: { id: "joao.pppoe", status: "active" } });
    // the bot's messages do not replace the customer's words in the ticket's preview
    expect((await loadTicket(t.ctx.db, agent.ticketId)).lastMessage).toBe("4");
  });

  it("without a configured billing system the turn hands over at once and says nothing", async () => {
    await api(t, t.adminToken, "PUT", "/settings/integrationUrl", { value: "" });
    try {
      await customerSays(t, sim, "5511900003333", "oi");
      const [row] = await ticketOfContact(t, "5511900003333");
      const r = await runSelfServiceTurn(t.conv, t.billing, { ticket: await loadTicket(t.ctx.db, row.id), text: "oi", state: null });
      expect(r.handover).toMatchObject({ reason: "unavailable" });
      expect(r.messageIds).toEqual([]);
    } finally {
      await api(t, t.adminToken, "PUT", "/settings/integrationUrl", { value: mk.url });
    }
  });
});
