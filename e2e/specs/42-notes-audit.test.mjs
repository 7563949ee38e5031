// Internal notes and the audit log: an agent turns the note toggle on and writes a note in a chat; it shows as a
// yellow bubble with a lock, never reaches the customer's phone, and the admin's Auditoria screen lists what
// happened (filters, CSV). Screenshots of the note in the chat and of /audit, light and dark, at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn, unique } from "../lib/browser.mjs";
import { agentPage, createAgent, pairedSimulator, randomColor, until } from "../lib/conversation.mjs";

let browser;
let admin;
let sim;
let ana;
let ticketId;
const customer = `55119${String(Date.now()).slice(-8)}`;
const customerName = unique("Joana Cliente");

before(async () => {
  browser = await launch();
  admin = await api();
  const queue = await admin.post("/queue", { name: unique("Suporte"), color: randomColor(), greetingMessage: "" });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  sim = await pairedSimulator(admin, { name: unique("Notas"), queueIds: [queue.id] });
  await sim.say(customer, "minha internet caiu de novo", customerName);
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

test("a note written with the toggle shows apart in the chat and never reaches the phone", async () => {
  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("note-toggle").click();
  await page.getByTestId("message-input").fill("Cliente já ligou 3 vezes hoje; verificar a ONU");
  await page.keyboard.press("Enter");
  const note = page.locator('[data-testid="message"][data-internal="true"]');
  await note.first().waitFor();
  assert.match(await note.first().innerText(), /Nota interna/);
  // sent, the note turns the toggle off: the /nota prefix works with it off
  await page.locator('[data-testid="note-toggle"][aria-pressed="false"]').waitFor();
  await page.getByTestId("message-input").fill("/nota segunda nota pelo atalho");
  await page.keyboard.press("Enter");
  await until(async () => (await note.count()) === 2, "the second note");
  // a reply to the customer still goes out, and the notes never do
  await page.getByTestId("message-input").fill("Olá! Já estamos verificando.");
  await page.keyboard.press("Enter");
  await until(
    async () => (await sim.phone(customer)).some((m) => m.fromMe && m.body.includes("Já estamos verificando")),
    "the reply on the phone",
  );
  const phone = await sim.phone(customer);
  assert.equal(
    phone.some((m) => /ONU|segunda nota/.test(m.body)),
    false,
  );
  await themed(page, "notes-chat", async () => {
    await note.first().waitFor();
  });
  await page.close();
});

test("the Auditoria screen lists who did what, filters by action and exports CSV", async () => {
  const page = await newPage(browser, { width: 1366, height: 850 });
  await signIn(page);
  await page.goto("/audit");
  await page.getByTestId("audit-row").first().waitFor();
  // the filter by action
  await page.getByTestId("audit-status").click();
  await page.getByRole("option", { name: "Entrou no sistema" }).click();
  await page.getByTestId("audit-apply").click();
  await until(async () => {
    const actions = await page.getByTestId("audit-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
    return actions.length > 0 && actions.every((a) => a === "auth.login");
  }, "only sign-ins listed");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export").click()]);
  assert.match(download.suggestedFilename(), /^auditoria-.*\.csv$/);
  await page.getByRole("button", { name: "Limpar" }).click();
  await themed(page, "audit", async () => {
    await page.locator('[data-testid="audit-row"], [data-testid="audit-card"]').first().waitFor();
  });
  await page.close();
});
