import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBrCode } from "../src/lib/pix-brcode.js";
import { api, createQueue, customerSays, eventually, pairedSimulator, phoneOf, type SimConnection, settle } from "./conversation-kit.js";
import { MK_ID, MK_SECRET, startFakeMkAuth } from "./fakes/mkauth.js";
import { SGP_APP, SGP_TOKEN, startFakeSgp } from "./fakes/sgp.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * The billing self-service as a bot step of a connection (selfService "before" or "after" the
 * queue menu), against the fake SGP and the fake MK-AUTH: the customer writes on the simulator,
 * the turns run on the job runner, the replies reach the phone through the outbox, and the
 * hand-over puts the ticket in the queue with the contract linked.
 */

let t: TestApp;
let sgp: Awaited<ReturnType<typeof startFakeSgp>>;
let mk: Awaited<ReturnType<typeof startFakeMkAuth>>;
let financeiro: number;
let suporte: number;
const MARIA = "5549991234567"; // the SGP sample's phone (49) 99123-4567
const JOAO = "5511987654321"; // the MK-AUTH sample's phone (11) 98765-4321
const GREETING = "Olá! Escolha um setor.";

async function useSgp(url = sgp.url) {
  // the token goes with the URL (a saved one goes only to the saved URL)
  for (const [key, value] of [
    ["integrationSystem", "SGP"],
    ["integrationUrl", url],
    ["integrationApp", SGP_APP],
    ["integrationToken", SGP_TOKEN],
  ])
    expect((await api(t, t.adminToken, "PUT", `/settings/${key}`, { value, secret: SGP_TOKEN })).status).toBe(200);
}

beforeAll(async () => {
  sgp = await startFakeSgp();
  mk = await startFakeMkAuth();
  t = await createTestApp(
    {},
    {
      jobBackoffMs: () => 20,
      billingHttp: { timeoutMs: 1000, attempts: 1, backoffMs: 10, breakerThreshold: 20, breakerCooldownMs: 60_000 },
    },
  );
  financeiro = await createQueue(t, "Financeiro");
  suporte = await createQueue(t, "Suporte", "Você está no suporte.");
  await useSgp();
  for (const [key, value] of [
    ["pixKey", "12345678000195"],
    ["pixMerchantName", "Provedor Exemplo"],
    ["pixMerchantCity", "Chapecó"],
  ])
    expect((await api(t, t.adminToken, "PUT", `/settings/${key}`, { value })).status).toBe(200);
});
afterAll(async () => {
  await t.teardown();
  await sgp.close();
  await mk.close();
});

/** A simulator connection with the self-service placed as given. */
async function connection(selfService: "off" | "before" | "after", queueIds: number[]): Promise<SimConnection> {
  const sim = await pairedSimulator(t, { queueIds, greetingMessage: GREETING });
  const res = await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { selfService });
  expect(res.status).toBe(200);
  expect(res.body.selfService).toBe(selfService);
  return sim;
}

async function ticketOf(number: string, whatsappId: number) {
  const { rows } = await t.ctx.db.execute<{ id: number; status: string; queue_id: number | null; user_id: number | null }>(
    sql`select t.id, t.status, t.queue_id, t.user_id from tickets t join contacts c on c.id = t.contact_id
        where c.number = ${number} and t.whatsapp_id = ${whatsappId} order by t.id desc limit 1`,
  );
  return rows[0];
}

/** The customer writes; waits until the self-service turns ran (their jobs done) and what they queued was sent. */
async function says(sim: SimConnection, number: string, body: string) {
  await customerSays(t, sim, number, body);
  await t.jobs.idle();
  await eventually(async () => {
    const { rows } = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from jobs where name = 'bots.selfservice' and state in ('queued','running')`,
    );
    return rows[0].n === 0;
  }, "the self-service jobs");
  await t.jobs.idle();
  await settle(t);
}

/** What the phone shows of ours (bot and agent messages). */
const fromUs = async (sim: SimConnection, number: string) => (await phoneOf(sim, number)).filter((m) => m.fromMe);

describe("the self-service bot step", () => {
  it("GET /whatsapp answers the setting; an unknown place is refused", async () => {
    const sim = await connection("before", [financeiro]);
    const list = await api(t, t.adminToken, "GET", "/whatsapp");
    // biome-ignore lint/suspicious/noExplicitAny: loose read
    expect((list.body as any[]).find((w) => w.id === sim.whatsappId)?.selfService).toBe("before");
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { selfService: "sometimes" })).status).toBe(400);
    const created = await api(t, t.adminToken, "POST", "/whatsapp", { name: "Sem autoatendimento", type: "simulator" });
    expect(created.body.selfService).toBe("off");
  });

  it('"before" with the SGP: CPF, two invoices with linha digitável and PIX codes of the right amounts, desbloqueio, then an agent: pending in the queue with the contract linked', async () => {
    const sim = await connection("before", [financeiro]);
    // the SGP gives a PIX code for one invoice; for the other its PIX call fails and Balcão's static BR Code is sent
    sgp.knobs.fail.set("pagamento/pix", "500");
    try {
      await says(sim, MARIA, "oi, quero a segunda via");
      expect((await fromUs(sim, MARIA)).at(-1)?.body).toContain("CPF ou CNPJ");
      // still in self-service: no queue yet
      expect(await ticketOf(MARIA, sim.whatsappId)).toMatchObject({ status: "pending", queue_id: null });

      await says(sim, MARIA, "529.982.247-25");
      expect((await fromUs(sim, MARIA)).at(-1)?.body).toContain("Olá, Maria!");

      const before = (await fromUs(sim, MARIA)).length;
      await says(sim, MARIA, "1");
      const sent = (await fromUs(sim, MARIA)).slice(before);
      const bills = sent.filter((m) => m.body.startsWith("Fatura com vencimento"));
      expect(bills).toHaveLength(2);
      for (const line of [
        "23790.00009 00000.000003 00000.000000 3 99990000009990",
        "23790.00009 00000.000003 00000.000000 1 99990000008990",
      ])
        expect(bills.some((m) => m.body.includes(line))).toBe(true);
      const amounts = sent
        .filter((m) => m.body.startsWith("000201"))
        .map((m) => parseBrCode(m.body).get("54"))
        .sort();
      expect(amounts).toEqual(["89.90", "99.90"]);
      expect(sent.filter((m) => m.mediaType === "image")).toHaveLength(2);
    } finally {
      sgp.knobs.fail.delete("pagamento/pix");
    }

    const beforeUnlock = (await fromUs(sim, MARIA)).length;
    await says(sim, MARIA, "2");
    expect((await fromUs(sim, MARIA)).slice(beforeUnlock).some((m) => m.body.includes("liberada por 3 dia(s)"))).toBe(true);

    await says(sim, MARIA, "4");
    expect((await fromUs(sim, MARIA)).at(-1)?.body).toContain("transferir você para um atendente");
    const ticket = await ticketOf(MARIA, sim.whatsappId);
    // the connection's only queue takes it at once
    expect(ticket).toMatchObject({ status: "pending", queue_id: financeiro, user_id: null });
    const panel = await api(t, t.adminToken, "GET", `/billing/${ticket.id}/customer`);
    expect(panel.body).toMatchObject({ system: "SGP", via: "linked", contract: { id: "1001" } });
    const { rows } = await t.ctx.db.execute<{ action: string; ok: boolean }>(
      sql`select action, ok from billing_actions where ticket_id = ${ticket.id}`,
    );
    expect(rows).toEqual([{ action: "unlock", ok: true }]);

    // handed over: the self-service does not answer again on this ticket
    const count = (await fromUs(sim, MARIA)).length;
    await says(sim, MARIA, "1");
    expect((await fromUs(sim, MARIA)).length).toBe(count);
  });

  it('"off" leaves the greeting and queue menu as before', async () => {
    const sim = await connection("off", [financeiro, suporte]);
    const num = "5511900001001";
    await says(sim, num, "oi");
    expect((await fromUs(sim, num)).map((m) => m.body)).toEqual([`${GREETING}\n\n*1* - Financeiro\n*2* - Suporte`]);
    await says(sim, num, "2");
    expect(await ticketOf(num, sim.whatsappId)).toMatchObject({ status: "pending", queue_id: suporte });
    expect((await fromUs(sim, num)).at(-1)?.body).toBe("Você está no suporte.");
  });

  it("an agent's message pauses the self-service", async () => {
    const sim = await connection("before", [financeiro, suporte]);
    const num = "5511900001002";
    await says(sim, num, "oi");
    expect((await fromUs(sim, num)).at(-1)?.body).toContain("CPF ou CNPJ");
    const ticket = await ticketOf(num, sim.whatsappId);
    const agent = await t.createUser({ name: "Ana", queueIds: [financeiro, suporte] });
    expect((await api(t, agent.token, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: agent.id })).status).toBe(200);
    expect((await api(t, agent.token, "POST", `/messages/${ticket.id}`, { body: "Oi, aqui é um atendente." })).status).toBe(200);
    expect((await api(t, t.adminToken, "PUT", `/tickets/${ticket.id}`, { status: "pending", userId: null, queueId: null })).status).toBe(
      200,
    );
    await settle(t);
    const count = (await fromUs(sim, num)).length;
    await says(sim, num, "529.982.247-25");
    expect((await fromUs(sim, num)).length).toBe(count);
  });

  it("billing down: the customer gets the unavailable text, then the greeting and queue menu", async () => {
    const sim = await connection("before", [financeiro, suporte]);
    const num = "5511900001003";
    await useSgp("http://127.0.0.1:9");
    try {
      await says(sim, num, "oi");
      await says(sim, num, "529.982.247-25");
      const said = (await fromUs(sim, num)).map((m) => m.body);
      expect(said.at(-2)).toContain("fora do ar");
      expect(said.at(-1)).toBe(`${GREETING}\n\n*1* - Financeiro\n*2* - Suporte`);
      await says(sim, num, "1");
      expect(await ticketOf(num, sim.whatsappId)).toMatchObject({ status: "pending", queue_id: financeiro });
    } finally {
      await useSgp();
    }
  });

  it('"after" with MK-AUTH: the queue menu first, then the self-service; the hand-over leaves the ticket pending in that queue with the contract linked', async () => {
    for (const [key, value] of [
      ["integrationSystem", "MK-AUTH"],
      ["integrationUrl", mk.url],
      ["integrationApp", MK_ID],
      ["integrationToken", MK_SECRET],
      ["mkAuthUnlockDays", "2"],
    ])
      expect((await api(t, t.adminToken, "PUT", `/settings/${key}`, { value, secret: MK_SECRET })).status).toBe(200);
    try {
      const sim = await connection("after", [financeiro, suporte]);
      await says(sim, JOAO, "oi");
      expect((await fromUs(sim, JOAO)).map((m) => m.body)).toEqual([`${GREETING}\n\n*1* - Financeiro\n*2* - Suporte`]);
      await says(sim, JOAO, "1");
      // the queue is picked: the self-service starts by asking for the document
      expect(await ticketOf(JOAO, sim.whatsappId)).toMatchObject({ status: "pending", queue_id: financeiro, user_id: null });
      expect((await fromUs(sim, JOAO)).at(-1)?.body).toContain("CPF ou CNPJ");

      await says(sim, JOAO, "111.444.777-35");
      expect((await fromUs(sim, JOAO)).at(-1)?.body).toContain("Olá, Joao!");
      const before = (await fromUs(sim, JOAO)).length;
      await says(sim, JOAO, "1");
      const sent = (await fromUs(sim, JOAO)).slice(before);
      const bills = sent.filter((m) => m.body.startsWith("Fatura com vencimento"));
      expect(bills).toHaveLength(2);
      expect(bills.every((m) => /00190\.00009 01234\.567890 12345\.67890[12]/.test(m.body))).toBe(true);

      const beforeUnlock = (await fromUs(sim, JOAO)).length;
      await says(sim, JOAO, "2");
      expect((await fromUs(sim, JOAO)).slice(beforeUnlock).some((m) => m.body.includes("liberada por 2 dia(s)"))).toBe(true);

      await says(sim, JOAO, "4");
      expect((await fromUs(sim, JOAO)).at(-1)?.body).toContain("transferir você para um atendente");
      const ticket = await ticketOf(JOAO, sim.whatsappId);
      expect(ticket).toMatchObject({ status: "pending", queue_id: financeiro, user_id: null });
      const panel = await api(t, t.adminToken, "GET", `/billing/${ticket.id}/customer`);
      expect(panel.body).toMatchObject({ system: "MK-AUTH", via: "linked", contract: { id: "joao.pppoe" } });
      const count = (await fromUs(sim, JOAO)).length;
      await says(sim, JOAO, "obrigado");
      expect((await fromUs(sim, JOAO)).length).toBe(count);
    } finally {
      await useSgp();
    }
  });
});
