import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBrCode, parseTlv } from "../src/lib/pix-brcode.js";
import type { Reply } from "../src/modules/billing/compose.js";
import { type Billing, BillingRegistry } from "../src/modules/billing/registry.js";
import { DEFAULT_SELF_SERVICE_TEXTS as T, type SelfServiceState, samePhone, stepSelfService } from "../src/modules/billing/self-service.js";
import { fakeClock } from "./fake-clock.js";
import { MK_ID, MK_SECRET, startFakeMkAuth } from "./fakes/mkauth.js";
import { SGP_APP, SGP_TOKEN, startFakeSgp } from "./fakes/sgp.js";
import { parseAllowList } from "../src/lib/outgoing-http.js";
import { TEST_ALLOWED_PRIVATE_HOSTS } from "./helpers.js";

/**
 * The self-service conversation driven like a customer would, against the fake SGP and the fake
 * MK-AUTH: identify by CPF/CNPJ, 2ª via with linha digitável, PIX and QR, trust unlock, connection
 * status, hand-over with the contract; what a stranger's number is (not) told.
 */

const HTTP = {
  timeoutMs: 500,
  attempts: 2,
  backoffMs: 10,
  breakerThreshold: 3,
  breakerCooldownMs: 10_000,
  allow: parseAllowList(TEST_ALLOWED_PRIVATE_HOSTS),
};
const PIX = { key: "12345678000195", merchantName: "Provedor Exemplo Telecom", merchantCity: "São Miguel do Oeste" };
const texts = (r: Reply[]) => r.filter((x) => x.kind === "text").map((x) => (x as { body: string }).body);
const images = (r: Reply[]) => r.filter((x) => x.kind === "image") as { png: Buffer; caption: string }[];
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

function conversation(billing: Billing, contactNumber: string | null) {
  let state: SelfServiceState | null = null;
  return async (text: string | null) => {
    const r = await stepSelfService(state, { text, contactNumber, billing, texts: T, pix: PIX });
    state = r.state;
    return r;
  };
}

describe("self-service against the fake SGP", () => {
  const clock = fakeClock();
  let sgp: Awaited<ReturnType<typeof startFakeSgp>>;
  let billing: Billing;
  beforeAll(async () => {
    sgp = await startFakeSgp();
    billing = new BillingRegistry(clock.clock, HTTP).build({ system: "SGP", url: sgp.url, app: SGP_APP, token: SGP_TOKEN, unlockDays: 0 });
  });
  afterAll(() => sgp.close());

  it("CPF from the registered number → menu → 2ª via (two invoices, PIX that decodes to each amount, QR) → unlock with its days → status → agent with the contract", async () => {
    const say = conversation(billing, "5549991234567");
    expect(texts((await say("oi")).replies)).toEqual([T.selfServiceAskDocument]);
    const menu = await say("529.982.247-25");
    expect(menu.state.step).toBe("menu");
    expect(texts(menu.replies)[0]).toContain("Olá, Maria!");

    const bills = await say("1");
    const t = texts(bills.replies);
    expect(t.filter((x) => x.startsWith("Fatura com vencimento"))).toHaveLength(2);
    expect(t[0]).toContain("10/09/2026");
    expect(t[0]).toContain("89,90");
    expect(t[0]).toContain("Linha digitável: 23790.00009 00000.000003 00000.000000 1 99990000008990");
    expect(t[0]).toContain("https://sgp.example/boleto/9001");
    // first invoice: SGP's own PIX code, sent alone so it can be copied; it decodes to 89.90
    expect(parseBrCode(t[1], { strict: true }).get("54")).toBe("89.90");
    // second invoice: the PIX SGP generates on request
    expect(t).toContain("PIXSGP-9003-99.90");
    const qrs = images(bills.replies);
    expect(qrs).toHaveLength(2);
    for (const q of qrs) expect(q.png.subarray(0, 4).equals(PNG_MAGIC)).toBe(true);
    expect(bills.handover).toBeNull();

    const unlock = await say("2");
    expect(texts(unlock.replies)[0]).toBe(T.selfServiceUnlockDone.replace("{days}", "3"));
    expect(unlock.actions).toEqual([
      { action: "unlock", contractId: "1001", result: expect.objectContaining({ unlocked: true, days: 3, protocol: "PRT1001" }) },
    ]);

    const status = await say("3");
    expect(texts(status.replies)[0]).toBe("Status da sua conexão: Bloqueado por inadimplência");

    const agent = await say("4");
    // the contract's place travels with it (the incident area reads the billing link's city and POP)
    expect(agent.handover).toEqual({
      system: "SGP",
      document: "52998224725",
      contractId: "1001",
      reason: "asked",
      city: "Chapecó",
      pop: "",
    });
    expect(texts(agent.replies)).toEqual([T.selfServiceHandover]);
    expect(agent.state.step).toBe("done");
  });

  it("a CPF whose registered phone is another number: nothing about the customer is said, the customer goes to an agent", async () => {
    const say = conversation(billing, "5511900001111");
    await say("oi");
    const r = await say("52998224725");
    expect(texts(r.replies)).toEqual([T.selfServiceNotFound]);
    expect(r.replies.map((x) => JSON.stringify(x)).join()).not.toMatch(/MARIA|Maria|1001|Flores/);
    expect(r.handover).toMatchObject({ reason: "not_found", contractId: null });
  });

  it("wrong check digits are refused without asking SGP; three wrong answers hand over", async () => {
    const say = conversation(billing, "5549991234567");
    await say("oi");
    const before = sgp.requests.length;
    expect(texts((await say("529.982.247-24")).replies)).toEqual([T.selfServiceInvalidDocument]);
    expect(texts((await say("11111111111")).replies)).toEqual([T.selfServiceInvalidDocument]);
    const third = await say("123");
    expect(third.handover).toMatchObject({ reason: "misses" });
    expect(sgp.requests.length).toBe(before);
  });

  it("a contract without registered phones: only the 2ª via (a static PIX from the provider's key when SGP gives none), no unlock", async () => {
    const say = conversation(billing, "5511900001111");
    const menu = await say("12.345.678/0001-95"); // a document as the first words goes straight on
    expect(menu.state).toMatchObject({ step: "menu", restricted: true });
    expect(texts(menu.replies)[0]).toBe(T.selfServiceRestricted);
    sgp.knobs.fail.set("pagamento/pix", "html");
    try {
      const bills = await say("1");
      const code = texts(bills.replies).find((x) => x.startsWith("000201")) as string;
      const f = parseBrCode(code, { strict: true });
      expect(f.get("54")).toBe("250.00");
      expect(parseTlv(f.get("26") as string).get("01")).toBe("12345678000195");
      expect(parseTlv(f.get("62") as string).get("05")).toBe("9100");
    } finally {
      sgp.knobs.fail.clear();
    }
    const before = sgp.requests.length;
    const unlock = await say("2");
    expect(unlock.actions).toEqual([]);
    expect(texts(unlock.replies)[0]).toBe(T.selfServiceRestricted);
    expect(sgp.requests.slice(before).some((r) => r.path.includes("liberacaopromessa"))).toBe(false);
  });

  it("the billing system down: the customer is told and handed to an agent, never stuck", async () => {
    const down = new BillingRegistry(clock.clock, HTTP).build({
      system: "SGP",
      url: "http://127.0.0.1:9",
      app: SGP_APP,
      token: SGP_TOKEN,
      unlockDays: 0,
    });
    const say = conversation(down, "5549991234567");
    await say("oi");
    const r = await say("52998224725");
    expect(texts(r.replies)).toEqual([T.selfServiceUnavailable]);
    expect(r.handover).toMatchObject({ reason: "unavailable", document: "52998224725" });
  });

  it("matches phones with or without the country code and the ninth digit's DDD", () => {
    expect(samePhone("(49) 99123-4567", "5549991234567")).toBe(true);
    expect(samePhone("9123-4567", "5549991234567")).toBe(true);
    expect(samePhone("(11) 99123-4567", "5549991234567")).toBe(false);
    expect(samePhone("", "5549991234567")).toBe(false);
  });
});

describe("self-service against the fake MK-AUTH", () => {
  const clock = fakeClock();
  let mk: Awaited<ReturnType<typeof startFakeMkAuth>>;
  beforeAll(async () => {
    mk = await startFakeMkAuth({ nowMs: () => clock.at() });
  });
  afterAll(() => mk.close());

  it("the same flow: CPF, two invoices with linha digitável and PIX, unlock with the configured days, agent with the login attached", async () => {
    const billing = new BillingRegistry(clock.clock, HTTP).build({
      system: "MK-AUTH",
      url: mk.url,
      app: MK_ID,
      token: MK_SECRET,
      unlockDays: 2,
    });
    const say = conversation(billing, "5511987654321");
    await say("bom dia");
    expect(texts((await say("111.444.777-35")).replies)[0]).toContain("Olá, Joao!");
    const bills = await say("1");
    const t = texts(bills.replies);
    expect(t.filter((x) => x.startsWith("Fatura"))).toHaveLength(2);
    expect(t.some((x) => x.includes("Linha digitável: 00190.00009 01234.567890 12345.678901 1 11110000011000"))).toBe(true);
    expect(t).toContain("00020126...MKPIX501");
    expect(images(bills.replies)).toHaveLength(2);
    const unlock = await say("2");
    expect(texts(unlock.replies)[0]).toBe(T.selfServiceUnlockDone.replace("{days}", "2"));
    expect(mk.edits).toEqual([{ uuid: "uuid-joao", bloqueado: "nao" }]);
    expect(texts((await say("3")).replies)[0]).toContain("Liberado");
    const agent = await say("4");
    expect(agent.handover).toEqual({
      system: "MK-AUTH",
      document: "11144477735",
      contractId: "joao.pppoe",
      reason: "asked",
      city: "São Paulo",
      pop: "",
    });
  });
});
