// Connections screen: a simulated session going OPENING → qrcode (QR dialog) → CONNECTED with the
// drawer badge clearing, the form (validation, greeting rule, Typebot), delete, and screenshots in
// both themes at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, api, launch, newPage, settled, shot, signIn, toast, unique, within } from "../lib/browser.mjs";

let browser;
let admin;
/** Connections this file created, deleted at the end so later specs find the list as it was. */
const created = [];

async function simulated(id) {
  return (await admin.get("/simulator/api/connections")).find((c) => c.id === id);
}

/** Pairs a simulator connection the way the simulator page does: its current QR code is "scanned". */
async function pair(id) {
  let c = await simulated(id);
  if (c.status !== "qrcode") {
    await admin.post(`/whatsappsession/${id}`);
    c = await simulated(id);
  }
  await admin.post(`/simulator/api/connections/${id}/scan`, { qrcode: c.qrcode });
}

async function createSimulated(name, extra = {}) {
  const w = await admin.post("/simulator/api/connections", { name, ...extra });
  created.push(w.id);
  return w;
}

before(async () => {
  browser = await launch();
  admin = await api();
  // The badge clears only when every connection is connected: pair simulated ones other specs left
  // behind and drop the rest (a Baileys session cannot reach WhatsApp from here).
  for (const w of await admin.get("/whatsapp")) {
    if (w.status === "CONNECTED") continue;
    if (w.type === "simulator") await pair(w.id);
    else await admin.delete(`/whatsapp/${w.id}`);
  }
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  for (const id of created) await admin.delete(`/whatsapp/${id}`).catch(() => undefined);
  await browser?.close();
});

const card = (page, name) => page.getByTestId("connection-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

test("a simulated session: OPENING → qrcode (QR dialog) → CONNECTED, and the drawer badge clears", async () => {
  const name = unique("Loja Centro");
  const w = await createSimulated(name);
  await admin.delete(`/whatsappsession/${w.id}`);

  const page = await newPage(browser, { width: 1366, height: 800 });
  // Holds the socket's qrcode update until the test has seen the OPENING state (the simulator
  // answers at once, so both updates would otherwise land together).
  let holding = false;
  const held = [];
  let qrHeld;
  const qrAnnounced = new Promise((resolve) => {
    qrHeld = resolve;
  });
  let toPage;
  let joinedRooms;
  const inRooms = new Promise((resolve) => {
    joinedRooms = resolve;
  });
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    toPage = (m) => ws.send(m);
    ws.onMessage((m) => {
      server.send(m);
      if (typeof m === "string" && m.includes('"joinNotification"')) joinedRooms();
    });
    server.onMessage((m) => {
      if (holding && typeof m === "string" && m.includes('"whatsappSession"') && m.includes('"status":"qrcode"')) {
        held.push(m);
        qrHeld();
      } else ws.send(m);
    });
  });
  // the routed socket is not one the page's websocket event reports: its join is seen here instead
  await signIn(page, ADMIN, { live: false });
  await within(inRooms, 15_000, "the page's socket to join its rooms");
  await page.getByRole("link", { name: "Conexões" }).click();
  await page.getByRole("heading", { name: "Conexões", level: 1 }).waitFor();

  const c = card(page, name);
  await c.getByText("Desconectado").waitFor();
  await c.getByRole("button", { name: "Novo QR CODE" }).waitFor();
  // DISCONNECTED needs attention: the badge (checked 2 s after load) shows
  await page.getByTestId("connections-alert").waitFor();

  holding = true;
  await c.getByRole("button", { name: "Tentar novamente" }).click();
  const connecting = c.getByRole("button", { name: "Conectando" });
  await connecting.waitFor();
  assert.equal(await connecting.isDisabled(), true, "the Connecting button is disabled");
  assert.equal(await c.getAttribute("data-status"), "OPENING");
  await within(qrAnnounced, 5_000, "the server's QR code announcement");
  holding = false;
  for (const m of held.splice(0)) toPage(m);

  await c.getByRole("button", { name: "QR Code" }).click();
  const dialog = page.getByRole("dialog");
  const img = dialog.getByRole("img", { name: `QR Code da conexão ${name}` });
  await img.waitFor();
  const shown = await img.getAttribute("data-qrcode");
  assert.equal(shown, (await simulated(w.id)).qrcode, "the dialog draws the server's QR code");
  assert.match((await img.getAttribute("src")) ?? "", /^data:image\/png;base64,/);
  await shot(page, "connections-qr-1366-light");

  // the simulator "scans" it: the session connects, the QR empties and the dialog closes
  await admin.post(`/simulator/api/connections/${w.id}/scan`, { qrcode: shown });
  await dialog.waitFor({ state: "detached" });
  await c.getByText("Conectado", { exact: true }).waitFor();
  await c.getByRole("button", { name: "Desconectar" }).waitFor();
  await page.getByTestId("connections-alert").waitFor({ state: "detached" });
  await page.context().close();
});

test("create: a too-short name, the greeting rule with two queues, Typebot needs URL and slug; then delete", async () => {
  const queues = [];
  for (const qname of ["Suporte", "Vendas"]) {
    const color = `#${Math.floor(Math.random() * 0xffffff)
      .toString(16)
      .padStart(6, "0")}`;
    queues.push(await admin.post("/queue", { name: unique(qname), color, greetingMessage: "" }));
  }
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/connections");
  await page.getByRole("heading", { name: "Conexões", level: 1 }).waitFor();

  await page.getByRole("button", { name: "Adicionar conexão" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("A");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await dialog.getByText("Muito curto!").waitFor();

  const name = unique("Matriz");
  await dialog.getByLabel("Nome").fill(name);
  // the dialog asks first how the connection talks to WhatsApp (QR code, API oficial, Simulador)
  await dialog.getByRole("radio", { name: "Simulador" }).check();
  await dialog.getByRole("combobox", { name: "Setores" }).click();
  for (const q of queues) await page.getByRole("option", { name: q.name }).click();
  await page.keyboard.press("Escape");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  const greetingRule = "A mensagem de saudação é obrigatória quando há mais de um setor.";
  await toast(page, greetingRule).waitFor();
  await dialog.getByText(greetingRule).waitFor();

  await dialog.getByLabel("Mensagem de saudação").fill("Olá! Escolha um setor:");
  await dialog.getByLabel("Ativar Typebot").check();
  const save = dialog.getByRole("button", { name: "Salvar" });
  assert.equal(await save.isDisabled(), true, "submit is disabled while Typebot is on without URL and slug");
  await dialog.getByLabel("URL base").fill("https://typebot.example.com");
  assert.equal(await save.isDisabled(), true);
  await dialog.getByLabel("Slug do fluxo").fill("atendimento");
  assert.equal(await save.isDisabled(), false);
  await dialog.getByLabel("Chave da API").fill("segredo-typebot");
  await dialog.getByLabel("Expiração (minutos)").fill("15");
  await dialog.getByLabel("Intervalo entre mensagens (ms)").fill("800");
  await dialog.getByLabel("Palavra para encerrar o bot").fill("atendente");
  await dialog.getByLabel("Mensagem para resposta não reconhecida").fill("Não entendi, responda com o número.");
  // saving makes no token: the text says how to make one afterwards
  await dialog.getByTestId("token-state").getByText("Depois de salvar, abra a conexão em Editar", { exact: false }).waitFor();
  await save.click();
  await toast(page, "Conexão salva com sucesso!").waitFor();
  await dialog.waitFor({ state: "detached" });

  const c = card(page, name);
  await c.getByText("Aguardando QR Code").waitFor();
  const stored = (await admin.get("/whatsapp")).find((w) => w.name === name);
  created.push(stored.id);
  assert.equal(stored.hasToken, false);
  assert.equal("token" in stored, false, "the API token is never answered");
  assert.deepEqual(stored.queues.map((q) => q.id).sort(), queues.map((q) => q.id).sort());
  assert.deepEqual(stored.typebot, {
    enabled: true,
    baseUrl: "https://typebot.example.com",
    slug: "atendimento",
    hasApiKey: true,
    expiryMinutes: 15,
    delayMs: 800,
    endKeyword: "atendente",
    unknownMessage: "Não entendi, responda com o número.",
  });

  // editing: the key is write-only, the form only says one is set; blank keeps it
  await c.getByRole("button", { name: `Editar ${name}` }).click();
  await dialog.getByTestId("typebot-key-hint").getByText("Chave definida", { exact: false }).waitFor();
  assert.equal(await dialog.getByLabel("Chave da API").inputValue(), "");
  // the API token: 'Gerar novo token' shows a new one once; the list only learns that one is set
  await dialog.getByRole("button", { name: "Gerar novo token" }).click();
  const token = await dialog.getByLabel("Novo token da API").inputValue();
  assert.ok(token.length >= 40, "a random token was generated");
  const withToken = (await admin.get("/whatsapp")).find((w) => w.id === stored.id);
  assert.equal(withToken.hasToken, true);
  assert.ok(!JSON.stringify(withToken).includes(token), "the token is not answered by GET");
  await dialog.getByLabel("Mensagem de despedida").fill("Obrigado pelo contato!");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Conexão salva com sucesso!").waitFor();
  const edited = (await admin.get("/whatsapp")).find((w) => w.id === stored.id);
  assert.equal(edited.farewellMessage, "Obrigado pelo contato!");
  assert.equal(edited.typebot.hasApiKey, true);

  await c.getByRole("button", { name: `Excluir ${name}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Excluir" }).click();
  await toast(page, "Conexão excluída com sucesso!").waitFor();
  await c.waitFor({ state: "detached" });
  for (const q of queues) await admin.delete(`/queue/${q.id}`).catch(() => undefined);
  await page.context().close();
});

async function noSidewaysScroll(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
}

test("screenshots: light and dark at 1366 and 375 px", async () => {
  const waiting = await createSimulated(unique("Filial Norte — atendimento comercial"));
  const down = await createSimulated(unique("Filial Sul"));
  await admin.delete(`/whatsappsession/${down.id}`);
  const paired = await createSimulated(unique("Suporte 24h"));
  await pair(paired.id);

  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width === 375 ? 760 : 800 });
      await signIn(page);
      await page.goto("/connections");
      await page.getByRole("heading", { name: "Conexões", level: 1 }).waitFor();
      await page.locator('[aria-busy="false"]').waitFor();
      await card(page, waiting.name).getByRole("button", { name: "QR Code" }).waitFor();
      await settled(page);
      await noSidewaysScroll(page);
      await shot(page, `connections-${width}-${theme}`);

      await card(page, waiting.name).getByRole("button", { name: "QR Code" }).click();
      await page.getByTestId("qr-image").waitFor();
      await settled(page);
      await shot(page, `connections-qr-${width}-${theme}`);
      await page.getByRole("dialog").getByRole("button", { name: "Fechar" }).first().click();
      await page.getByRole("dialog").waitFor({ state: "detached" });

      await card(page, down.name)
        .getByRole("button", { name: `Editar ${down.name}` })
        .click();
      await page.getByRole("dialog").getByLabel("Nome").waitFor();
      await settled(page);
      await noSidewaysScroll(page);
      await shot(page, `connections-form-${width}-${theme}`);
      await page.getByRole("dialog").getByLabel("Chave da API").scrollIntoViewIfNeeded();
      await settled(page);
      await shot(page, `connections-form-bottom-${width}-${theme}`);
      await page.context().close();
    }
  }
});
