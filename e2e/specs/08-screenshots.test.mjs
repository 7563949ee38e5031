// Screenshots of every card grid in the light and the dark theme, and the contacts screen at 375 px.
// They land in e2e/screenshots/ to be looked at; the assertions pin that nothing overflows sideways.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn } from "../lib/browser.mjs";

let browser;
let admin;
before(async () => {
  browser = await launch();
  admin = await api();
  const names = ["Ana Beatriz Costa", "Bruno Henrique", "Carlos Eduardo Lima", "Daniela Martins", "Eduarda Ferreira Gomes", "Fábio Nunes"];
  for (const [i, name] of names.entries()) {
    await admin.post("/contacts", {
      name,
      number: `55119876500${10 + i}`,
      email: i % 2 ? `cliente${i}@example.com` : "",
    });
  }
  for (const [name, color] of [
    ["Suporte técnico", "#1e88e5"],
    ["Financeiro", "#43a047"],
    ["Comercial", "#fb8c00"],
  ]) {
    await admin.post("/queue", { name, color, greetingMessage: `Olá! Você está falando com o setor ${name}.` }).catch(() => undefined);
  }
  const queues = await admin.get("/queue");
  await admin
    .post("/users", {
      name: "Paula Supervisora",
      email: `paula-${Date.now()}@example.com`,
      password: "segredo1",
      profile: "superv",
      queueIds: queues.slice(0, 2).map((q) => q.id),
    })
    .catch(() => undefined);
  await admin
    .post("/users", { name: "bot", email: `bot-${Date.now()}@example.com`, password: "segredo1", profile: "user", queueIds: [] })
    .catch(() => undefined);
  for (const [shortcut, message] of [
    ["bomdia", "Bom dia! Como posso ajudar você hoje?"],
    ["boleto", "Segue a segunda via do seu boleto. Qualquer dúvida estamos à disposição."],
    ["visita", "Agendamos a visita técnica. O técnico chegará no período combinado."],
  ]) {
    await admin.post("/quickAnswers", { shortcut, message }).catch(() => undefined);
  }
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" });
  await browser?.close();
});

const screens = [
  ["contacts", "/contacts", "Contatos", "contact-card"],
  ["users", "/users", "Usuários", "user-card"],
  ["queues", "/queues", "Setores", "queue-card"],
  ["quick-answers", "/quickAnswers", "Respostas rápidas", "quick-answer-card"],
];

async function noSidewaysScroll(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
}

for (const theme of ["light", "dark"]) {
  test(`card grids in the ${theme} theme`, async () => {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    const page = await newPage(browser);
    await signIn(page);
    const failures = [];
    for (const [name, path, heading, cardId] of screens) {
      await page.goto(path);
      await page.getByRole("heading", { name: heading }).waitFor();
      await page.locator('[aria-busy="false"]').waitFor();
      await settled(page);
      await noSidewaysScroll(page);
      await shot(page, `${name}-${theme}`);
      if ((await page.getByTestId(cardId).count()) === 0) failures.push(name);
    }
    assert.deepEqual(failures, [], "every grid shows its cards");
    // the user named exactly 'bot' is hidden
    await page.goto("/users");
    await page.getByTestId("user-card").first().waitFor();
    assert.equal(await page.getByTestId("user-card").filter({ hasText: /^bot/ }).count(), 0);
    await page.context().close();
  });
}

test("contacts at 375 px: the drawer collapses and dialogs go full screen", async () => {
  await admin.put("/settings/darkMode", { value: "disabled" });
  const page = await newPage(browser, { width: 375, height: 740 });
  await signIn(page);
  await page.goto("/contacts");
  await page.getByTestId("contact-card").first().waitFor();
  await settled(page);
  assert.equal(await page.getByRole("navigation", { name: "menu" }).isVisible(), false, "the drawer starts closed");
  await noSidewaysScroll(page);
  await shot(page, "contacts-375");

  await page.getByRole("button", { name: "Abrir ou fechar o menu" }).click();
  await page.getByRole("navigation", { name: "menu" }).getByRole("link", { name: "Contatos" }).waitFor();
  await settled(page);
  await shot(page, "drawer-375");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Adicionar contato" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await dialog.getByText("Obrigatório", { exact: true }).first().waitFor();
  await settled(page);
  const box = await page.locator(".MuiDialog-paper").boundingBox();
  assert.equal(Math.round(box.width), 375, "the dialog is full width");
  await shot(page, "contact-dialog-375");
  await page.context().close();
});
