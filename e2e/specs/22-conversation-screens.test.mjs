// Screenshots of the tickets screen and of a long conversation, light and dark, at 1366 and 375 px wide
// (into e2e/screenshots/ to be looked at). The assertions pin what can be measured: no sideways scroll,
// previews within the row, action buttons not covering the contact's name.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn, unique } from "../lib/browser.mjs";
import { pairedSimulator, randomColor, until } from "../lib/conversation.mjs";

let browser;
let admin;
let ticketId;
const main = unique("Maria Aparecida dos Santos Oliveira");

before(async () => {
  browser = await launch();
  admin = await api();
  const queue = await admin.post("/queue", { name: unique("Suporte técnico"), color: randomColor(), greetingMessage: "" });
  const sim = await pairedSimulator(admin, { name: unique("Loja"), queueIds: [queue.id] });
  const base = `55219${String(Date.now()).slice(-7)}`;
  const customers = [
    [main, "Boa tarde! Minha internet está muito lenta desde ontem à noite, já reiniciei o roteador."],
    [unique("Pedro Henrique"), "Quero a segunda via do boleto"],
    [unique("Lúcia Fernandes"), "Oi"],
    [unique("Roberto Carlos Nogueira Filho"), "O técnico vem hoje? Estou esperando desde as oito da manhã."],
  ];
  for (const [i, [name, body]] of customers.entries()) await sim.say(`${base}${i}`, body, name);
  const number = `${base}0`;
  const ticket = await until(async () => {
    const { tickets } = await admin.get(`/tickets?showAll=true&searchParam=${number}`);
    return tickets.find((t) => t.contact.number === number);
  }, "the main ticket");
  ticketId = ticket.id;
  await admin.put(`/tickets/${ticketId}`, { status: "open" });
  const lines = [
    [false, "Já tentei desligar e ligar de novo, mas continua igual."],
    [true, "*Suporte*:\nVou verificar o sinal da sua região, um momento."],
    [false, "Ok, fico no aguardo"],
    [true, "Encontrei uma ~instabilidade~ *manutenção programada* na sua rua."],
    [false, "E quando volta ao normal? Preciso trabalhar de casa hoje e a conexão está caindo toda hora, não dá para fazer as reuniões."],
    [true, "A previsão é até as 18h. Posso abrir um chamado para acompanhar?"],
    [false, "Pode sim, obrigada"],
    [true, "Chamado aberto: *#48213*. Qualquer novidade te aviso por aqui."],
    [false, "Perfeito 👍"],
    [false, "https://exemplo.com.br/um-link-bem-comprido-que-nao-pode-quebrar-o-layout-da-conversa-de-jeito-nenhum"],
    [true, "Disponha! Mais alguma dúvida?"],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [mine, body] of lines) {
      if (mine) await admin.post(`/messages/${ticketId}`, { body });
      else await sim.say(number, body, main);
    }
  }
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" });
  await browser?.close();
});

async function noSidewaysScroll(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
}

/** No two boxes of these locators overlap. */
async function apart(a, b, what) {
  const ra = await a.boundingBox();
  const rb = await b.boundingBox();
  if (!ra || !rb) return;
  const overlap = ra.x < rb.x + rb.width && rb.x < ra.x + ra.width && ra.y < rb.y + rb.height && rb.y < ra.y + ra.height;
  assert.ok(!overlap, `${what} overlap`);
}

for (const theme of ["light", "dark"]) {
  for (const width of [1366, 375]) {
    test(`tickets and chat, ${theme}, ${width} px`, async () => {
      await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
      const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
      await signIn(page);
      const list = page.getByTestId("tickets-scroll").filter({ visible: true });
      await list.getByTestId("ticket-item").first().waitFor();
      await settled(page);
      await noSidewaysScroll(page);
      for (const row of await list.getByTestId("ticket-item").all()) {
        const box = await row.boundingBox();
        const preview = await row.getByTestId("ticket-preview").boundingBox();
        if (box && preview) assert.ok(preview.x + preview.width <= box.x + box.width, "the preview stays inside its row");
      }
      await shot(page, `tickets-${theme}-${width}`);
      await page.getByTestId("tab-waiting").click();
      await page.locator('[data-testid="tickets-scroll"][aria-busy="false"]').filter({ visible: true }).waitFor();
      await settled(page);
      await shot(page, `tickets-waiting-${theme}-${width}`);

      await page.goto(`/tickets/${ticketId}`);
      const chat = page.getByTestId("chat-view");
      await chat.getByTestId("message").last().waitFor();
      await settled(page);
      await noSidewaysScroll(page);
      assert.match(await chat.getByTestId("message").last().textContent(), /Disponha! Mais alguma dúvida\?/, "the newest message is last");
      const header = chat.getByTestId("chat-header");
      await apart(header.getByTestId("chat-contact-name"), header.getByTestId("action-transfer"), "the contact name and Transferir");
      for (const bubble of await chat.getByTestId("message").all()) {
        const box = await bubble.locator("> div").boundingBox();
        if (box) assert.ok(box.width <= 600.5, `a bubble is ${box.width}px wide`);
      }
      await shot(page, `chat-${theme}-${width}`);
      await page.context().close();
    });
  }
}

// Finalizar ends the conversation and sends the farewell: it asks first, as deletions do. On a phone
// the ticket's actions are not bare icons: each shows its name under the icon.
test("Finalizar asks before closing; on a phone each action shows its name", async () => {
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
      await signIn(page);
      await page.goto(`/tickets/${ticketId}`);
      const chat = page.getByTestId("chat-view");
      await chat.getByTestId("message").last().waitFor();
      const header = chat.getByTestId("chat-header");
      for (const [id, name] of [
        ["action-schedule", "Agendar"],
        ["action-transfer", "Transferir"],
        ["action-close", "Finalizar"],
      ]) {
        const action = header.getByTestId(id);
        // its accessible name, and the name on screen (on a phone too, where it used to be a bare icon)
        await header.getByRole("button", { name, exact: true }).and(action).waitFor();
        assert.equal((await action.textContent()).trim(), name, `${id} shows "${name}" at ${width} px`);
      }
      await noSidewaysScroll(page);
      await apart(header.getByTestId("chat-contact-name"), header.getByTestId("action-close"), "the contact name and Finalizar");

      await header.getByTestId("action-close").click();
      const dialog = page.getByRole("dialog", { name: `Finalizar o atendimento de ${main}?` });
      await dialog.waitFor();
      await dialog.getByText("mensagem de despedida").waitFor();
      await settled(page);
      await shot(page, `chat-finalize-${theme}-${width}`);
      assert.equal((await admin.get(`/tickets/${ticketId}`)).status, "open", "nothing is closed before the answer");
      await dialog.getByRole("button", { name: "Cancelar" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert.equal((await admin.get(`/tickets/${ticketId}`)).status, "open", "Cancelar keeps the ticket open");
      await page.context().close();
    }
  }
});

test("Finalizar, confirmed: the ticket is closed and the inbox comes back", async () => {
  await admin.put("/settings/darkMode", { value: "disabled" });
  const page = await newPage(browser, { width: 375, height: 740 });
  await signIn(page);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("chat-view").getByTestId("message").last().waitFor();
  await page.getByTestId("action-close").click();
  await page
    .getByRole("dialog", { name: /Finalizar o atendimento/ })
    .getByRole("button", { name: "Finalizar" })
    .click();
  await page.waitForURL(/\/tickets$/);
  assert.equal((await admin.get(`/tickets/${ticketId}`)).status, "closed");
  await page.context().close();
});
