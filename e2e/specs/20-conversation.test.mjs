// A whole conversation in Chromium against the simulator: menu and queue choice, live waiting lists scoped by
// queue, accept, quick answer, image, recorded audio, acks on screen, transfer, close with farewell, reopen, new ticket.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { api, unique } from "../lib/browser.mjs";
import {
  agentPage,
  createAgent,
  launchWithMic,
  pairedSimulator,
  randomColor,
  recorded,
  ticketRow,
  toneWav,
  until,
  watchMicrophone,
} from "../lib/conversation.mjs";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

let browser;
let admin;
let wav;
let sim;
let support;
let billing;
let ana;
let beto;
let shortcut;
const quickText = "Olá! Já estou verificando a sua conexão.";
const customer = `55119${String(Date.now()).slice(-8)}`;
const customerName = unique("Joana Cliente");

before(async () => {
  wav = toneWav(6);
  browser = await launchWithMic(wav);
  admin = await api();
  support = await admin.post("/queue", { name: unique("Suporte"), color: randomColor(), greetingMessage: "Você está no Suporte." });
  billing = await admin.post("/queue", {
    name: unique("Financeiro"),
    color: randomColor(),
    greetingMessage: "Financeiro, em que podemos ajudar?",
  });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [support.id] });
  beto = await createAgent(admin, { name: unique("Beto"), queueIds: [billing.id] });
  shortcut = `ola${Math.random().toString(36).slice(2, 6)}`;
  await admin.post("/quickAnswers", { shortcut, message: quickText });
  sim = await pairedSimulator(admin, {
    name: unique("Provedor"),
    queueIds: [support.id, billing.id],
    greetingMessage: "Olá! Bem-vindo à Fibra Net. Escolha o setor:",
    farewellMessage: "Atendimento encerrado. Obrigado!",
  });
});
after(async () => {
  await admin?.put("/settings/timeCreateNewTicket", { value: "7200" }).catch(() => undefined);
  await browser?.close();
  if (wav) rmSync(wav, { force: true });
});

const fromAgent = async () => (await sim.phone(customer)).filter((m) => m.fromMe);

test("a customer's conversation from the menu to a new ticket, driven in the browser", async () => {
  const anaPage = await agentPage(browser, ana);
  const betoPage = await agentPage(browser, beto);
  for (const p of [anaPage, betoPage]) {
    await p.getByTestId("tab-waiting").click();
    await p.getByTestId("tickets-scroll").filter({ visible: true }).waitFor();
  }

  // 1. the customer writes and gets the menu; picks Suporte
  await sim.say(customer, "Oi, minha internet caiu", customerName);
  const menu = await until(async () => (await fromAgent()).find((m) => m.body.includes("Escolha o setor")), "the menu");
  const option = new RegExp(`\\*(\\d+)\\* - ${support.name}`).exec(menu.body)?.[1];
  assert.ok(option, `the menu lists ${support.name}: ${menu.body}`);
  await sim.say(customer, option, customerName);

  // 2. live in Ana's waiting tab (her queue), and never left in Beto's (another queue)
  const anaRow = ticketRow(anaPage, customerName);
  await anaRow.waitFor();
  await until(async () => (await anaRow.getByTestId("ticket-queue").textContent()) === support.name, "the queue on Ana's row");
  await until(async () => (await ticketRow(betoPage, customerName).count()) === 0, "Beto's list without the ticket");
  // a later event Beto does get (his own rename, shown in his top bar) comes after any earlier one on his socket
  const renamed = `${beto.name} Financeiro`;
  await admin.put(`/users/${beto.id}`, { name: renamed });
  await betoPage.getByRole("banner").getByText(renamed).waitFor();
  assert.equal(await ticketRow(betoPage, customerName).count(), 0, "an agent of another queue does not see it");
  const previewText = await anaRow.getByTestId("ticket-preview").textContent();
  assert.ok(previewText.length <= 21, `preview cut to 20 characters: ${previewText}`);

  // 3. Ana accepts: the chat opens with the history
  await anaRow.getByRole("button", { name: "Atender" }).click();
  await anaPage.waitForURL(/\/tickets\/\d+$/);
  const ticketId = Number(anaPage.url().split("/").pop());
  const chat = anaPage.getByTestId("chat-view");
  await chat.getByTestId("chat-contact-name").filter({ hasText: customerName }).waitFor();
  await chat.getByTestId("message-body").filter({ hasText: "Oi, minha internet caiu" }).waitFor();
  await anaPage.getByTestId("tab-assigned").click();
  await ticketRow(anaPage, customerName).waitFor();

  // 4. a quick answer: '/' + shortcut, Enter picks it, Enter sends it signed
  const input = anaPage.getByTestId("message-input");
  await input.fill(`/${shortcut}`);
  await anaPage.getByTestId("quick-answers").getByText(quickText).waitFor();
  await input.press("Enter");
  assert.equal(await input.inputValue(), quickText);
  await input.press("Enter");
  const signedBody = `*${ana.name}*:\n${quickText}`;
  await until(async () => (await fromAgent()).some((m) => m.body === signedBody), "the quick answer on the phone");
  await until(async () => (await input.inputValue()) === "", "the input cleared after sending");

  // 5. an image with a caption
  await anaPage.getByTestId("file-input").setInputFiles({ name: "diagnostico.png", mimeType: "image/png", buffer: PNG });
  await anaPage.getByTestId("attachments").getByText("diagnostico.png").waitFor();
  await input.fill("Veja o diagnóstico");
  await input.press("Enter");
  await until(
    async () => (await fromAgent()).some((m) => m.mediaType === "image" && m.body === "Veja o diagnóstico"),
    "the image on the phone",
  );
  await chat.getByTestId("message-image").first().waitFor();

  // 6. a recorded audio from the fake microphone (2.5 s of it), sent as MP3
  await watchMicrophone(anaPage);
  await anaPage.getByRole("button", { name: "Gravar áudio" }).click();
  await anaPage.getByTestId("recording").waitFor();
  await recorded(anaPage, 2.5);
  await anaPage.getByRole("button", { name: "Enviar áudio" }).click();
  const audio = await until(async () => (await fromAgent()).find((m) => m.mediaType === "audio"), "the audio on the phone", 20_000);
  assert.ok(audio.hasMedia, "the audio carries its file");
  await chat.getByTestId("message-audio").first().waitFor();

  // 7. acks advance on Ana's screen: delivered, then read once the customer reads
  const quickBubble = chat.getByTestId("message").filter({ hasText: quickText });
  await quickBubble.getByTestId("ack-2").waitFor();
  await sim.read(customer);
  await quickBubble.getByTestId("ack-3").waitFor();
  await chat
    .getByTestId("message")
    .filter({ has: anaPage.getByTestId("message-audio") })
    .getByTestId("ack-3")
    .waitFor();

  // 8. transfer to Financeiro: waiting there, live in Beto's list
  await anaPage.getByTestId("action-transfer").click();
  const dialog = anaPage.getByRole("dialog");
  await dialog.getByRole("combobox", { name: "Setor" }).click();
  await anaPage.getByRole("option", { name: billing.name }).click();
  await dialog.getByRole("button", { name: "Transferir" }).click();
  await anaPage.waitForURL(/\/tickets$/);
  await betoPage.getByTestId("tab-waiting").click();
  const betoRow = ticketRow(betoPage, customerName);
  await betoRow.waitFor();
  await until(async () => (await ticketRow(anaPage, customerName).count()) === 0, "the ticket gone from Ana's lists");

  // 9. Beto accepts and closes it (Finalizar): the farewell reaches the customer
  await betoRow.getByRole("button", { name: "Atender" }).click();
  await betoPage.waitForURL(new RegExp(`/tickets/${ticketId}$`));
  await betoPage.getByTestId("chat-view").getByTestId("message-body").filter({ hasText: "Veja o diagnóstico" }).waitFor();
  await betoPage.getByTestId("action-close").click();
  await betoPage
    .getByRole("dialog", { name: /Finalizar o atendimento/ })
    .getByRole("button", { name: "Finalizar" })
    .click();
  await betoPage.waitForURL(/\/tickets$/);
  await until(async () => (await fromAgent()).at(-1)?.body === "Atendimento encerrado. Obrigado!", "the farewell");
  const closed = await admin.get(`/tickets/${ticketId}`);
  assert.equal(closed.status, "closed");

  // 10. within the window the customer's next message reopens the same ticket
  await sim.say(customer, "A internet caiu de novo", customerName);
  await until(async () => (await admin.get(`/tickets/${ticketId}`)).status === "pending", "the reopened ticket");
  await betoPage.getByTestId("tab-waiting").click();
  await ticketRow(betoPage, customerName).waitFor();

  // 11. past the window, a new ticket: with the window at 0 s every closed ticket is past it
  await admin.put(`/tickets/${ticketId}`, { status: "closed" });
  await admin.put("/settings/timeCreateNewTicket", { value: "0" });
  await sim.say(customer, "Outra dúvida", customerName);
  const fresh = await until(async () => {
    const { tickets } = await admin.get(`/tickets?showAll=true&searchParam=${customer}`);
    return tickets.find((t) => t.contact.number === customer && t.id !== ticketId);
  }, "a new ticket");
  assert.notEqual(fresh.id, ticketId);
  await anaPage.context().close();
  await betoPage.context().close();
});
