// The billing panel (issue 21) in Chromium against a fake SGP started by this spec: the agent opens the
// contact drawer, sees the contract, two open invoices and the connection; sends a 2ª via that reaches the
// customer's phone with the linha digitável and a PIX code decoding to the right amount; unlocks with a
// confirmation and reads SGP's answer. Then the self-service bot step on a connection placed "before" the
// queue menu: the customer sends a CPF through the simulator, gets two invoices with linha digitável and
// PIX codes decoding to the right amounts, asks for desbloqueio, then for an agent, and lands in the queue
// with the contract visible in the agent's panel. Screenshots light and dark at 1366 and 375 px (the panel,
// and the connection form's 'Autoatendimento' field).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn, unique } from "../lib/browser.mjs";
import { agentPage, createAgent, pairedSimulator, randomColor, until } from "../lib/conversation.mjs";

const customer = `5549${String(Date.now()).slice(-9)}`;
const PIX =
  "00020126360014br.gov.bcb.pix011412345678000195520400005303986540589.905802BR5924PROVEDOR EXEMPLO TELECOM6015SAO MIGUEL DO O62120508FAT123456304DB0C";
const APP = "balcao";
const TOKEN = "e2e-sgp-token";

/** A fake SGP URA API (the shapes of shared/reference/sgp.md), only the calls the panel makes. */
function fakeSgp() {
  const requests = [];
  const contract = {
    contratoId: 1001,
    razaoSocial: "MARIA DA SILVA",
    cpfCnpj: "52998224725",
    telefones: [{ tipoContato: "Celular", contato: customer.slice(2) }],
    contratoStatus: 4,
    contratoStatusDisplay: "Suspenso",
    planointernet: "FIBRA 300M",
    endereco_logradouro: "Rua das Flores",
    endereco_numero: "10",
    endereco_bairro: "Centro",
    endereco_cidade: "Chapecó",
  };
  const titulos = [
    {
      id: 9003,
      status: "aberto",
      valor: 99.9,
      dataVencimento: "2026-12-10",
      linhaDigitavel: "23790.00009 00000.000003 00000.000000 3 99990000009990",
      codigoPix: null,
      link: "https://sgp.example/boleto/9003",
    },
    {
      id: 9001,
      status: "aberto",
      valor: 89.9,
      dataVencimento: "2026-11-10",
      linhaDigitavel: "23790.00009 00000.000003 00000.000000 1 99990000008990",
      codigoPix: PIX,
      link: "https://sgp.example/boleto/9001",
    },
  ];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const c of req) raw += c;
    const body = (req.headers["content-type"] ?? "").includes("json")
      ? JSON.parse(raw || "{}")
      : Object.fromEntries(new URLSearchParams(raw));
    requests.push({ path: req.url, body });
    const send = (o) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(o));
    if (body.app !== APP || body.token !== TOKEN) return res.writeHead(403).end("{}");
    const path = (req.url ?? "").replace(/^\/api\/ura\//, "").replace(/\/$/, "");
    const digits = (s) => String(s ?? "").replace(/\D/g, "");
    if (path === "consultacliente") {
      const hit =
        (body.cpfcnpj && digits(body.cpfcnpj) === contract.cpfCnpj) ||
        (body.telefone && customer.endsWith(digits(body.telefone).slice(-8)));
      return send(hit ? { msg: "", contratos: [contract] } : { msg: "Nenhum contrato localizado", contratos: [] });
    }
    if (path === "titulos") return send({ titulos });
    // only invoice 9001 has a PIX code at SGP: Balcão makes a static BR Code for the other
    if (path.startsWith("pagamento/pix/"))
      return path.endsWith("/9001")
        ? send({ codigoPix: PIX })
        : res.writeHead(404).end(JSON.stringify({ detail: "Título não encontrado" }));
    if (path === "verificaacesso") return send({ status: 3, msg: "Bloqueado por inadimplência" });
    if (path === "liberacaopromessa")
      return send({ status: 1, liberado: true, liberado_dias: 3, protocolo: "PRT1001", msg: "Liberado com sucesso" });
    if (path === "planoscontas") return send({});
    res.writeHead(404).end("{}");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}` })),
  );
}

/** Field 54 (amount) of a BR Code. */
function amountOf(code) {
  let i = 0;
  while (i < code.length) {
    const id = code.slice(i, i + 2);
    const len = Number(code.slice(i + 2, i + 4));
    if (id === "54") return code.slice(i + 4, i + 4 + len);
    i += 4 + len;
  }
  return null;
}

let browser;
let admin;
let sgp;
let sim;
let ana;
let ticketId;
let queue;
let selfSim;
const selfName = unique("Autoatendimento");

before(async () => {
  sgp = await fakeSgp();
  admin = await api();
  for (const [key, value] of [
    ["integrationSystem", "SGP"],
    ["integrationUrl", sgp.url],
    ["integrationApp", APP],
    ["integrationToken", TOKEN],
    ["pixKey", "12345678000195"],
    ["pixMerchantName", "Provedor Exemplo"],
    ["pixMerchantCity", "Chapecó"],
  ])
    await admin.put(`/settings/${key}`, { value });
  queue = await admin.post("/queue", { name: unique("Financeiro"), color: randomColor(), greetingMessage: "Financeiro" });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  sim = await pairedSimulator(admin, { name: unique("Provedor"), queueIds: [queue.id], greetingMessage: "Olá!" });
  const contact = await admin.post("/contacts", { name: "Maria da Silva", number: customer });
  ticketId = (
    await admin.post("/tickets", { contactId: contact.id, whatsappId: sim.id, queueId: queue.id, userId: ana.id, status: "open" })
  ).id;
  browser = await launch();
});
after(async () => {
  await admin?.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await admin?.put("/settings/integrationUrl", { value: "" }).catch(() => undefined);
  await browser?.close();
  sgp?.server.close();
});

test("'Testar conexão' reaches the fake SGP", async () => {
  const r = await admin.post("/billing/test", {});
  assert.equal(r.ok, true, r.detail);
});

test("the agent sees the customer in the drawer, sends a 2ª via and unlocks with a confirmation", async () => {
  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("chat-contact-name").click();
  const panel = page.getByTestId("billing-panel");
  await panel.getByTestId("billing-contract").getByText("MARIA DA SILVA").waitFor();
  assert.equal(await panel.getByTestId("billing-invoice").count(), 2);
  assert.match(await panel.getByTestId("billing-status").innerText(), /Suspenso/);
  assert.match(await panel.getByTestId("billing-connection").innerText(), /Bloqueado/);
  // oldest due date first
  assert.match(await panel.getByTestId("billing-invoice").first().innerText(), /89,90/);

  await panel.getByTestId("billing-send-invoice").first().click();
  const phone = await until(async () => {
    const msgs = (await sim.phone(customer)).filter((m) => m.fromMe);
    return msgs.some((m) => m.body.startsWith("000201")) && msgs.some((m) => m.mediaType === "image") ? msgs : undefined;
  }, "the 2ª via on the customer's phone");
  assert.ok(phone.some((m) => m.body.includes("Linha digitável: 23790.00009 00000.000003 00000.000000 1 99990000008990")));
  assert.equal(amountOf(phone.find((m) => m.body.startsWith("000201")).body), "89.90");

  await panel.getByTestId("billing-unlock").click();
  await page.getByTestId("billing-unlock-confirm").click();
  await panel.getByTestId("billing-unlock-result").getByText("Liberado por 3 dia(s).").waitFor();
  assert.ok(sgp.requests.some((r) => r.path.includes("liberacaopromessa") && r.body.contrato === "1001"));
  // recorded in the ticket: the panel lists it with the agent and SGP's protocol
  await panel
    .getByTestId("billing-actions")
    .getByText(/Desbloqueado · .* · PRT1001/)
    .waitFor();
  await until(async () => (await sim.phone(customer)).some((m) => m.fromMe && m.body.includes("liberada por 3 dia(s)")), "the unlock told");
  await page.context().close();
});

test("self-service before the queue menu: CPF, 2ª via with PIX, desbloqueio, then an agent with the contract in the panel", async () => {
  selfSim = await pairedSimulator(admin, { name: selfName, queueIds: [queue.id], greetingMessage: "Olá!" });
  const saved = await admin.put(`/whatsapp/${selfSim.id}`, { selfService: "before" });
  assert.equal(saved.selfService, "before");
  const ours = async () => (await selfSim.phone(customer)).filter((m) => m.fromMe);
  const answered = async (count, what) => until(async () => ((await ours()).length > count ? ours() : undefined), what);

  await selfSim.say(customer, "oi, minha internet caiu", "Maria");
  assert.match((await answered(0, "the request for a CPF")).at(-1).body, /CPF ou CNPJ/);
  let n = (await ours()).length;
  await selfSim.say(customer, "529.982.247-25", "Maria");
  assert.match((await answered(n, "the menu")).at(-1).body, /Olá, Maria!/);

  n = (await ours()).length;
  await selfSim.say(customer, "1", "Maria");
  const bills = await until(async () => {
    const sent = (await ours()).slice(n);
    return sent.filter((m) => m.body.startsWith("000201")).length === 2 && sent.filter((m) => m.mediaType === "image").length === 2
      ? sent
      : undefined;
  }, "two invoices with their PIX codes");
  assert.equal(bills.filter((m) => m.body.startsWith("Fatura com vencimento")).length, 2);
  assert.ok(bills.some((m) => m.body.includes("Linha digitável: 23790.00009 00000.000003 00000.000000 3 99990000009990")));
  assert.ok(bills.some((m) => m.body.includes("Linha digitável: 23790.00009 00000.000003 00000.000000 1 99990000008990")));
  assert.deepEqual(
    bills
      .filter((m) => m.body.startsWith("000201"))
      .map((m) => amountOf(m.body))
      .sort(),
    ["89.90", "99.90"],
  );

  n = (await ours()).length;
  await selfSim.say(customer, "2", "Maria");
  await until(async () => (await ours()).slice(n).some((m) => m.body.includes("liberada por 3 dia(s)")), "the unlock");

  n = (await ours()).length;
  await selfSim.say(customer, "4", "Maria");
  await until(async () => (await ours()).slice(n).some((m) => m.body.includes("atendente")), "the hand-over");
  const ticket = await until(async () => {
    const { tickets } = await admin.get(`/tickets?showAll=true&status=pending&searchParam=${customer}`);
    return tickets.find((x) => x.whatsappId === selfSim.id && x.queueId === queue.id);
  }, "the ticket pending in the queue");

  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticket.id}`);
  await page.getByTestId("chat-contact-name").click();
  await page.getByTestId("billing-panel").getByTestId("billing-contract").getByText("MARIA DA SILVA").waitFor();
  await page.context().close();
});

for (const theme of ["light", "dark"]) {
  test(`screenshot: the connection form's self-service field, ${theme}`, async () => {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
      await signIn(page);
      await page.goto("/connections");
      await page.getByRole("button", { name: `Editar ${selfName}` }).click();
      const field = page.getByTestId("self-service");
      await field.scrollIntoViewIfNeeded();
      assert.match((await field.textContent()) ?? "", /Antes do menu de filas/);
      await settled(page);
      await shot(page, `connection-self-service-${width}-${theme}`);
      await page.context().close();
    }
  });
}

for (const theme of ["light", "dark"]) {
  for (const width of [1366, 375]) {
    test(`screenshot: the billing panel, ${theme}, ${width} px`, async () => {
      await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
      const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
      await signIn(page, { email: ana.email, password: ana.password });
      await page.goto(`/tickets/${ticketId}`);
      await page.getByTestId("chat-contact-name").click();
      await page.getByTestId("billing-invoice").first().waitFor();
      await page.getByTestId("billing-panel").scrollIntoViewIfNeeded();
      await settled(page);
      await shot(page, `billing-panel-${width}-${theme}`);
      await page.context().close();
    });
  }
}
