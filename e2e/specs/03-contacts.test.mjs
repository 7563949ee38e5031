import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { api, launch, newPage, signIn, toast, unique } from "../lib/browser.mjs";

let browser;
let page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await signIn(page);
  await page.goto("/contacts");
  await page.getByRole("heading", { name: "Contatos" }).waitFor();
});
after(() => browser?.close());

const dialog = () => page.getByRole("dialog");
const card = (name) => page.getByTestId("contact-card").filter({ hasText: name });

test("create a contact: a too-short name is refused with 'Too Short!', then it saves", async () => {
  await page.getByRole("button", { name: "Adicionar contato" }).click();
  await dialog().getByLabel("Nome").fill("A");
  await dialog().getByLabel("Número").fill("5511987650001");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await dialog().getByText("Too Short!").waitFor();

  const name = `Maria ${Date.now() % 100000} Souza`;
  await dialog().getByLabel("Nome").fill(name);
  await dialog().getByRole("button", { name: "Adicionar informação" }).click();
  await dialog().getByLabel("Nome do campo").fill("Plano");
  await dialog().getByLabel("Valor").fill("300 Mega");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Contato salvo com sucesso").waitFor();
  await dialog().waitFor({ state: "detached" });
  await card(name).waitFor();
  assert.equal((await card(name).locator(".MuiAvatar-root").textContent())?.trim(), "MS");
});

test("edit a contact", async () => {
  const name = unique("Editar");
  const a = await api();
  await a.post("/contacts", { name, number: "5511987650002" });
  await card(name).waitFor(); // arrives through the socket
  await card(name)
    .getByRole("button", { name: `Editar ${name}` })
    .click();
  const renamed = `${name} Silva`;
  await dialog().getByLabel("Nome").fill(renamed);
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Contato salvo com sucesso").waitFor();
  await card(renamed).waitFor();
});

test("delete a contact behind a confirmation", async () => {
  const name = unique("Apagar");
  const a = await api();
  await a.post("/contacts", { name, number: "5511987650003" });
  await card(name).waitFor();
  await card(name)
    .getByRole("button", { name: `Excluir ${name}` })
    .click();
  await dialog().getByRole("button", { name: "Excluir" }).click();
  await toast(page, "Contato excluído com sucesso").waitFor();
  await card(name).waitFor({ state: "detached" });
});

test("search starts at 3 characters", async () => {
  const word = `zeb${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
  const name = `Zebedeu ${word}`;
  const a = await api();
  await a.post("/contacts", { name, number: "5511987650004" });
  await card(name).waitFor();
  const search = page.getByRole("searchbox", { name: /Pesquisar/ });
  await search.fill("Ze");
  // two characters do not filter: other contacts stay
  await page.waitForTimeout(800);
  assert.ok((await page.getByTestId("contact-card").count()) > 1);
  await search.fill(word);
  await page.getByTestId("contact-card").first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="contact-card"]').length === 1);
  await search.fill("");
});

test("import contacts from a CSV file shows the per-row report", async () => {
  const file = join(tmpdir(), `contacts-${Date.now()}.csv`);
  writeFileSync(
    file,
    "nome,numero,email\nJoão Importado,5521999990001,joao@example.com\nAna Importada,5521999990002,\nSem Número,,x@example.com\n",
  );
  await page.getByRole("button", { name: "Importar" }).click();
  await dialog().getByTestId("import-file").setInputFiles(file);
  await dialog().getByRole("button", { name: "Importar" }).click();
  const summary = dialog().getByTestId("import-summary");
  await summary.waitFor();
  assert.match(await summary.textContent(), /3 linha\(s\): 2 criado\(s\)/);
  await dialog().getByRole("cell", { name: "João Importado" }).waitFor();
  await dialog().getByText("Erro", { exact: true }).waitFor();
  await dialog().getByRole("button", { name: "Fechar" }).click();
  await card("João Importado").waitFor();
});

test("delete all contacts behind a confirmation", async () => {
  await page.getByRole("button", { name: "Excluir todos" }).click();
  await dialog().getByText("Excluir todos os contatos?").waitFor();
  await dialog().getByRole("button", { name: "Excluir todos" }).click();
  await toast(page, "Todos os contatos foram excluídos").waitFor();
  await page.getByTestId("empty-state").waitFor();
});
