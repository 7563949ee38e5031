import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BillingError } from "../src/modules/billing/http.js";
import { type Billing, BillingRegistry, CACHE_MS } from "../src/modules/billing/registry.js";
import { fakeClock } from "./fake-clock.js";
import { MK_ID, MK_SECRET, startFakeMkAuth } from "./fakes/mkauth.js";
import { SGP_APP, SGP_TOKEN, startFakeSgp } from "./fakes/sgp.js";
import { parseAllowList } from "../src/lib/outgoing-http.js";
import { TEST_ALLOWED_PRIVATE_HOSTS } from "./helpers.js";

/**
 * The SGP and MK-AUTH adapters against small fake servers built from the documented shapes:
 * what each call sends and how answers are read, the old SGP prefix, MK-AUTH's JWT (renewed
 * before it expires, renewed after a 401), the undocumented fallbacks, and the resilience
 * (timeouts, retries with backoff, circuit breaker, cache). Time is a fake clock.
 */

const HTTP = {
  timeoutMs: 300,
  attempts: 3,
  backoffMs: 100,
  breakerThreshold: 3,
  breakerCooldownMs: 10_000,
  allow: parseAllowList(TEST_ALLOWED_PRIVATE_HOSTS),
};
const failed = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as BillingError;
  }
  throw new Error("expected a failure");
};

describe("SGP adapter", () => {
  let sgp: Awaited<ReturnType<typeof startFakeSgp>>;
  const clock = fakeClock();
  let billing: Billing;
  const build = (over: Partial<{ url: string; token: string }> = {}) =>
    new BillingRegistry(clock.clock, HTTP).build({
      system: "SGP",
      url: over.url ?? sgp.url,
      app: SGP_APP,
      token: over.token ?? SGP_TOKEN,
      unlockDays: 0,
    });
  beforeAll(async () => {
    sgp = await startFakeSgp();
  });
  afterAll(() => sgp.close());
  afterEach(() => {
    sgp.knobs.slow.clear();
    sgp.knobs.fail.clear();
  });

  it("finds the contracts of a CPF: status by code, the label trimmed, phones given as objects read as digits", async () => {
    billing = build();
    const found = await billing.findByDocument("52998224725");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      id: "1001",
      customerName: "MARIA DA SILVA",
      status: "suspended",
      statusLabel: "Suspenso",
      phones: ["49991234567"],
      plan: "FIBRA 300M",
    });
    const req = sgp.requests.at(-1);
    expect(req?.path).toBe("/api/ura/consultacliente/");
    expect(req?.body).toMatchObject({ cpfcnpj: "52998224725", app: SGP_APP, token: SGP_TOKEN });
    expect(req?.query.toString()).toBe(""); // never credentials in the query string
    expect(await build().findByDocument("11144477735")).toEqual([]);
  });

  it("lists only open invoices, oldest due date first, with linha digitável, PIX when given and the PDF link", async () => {
    const [c] = await build().findByDocument("52998224725");
    const invoices = await build().openInvoices(c);
    expect(invoices.map((i) => i.id)).toEqual(["9001", "9003"]);
    expect(invoices[0]).toMatchObject({ dueDate: "2026-09-10", amount: 89.9, pdfUrl: "https://sgp.example/boleto/9001" });
    expect(invoices[0].pixCode).toMatch(/^000201/);
    expect(invoices[1].digitableLine).toMatch(/^23790/);
    expect(invoices[1].pixCode).toBeNull();
    // the invoice without a PIX code asks SGP for one
    expect(await build().pixFor(c, invoices[1])).toBe("PIXSGP-9003-99.90");
    expect(sgp.requests.at(-1)?.path).toBe("/api/ura/pagamento/pix/9003");
  });

  it("an invoice is overdue from the day after its due date in the product's zone, not UTC's", async () => {
    const overdueAt = async (iso: string, timeZone?: string) => {
      const at = fakeClock(Date.parse(iso));
      const b = new BillingRegistry(at.clock, HTTP).build({
        system: "SGP",
        url: sgp.url,
        app: SGP_APP,
        token: SGP_TOKEN,
        unlockDays: 0,
        timeZone,
      });
      const [c] = await b.findByDocument("52998224725");
      return Object.fromEntries((await b.openInvoices(c)).map((i) => [i.dueDate, i.overdue]));
    };
    // 9003 is due 2026-11-10: at 21:30 that evening in São Paulo (00:30 UTC of the 11th) it is still due today
    expect(await overdueAt("2026-11-11T00:30:00Z")).toEqual({ "2026-09-10": true, "2026-11-10": false });
    expect(await overdueAt("2026-11-11T00:30:00Z", "America/Sao_Paulo")).toEqual({ "2026-09-10": true, "2026-11-10": false });
    // from local midnight it is overdue
    expect(await overdueAt("2026-11-11T03:00:00Z")).toEqual({ "2026-09-10": true, "2026-11-10": true });
    // the zone is the setting's: in UTC the same instant is already the 11th
    expect(await overdueAt("2026-11-11T00:30:00Z", "UTC")).toEqual({ "2026-09-10": true, "2026-11-10": true });
  });

  it("unlocks with SGP's answer and days; a refusal keeps SGP's words", async () => {
    const b = build();
    const [maria] = await b.findByDocument("52998224725");
    expect(await b.unlock(maria, "pedido")).toEqual({ unlocked: true, days: 3, message: "Liberado com sucesso", protocol: "PRT1001" });
    expect(sgp.requests.at(-1)?.body).toMatchObject({ contrato: "1001" });
    const [empresa] = await b.findByDocument("12345678000195");
    expect(await b.unlock(empresa, "pedido")).toMatchObject({ unlocked: false, message: "Contrato já utilizou a liberação este mês" });
  });

  it("reads the connection status by code and opens a ticket with a JSON body", async () => {
    const b = build();
    const [maria] = await b.findByDocument("52998224725");
    expect(await b.connection(maria)).toEqual({ state: "blocked", message: "Bloqueado por inadimplência" });
    const ticket = await b.openTicket(maria, "Sem conexão");
    expect(ticket.protocol).toBe("CH1001");
    expect(sgp.requests.at(-1)?.headers["content-type"]).toContain("application/json");
    expect(await b.test()).toContain("/api/ura");
  });

  it("a wrong token is an auth failure, asked once (no retry), and never opens the circuit", async () => {
    const b = build({ token: "wrong" });
    const before = sgp.requests.length;
    for (let i = 0; i < HTTP.breakerThreshold + 1; i++) expect((await failed(b.test())).kind).toBe("auth");
    expect(sgp.requests.length - before).toBe(HTTP.breakerThreshold + 1);
    expect(b.http.breaker.state).toBe("closed");
  });

  it("a slow answer times out and is retried with growing backoff; an HTML page with 200 is a bad answer", async () => {
    const b = build();
    sgp.knobs.slow.set("planoscontas", 2000);
    const before = sgp.requests.length;
    const waitsBefore = clock.waits.length;
    expect((await failed(b.test())).kind).toBe("timeout");
    expect(sgp.requests.length - before).toBe(HTTP.attempts);
    const waits = clock.waits.slice(waitsBefore);
    expect(waits).toHaveLength(HTTP.attempts - 1);
    expect(waits[1]).toBeGreaterThan(waits[0]);
    sgp.knobs.slow.clear();
    sgp.knobs.fail.set("verificaacesso", "html");
    const [maria] = await b.findByDocument("52998224725");
    expect((await failed(b.connection(maria))).kind).toBe("bad_answer");
  });

  it("opens the circuit after repeated failures (calls then fail at once, without reaching SGP) and closes it after a good probe", async () => {
    const b = build({ url: `${sgp.url}/` }); // another configuration: its own breaker
    sgp.knobs.fail.set("planoscontas", "500");
    for (let i = 0; i < HTTP.breakerThreshold; i++) expect((await failed(b.test())).kind).toBe("http");
    expect(b.http.breaker.state).toBe("open");
    const before = sgp.requests.length;
    expect((await failed(b.test())).kind).toBe("circuit_open");
    expect((await failed(b.findByDocument("12345678000195"))).kind).toBe("circuit_open");
    expect(sgp.requests.length).toBe(before);
    sgp.knobs.fail.clear();
    clock.advance(HTTP.breakerCooldownMs);
    expect(b.http.breaker.state).toBe("half-open");
    await b.test();
    expect(b.http.breaker.state).toBe("closed");
  });

  it("answers the same question from its cache for a short while, then asks again", async () => {
    const b = build({ url: `${sgp.url}//` });
    const count = () => sgp.requests.filter((r) => r.path.endsWith("consultacliente/") && r.body.cpfcnpj === "12345678000195").length;
    const before = count();
    await b.findByDocument("12345678000195");
    await b.findByDocument("12345678000195");
    expect(count() - before).toBe(1);
    clock.advance(CACHE_MS + 1);
    await b.findByDocument("12345678000195");
    expect(count() - before).toBe(2);
  });

  it("an old install under /ws/ura: the prefix is found by itself, invoices come from fatura2via without opening an occurrence, the old unlock call", async () => {
    const old = await startFakeSgp({ prefix: "/ws/ura", oldUnlock: true });
    try {
      const b = new BillingRegistry(clock.clock, HTTP).build({
        system: "SGP",
        url: old.url,
        app: SGP_APP,
        token: SGP_TOKEN,
        unlockDays: 0,
      });
      const [maria] = await b.findByDocument("529.982.247-25");
      expect(maria.id).toBe("1001");
      const invoices = await b.openInvoices(maria);
      expect(invoices.map((i) => [i.id, i.amount])).toEqual([
        ["9001", 89.9],
        ["9003", 99.9],
      ]);
      const second = old.requests.find((r) => r.path === "/ws/ura/fatura2via/");
      expect(second?.body.nao_gerar_os).toBe("1");
      expect(old.requests.filter((r) => r.path.startsWith("/api/ura")).length).toBe(1); // asked once, then stuck to /ws/ura
      // the unlock of an old script: promessapagamento when liberacaopromessa is missing
      expect((await b.unlock(maria, "x")).unlocked).toBe(true);
      expect(old.requests.slice(-2).map((r) => r.path)).toEqual(["/ws/ura/liberacaopromessa/", "/ws/ura/promessapagamento/"]);
      // a URL that already names the prefix is used as is
      const fixed = new BillingRegistry(clock.clock, HTTP).build({
        system: "SGP",
        url: `${old.url}/ws/ura`,
        app: SGP_APP,
        token: SGP_TOKEN,
        unlockDays: 0,
      });
      const n = old.requests.length;
      await fixed.test();
      expect(old.requests.slice(n).map((r) => r.path)).toEqual(["/ws/ura/planoscontas/"]);
    } finally {
      await old.close();
    }
  });
});

describe("MK-AUTH adapter", () => {
  const clock = fakeClock();
  let mk: Awaited<ReturnType<typeof startFakeMkAuth>>;
  const build = (url = mk.url, secret = MK_SECRET) =>
    new BillingRegistry(clock.clock, HTTP).build({ system: "MK-AUTH", url, app: MK_ID, token: secret, unlockDays: 2 });
  beforeAll(async () => {
    mk = await startFakeMkAuth({ ttlS: 600, nowMs: () => clock.at() });
  });
  afterAll(() => mk.close());

  it("gets one JWT with Basic client id/secret for a burst of calls and sends it as Bearer", async () => {
    const b = build();
    const issued = mk.state.issued;
    const all = await Promise.all([b.findByDocument("11144477735"), b.test(), b.system.findByDocument("111.444.777-35")]);
    expect(all[0][0]).toMatchObject({ id: "joao.pppoe", customerName: "JOAO PEREIRA", status: "suspended", phones: ["11987654321"] });
    expect(mk.state.issued - issued).toBe(1);
    const tokenReq = mk.requests.find((r) => r.path === "/api/");
    expect(tokenReq?.headers.authorization).toBe(`Basic ${Buffer.from(`${MK_ID}:${MK_SECRET}`).toString("base64")}`);
    expect(mk.requests.at(-1)?.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(mk.requests.some((r) => r.path === "/api/cliente/listar/cpf_cnpj=11144477735")).toBe(true);
  });

  it("renews the token before it expires, without a refused call", async () => {
    const b = build(`${mk.url}/`);
    await b.test();
    const issued = mk.state.issued;
    clock.advance(600_000 - 20_000); // 20 s before exp: inside the renewal margin
    const n = mk.requests.length;
    await b.test();
    expect(mk.state.issued - issued).toBe(1);
    expect(mk.requests.slice(n).map((r) => r.path)).toEqual(["/api/", "/api/plano/listagem"]);
  });

  it("an expired token refused with 401 is renewed and the call made again", async () => {
    const b = build(`${mk.url}//`);
    await b.test();
    const issued = mk.state.issued;
    mk.state.skewS = 3600; // the server's clock is past the token's exp
    try {
      expect(await b.test()).toContain("MK-AUTH");
      expect(mk.state.issued - issued).toBe(1);
    } finally {
      mk.state.skewS = 0;
    }
  });

  it("documented calls: open invoices from titulo/aberto; unlock by PUT cliente/editar with the customer's uuid and the configured days", async () => {
    const b = build();
    const [joao] = await b.findByDocument("11144477735");
    const invoices = await b.openInvoices(joao);
    expect(invoices.map((i) => [i.id, i.dueDate, i.amount])).toEqual([
      ["lanc-501", "2026-11-05", 110],
      ["lanc-502", "2026-12-05", 110],
    ]);
    // the fake clock shows 2026-11-23: the one due on 11-05 is overdue, the one due on 12-05 is not
    expect(invoices.map((i) => i.overdue)).toEqual([true, false]);
    expect(invoices[0].pixCode).toMatch(/MKPIX501/);
    expect(invoices[0].pdfUrl).toBe(`${mk.url}/boleto/21boleto.php?titulo=501`);
    expect(await b.pixFor(joao, invoices[1])).toBe("MKPIX-SHOW-502");
    expect(await b.connection(joao)).toMatchObject({ state: "blocked" });
    expect(await b.unlock(joao, "x")).toEqual({ unlocked: true, days: 2, message: "Desbloqueado", protocol: null });
    expect(mk.edits.at(-1)).toEqual({ uuid: "uuid-joao", bloqueado: "nao" });
    expect(mk.requests.some((r) => r.method === "PUT" && r.path === "/api/cliente/editar")).toBe(true);
    const again = await b.findByDocument("11144477735");
    expect(await b.unlock(again[0], "x")).toMatchObject({ unlocked: false });
    expect((await b.openTicket(again[0], "sem internet")).protocol).toBe("MKjoao.pppoe");
  });

  it("falls back to the calls seen in peer code when the documented ones are missing (cliente/show, titulo/titulos, cliente/desbloqueio)", async () => {
    const legacy = await startFakeMkAuth({ legacy: true, nowMs: () => clock.at() });
    try {
      const b = build(legacy.url);
      const [joao] = await b.findByDocument("111.444.777-35");
      expect(joao).toMatchObject({ id: "joao.pppoe", status: "suspended" });
      expect(legacy.requests.map((r) => r.path)).toContain("/api/cliente/show/11144477735");
      const invoices = await b.openInvoices(joao);
      expect(invoices.map((i) => i.id)).toEqual(["lanc-501", "lanc-502"]);
      expect(legacy.requests.map((r) => r.path)).toContain("/api/titulo/titulos/11144477735");
      expect((await b.unlock(joao, "x")).unlocked).toBe(true);
      expect(legacy.requests.map((r) => r.path)).toContain("/api/cliente/desbloqueio/uuid-joao");
      expect(await b.findByDocument("52998224725")).toEqual([]); // a literal NULL body: not found
    } finally {
      await legacy.close();
    }
  });

  it("a wrong secret is an auth failure", async () => {
    const err = await failed(build(mk.url, "wrong").test());
    expect(err).toBeInstanceOf(BillingError);
    expect(err.kind).toBe("auth");
    expect(err.message).not.toContain("wrong");
  });
});
