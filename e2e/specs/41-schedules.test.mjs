// Schedules and the message API: an agent schedules a message for the next minute in the chat's Agendar dialog,
// it reaches the customer's phone (the simulator) signed with the agent's name, and the admin's Agendamentos
// screen turns it Enviado; then a text and an image sent through /doc's two 'Teste de Envio' forms reach the
// phone. Screenshots of the dialog, the screen and /doc, light and dark, at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn, toast, unique } from "../lib/browser.mjs";
import { agentPage, createAgent, pairedSimulator, randomColor, until } from "../lib/conversation.mjs";
import { solidPng } from "../lib/png.mjs";

let browser;
let admin;
let sim;
let ana;
let ticketId;
const customer = `55118${String(Date.now()).slice(-8)}`;
const customerName = unique("Rita Cliente");
const TOKEN = `tok-${Date.now()}`;
const ZONE = "America/Sao_Paulo";

before(async () => {
  browser = await launch();
  admin = await api();
  const queue = await admin.post("/queue", { name: unique("Cobrança"), color: randomColor(), greetingMessage: "" });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  sim = await pairedSimulator(admin, { name: unique("Agenda"), queueIds: [queue.id] });
  await admin.put(`/whatsapp/${sim.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 10, token: TOKEN });
  await sim.say(customer, "pode me lembrar do vencimento?", customerName);
  const found = await until(async () => {
    const list = await admin.get(`/tickets?showAll=true&searchParam=${customer}`);
    return list.tickets.find((t) => t.contact.number === customer);
  }, "the customer's ticket");
  ticketId = found.id;
  await admin.put(`/tickets/${ticketId}`, { status: "open", userId: ana.id });
});
after(async () => {
  await admin?.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await browser?.close();
});

/**
 * The local date and a minute (HH:mm) in the product's zone, as the dialog's fields take them: due
 * 40 to 100 s from now (the field has no seconds). The next minute alone could fall due 1 s later,
 * before the admin's screen opens to see it still Agendado (a slow machine needs 20 s or more).
 */
function nextMinute() {
  const at = new Date(Date.now() + 100_000);
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

async function themed(page, name, prepare) {
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.reload();
    await prepare();
    await settled(page);
    await shot(page, `${name}-${theme}-1366`);
    await page.setViewportSize({ width: 375, height: 760 });
    await settled(page);
    await shot(page, `${name}-${theme}-375`);
  }
  await admin.put("/settings/darkMode", { value: "disabled" });
  await page.setViewportSize({ width: 1366, height: 850 });
}

test("a message scheduled for the next minute in the chat reaches the phone and turns Enviado on /schedules", async () => {
  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("action-schedule").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("Nenhum agendamento para este atendimento.").waitFor();
  await dialog.getByText(`Será enviada pela conexão`).waitFor();

  // the spec's validation text when something is missing
  await dialog.getByTestId("schedule-submit").click();
  await toast(page, "Preencha data, hora e mensagem.").waitFor();

  const text = `Lembrete: sua fatura vence amanhã (${unique("ref")})`;
  const { date, time } = nextMinute();
  await dialog.getByTestId("schedule-date").fill(date);
  await dialog.getByTestId("schedule-time").fill(time);
  await dialog.getByTestId("schedule-message").fill(text);
  await dialog.getByTestId("schedule-submit").click();
  await toast(page, "Mensagem agendada.").waitFor();
  const row = dialog.getByTestId("schedule-dialog-row").filter({ hasText: text });
  await row.getByText("Agendado").waitFor();

  await themed(page, "schedule-dialog", async () => {
    await page.getByTestId("action-schedule").click();
    await page.getByRole("dialog").getByTestId("schedule-dialog-row").first().waitFor();
  });
  await page.getByRole("dialog").getByRole("button", { name: "Fechar" }).click();

  // the admin's screen, open while it is due: it turns Enviado live
  const adminPage = await newPage(browser, { width: 1366, height: 850 });
  await signIn(adminPage);
  await adminPage.goto("/schedules");
  await adminPage.getByRole("heading", { name: "Agendamentos" }).waitFor();
  const line = adminPage.getByTestId("schedule-row").filter({ hasText: text.slice(0, 45) });
  await line.getByText("Agendado").waitFor();
  await line.getByText(ana.name).waitFor();

  // it reaches the customer's phone, once, signed with the agent's name
  const signed = `*${ana.name}*:\n${text}`;
  await until(
    async () => (await sim.phone(customer)).some((m) => m.fromMe && m.body === signed),
    "the scheduled message on the phone",
    150_000,
  );
  await line.getByText("Enviado").waitFor({ timeout: 20_000 });
  assert.equal((await sim.phone(customer)).filter((m) => m.fromMe && m.body === signed).length, 1);

  // filters: Enviado and today's range keep it; Cancelado does not
  await adminPage.getByTestId("schedules-status").click();
  await adminPage.getByRole("option", { name: "Cancelado" }).click();
  await adminPage.getByTestId("schedules-apply").click();
  await adminPage.getByTestId("schedules-empty").or(adminPage.getByTestId("schedule-row").first()).waitFor();
  assert.equal(await line.count(), 0);
  await adminPage.getByTestId("schedules-status").click();
  await adminPage.getByRole("option", { name: "Enviado" }).click();
  await adminPage.getByTestId("schedules-from").fill(date);
  await adminPage.getByTestId("schedules-to").fill(date);
  await adminPage.getByTestId("schedules-apply").click();
  await line.getByText("Enviado").waitFor();
  await adminPage.getByTestId("schedules-search").fill(ana.name);
  await line.waitFor();

  await themed(adminPage, "schedules", async () => {
    await adminPage.getByTestId("schedule-row").first().waitFor();
  });
  await page.context().close();
  await adminPage.context().close();
});

// Schedules are made from a chat (Agendar), not on this screen: the screen says so, and so does its empty state.
test("Agendamentos says schedules are made from a chat, on the page and in its empty state", async () => {
  const page = await newPage(browser, { width: 1366, height: 850 });
  await signIn(page);
  await page.goto("/schedules");
  await page.getByRole("heading", { name: "Agendamentos" }).waitFor();
  await page.getByTestId("schedules-how").getByText("abra o atendimento e use Agendar", { exact: false }).waitFor();
  const nothingThen = async () => {
    // a day far ahead: nothing is scheduled there
    await page.getByTestId("schedules-from").fill("2099-01-01");
    await page.getByTestId("schedules-to").fill("2099-01-02");
    await page.getByTestId("schedules-apply").click();
    const empty = page.getByTestId("schedules-empty");
    await empty.getByText("Nenhum agendamento encontrado.").waitFor();
    await empty.getByText("use Agendar", { exact: false }).waitFor();
  };
  await nothingThen();
  await themed(page, "schedules-empty", nothingThen);
  await page.context().close();
});

test("/doc: a text and an image sent through the two 'Teste de Envio' forms reach the phone", async () => {
  const page = await newPage(browser, { width: 1366, height: 850 });
  await signIn(page);
  await page.goto("/doc");
  await page.getByRole("heading", { name: "Documentação da API" }).waitFor();
  await page.getByTestId("doc-number-rule").getByText("código do país").waitFor();
  await page.getByTestId("doc-token-rule").getByText("Conexões").waitFor();
  await page.getByTestId("doc-text").getByText("curl -X POST").waitFor();
  await page.getByTestId("doc-text").getByRole("tab", { name: "JavaScript" }).click();
  await page.getByTestId("doc-text").getByText("await fetch(").waitFor();

  const number = `55119${String(Date.now()).slice(-8)}`;
  // a wrong token is refused with the catalogue's words, and the admin stays signed in
  await page.getByTestId("doc-text-token").fill("nao-e-este");
  await page.getByTestId("doc-text-number").fill(number);
  await page.getByTestId("doc-text-body").fill("teste de envio pela API");
  await page.getByTestId("doc-text-send").click();
  await toast(page, "Token inválido").waitFor();
  assert.match(page.url(), /\/doc$/);

  await page.getByTestId("doc-text-token").fill(TOKEN);
  await page.getByTestId("doc-text-send").click();
  await toast(page, "Mensagem enviada com sucesso").waitFor();

  await page.getByTestId("doc-media-token").fill(TOKEN);
  await page.getByTestId("doc-media-number").fill(number);
  await page
    .getByTestId("doc-media-file")
    .setInputFiles({ name: "boleto.png", mimeType: "image/png", buffer: solidPng(64, 48, [30, 120, 200]) });
  await page.getByTestId("doc-media-send").click();
  await toast(page, "Mensagem enviada com sucesso").waitFor();

  const got = await until(async () => {
    const msgs = (await sim.phone(number)).filter((m) => m.fromMe);
    return msgs.length >= 2 ? msgs : undefined;
  }, "both messages on the phone");
  assert.equal(got.length, 2);
  assert.equal(got[0].body, "teste de envio pela API");
  assert.equal(got[1].mediaType, "image");
  // stored on a closed ticket: nobody's waiting list grew
  const pending = await admin.get(`/tickets?status=pending&showAll=true&searchParam=${number}`);
  assert.equal(pending.tickets.filter((t) => t.contact.number === number).length, 0);

  await themed(page, "doc", async () => {
    await page.getByRole("heading", { name: "Documentação da API" }).waitFor();
  });
  await themed(page, "doc-forms", async () => {
    await page.getByTestId("doc-form-text").scrollIntoViewIfNeeded();
  });
  await page.context().close();
});
