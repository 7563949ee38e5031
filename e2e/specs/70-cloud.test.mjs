// WhatsApp Cloud API (issue 29) against a fake Graph API: the connection dialog's channel choice,
// a customer writing through the webhook, an agent answering with the ticks moving, and a contact
// whose 24 h window is closed (never wrote) receiving an approved template from the chat.
// Screenshots in both themes at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BASE, api, launch, newPage, settled, shot, signIn, unique } from "../lib/browser.mjs";
import { until } from "../lib/conversation.mjs";
import { startGraphFake } from "../lib/graph-fake.mjs";

let browser;
let admin;
let fake;
let conn;

before(async () => {
  browser = await launch();
  admin = await api();
  fake = await startGraphFake({ port: Number(process.env.E2E_GRAPH_PORT), webhookUrl: `${BASE}/webhooks/whatsapp` });
  conn = await admin.post("/whatsapp", {
    name: unique("Oficial"),
    channel: "cloud",
    replyGapMs: 0,
    cloud: {
      phoneNumberId: fake.phoneNumberId,
      businessAccountId: fake.wabaId,
      accessToken: fake.token,
      appSecret: fake.appSecret,
      verifyToken: "e2e-verify-token-123",
    },
  });
  await until(async () => (await admin.get(`/whatsapp/${conn.id}`)).status === "CONNECTED", "the Cloud connection connected");
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await admin.delete(`/whatsapp/${conn.id}`).catch(() => undefined);
  await fake?.close();
  await browser?.close();
});

test("a customer writes through the webhook, the agent answers, the ticks move", async () => {
  const number = "5511970001001";
  await fake.customerSends(number, "Marina Cloud", "minha internet está lenta");
  const ticket = await until(async () => {
    const list = await admin.get(`/tickets?showAll=true&searchParam=${number}`);
    return list.tickets.find((t) => t.contact.number === number);
  }, "the customer's ticket");
  await admin.put(`/tickets/${ticket.id}`, { status: "open" });

  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.goto(`/tickets/${ticket.id}`);
  const chat = page.getByTestId("chat-view");
  await chat.getByText("minha internet está lenta").waitFor();
  assert.equal(await page.getByTestId("window-closed").count(), 0, "the window is open: no template bar");
  const input = page.getByTestId("message-input");
  await input.fill("Vou verificar o seu sinal agora.");
  await input.press("Enter");
  const bubble = chat.getByTestId("message").filter({ hasText: "Vou verificar o seu sinal agora." });
  await bubble.getByTestId("ack-2").waitFor();
  const sent = fake.accepted.find((a) => a.body.text?.body?.includes("Vou verificar o seu sinal agora."));
  assert.ok(sent?.ourId, "the send carries our id in biz_opaque_callback_data");
  await fake.read(sent);
  await bubble.getByTestId("ack-3").waitFor();
  await page.context().close();
});

test("the window is closed: the chat offers the approved templates and the agent sends one", async () => {
  const number = "5511970001002";
  const contact = await admin.post("/contacts", { name: "Rogério Sem Janela", number });
  const ticket = await admin.post("/tickets", { contactId: contact.id, whatsappId: conn.id, status: "open" });
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width === 375 ? 760 : 800 });
      await signIn(page);
      await page.goto(`/tickets/${ticket.id}`);
      await page.getByTestId("window-closed").waitFor();
      await settled(page);
      await shot(page, `cloud-window-closed-${width}-${theme}`);
      await page.getByTestId("send-template").click();
      await page.getByTestId("template-preview").getByText("Olá Rogério Sem Janela, podemos continuar seu atendimento?").waitFor();
      await settled(page);
      await shot(page, `cloud-template-dialog-${width}-${theme}`);
      const last = theme === "dark" && width === 375;
      if (!last) {
        await page.getByRole("button", { name: "Cancelar" }).click();
        await page.context().close();
        continue;
      }
      await page.getByTestId("template-send").click();
      const chat = page.getByTestId("chat-view");
      const bubble = chat.getByTestId("message").filter({ hasText: "podemos continuar seu atendimento?" });
      await bubble.getByTestId("ack-2").waitFor();
      const sent = fake.accepted.find((a) => a.to === number);
      assert.equal(sent.type, "template");
      assert.equal(sent.body.template.name, "retomar_contato");
      assert.deepEqual(sent.body.template.components[0].parameters, [{ type: "text", text: "Rogério Sem Janela" }]);
      await page.context().close();
    }
  }
});

test("the connection dialog asks QR code or API oficial, with the webhook URL and verify token; the card shows the channel", async () => {
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width === 375 ? 760 : 800 });
      await signIn(page);
      await page.goto("/connections");
      await page.getByRole("heading", { name: "Conexões", level: 1 }).waitFor();
      const card = page.getByTestId("connection-card").filter({ has: page.getByRole("heading", { name: conn.name, exact: true }) });
      await card.getByTestId("connection-channel").filter({ hasText: "API oficial" }).waitFor();
      await card.getByTestId("connection-limits").waitFor();
      await settled(page);
      await shot(page, `cloud-connections-${width}-${theme}`);
      await page.getByRole("button", { name: "Adicionar conexão" }).first().click();
      await page.getByRole("dialog").getByText("QR code (WhatsApp Web)").waitFor();
      await page.getByRole("dialog").getByText("API oficial (Cloud API)").click();
      await page.getByRole("dialog").getByLabel("URL do webhook").waitFor();
      assert.equal(await page.getByRole("dialog").getByLabel("URL do webhook").inputValue(), `${BASE}/webhooks/whatsapp`);
      await settled(page);
      await shot(page, `cloud-dialog-${width}-${theme}`);
      await page.getByRole("dialog").getByLabel("Token de verificação").scrollIntoViewIfNeeded();
      await settled(page);
      await shot(page, `cloud-dialog-bottom-${width}-${theme}`);
      await page.context().close();
    }
  }
});
