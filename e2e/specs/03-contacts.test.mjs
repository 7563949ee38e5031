import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { api, toast, unique } from "../lib/browser.mjs";
import { crudScreen } from "../lib/crud.mjs";

const screen = crudScreen({ path: "/contacts", heading: "Contatos", cardTestId: "contact-card", clock: true });
const { dialog, card } = screen;

test("create a contact: a too-short name is refused with 'Muito curto!' (pt-BR, from the locale files), then it saves", async () => {
  await screen.add("Adicionar contato");
  await dialog().getByLabel("Nome").fill("A");
  await dialog().getByLabel("Número").fill("5511987650001");
  await screen.save();
  await dialog().getByText("Muito curto!").waitFor();

  const name = `Maria ${Date.now() % 100000} Souza`;
  await dialog().getByLabel("Nome").fill(name);
  await dialog().getByRole("button", { name: "Adicionar informação" }).click();
  await dialog().getByLabel("Nome do campo").fill("Plano");
  await dialog().getByLabel("Valor").fill("300 Mega");
  await screen.save("Contato salvo com sucesso");
  await dialog().waitFor({ state: "detached" });
  await card(name).waitFor();
  assert.equal((await card(name).locator(".MuiAvatar-root").textContent())?.trim(), "MS");
});

test("edit a contact", async () => {
  const name = unique("Editar");
  const a = await api();
  await a.post("/contacts", { name, number: "5511987650002" });
  await card(name).waitFor(); // arrives through the socket
  await screen.edit(name);
  const renamed = `${name} Silva`;
  await dialog().getByLabel("Nome").fill(renamed);
  await screen.save("Contato salvo com sucesso");
  await card(renamed).waitFor();
});

test("delete a contact behind a confirmation", async () => {
  const name = unique("Apagar");
  const a = await api();
  await a.post("/contacts", { name, number: "5511987650003" });
  await card(name).waitFor();
  await screen.remove(name, "Contato excluído com sucesso");
});

test("search starts at 3 characters", async () => {
  const { page } = screen;
  const word = `zeb${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
  const name = `Zebedeu ${word}`;
  const a = await api();
  await a.post("/contacts", { name, number: "5511987650004" });
  await card(name).waitFor();
  const search = page.getByRole("searchbox", { name: /Pesquisar/ });
  // two characters do not filter: once the search's debounce (500 ms) has run out, other contacts stay
  await page.clock.pauseAt(Date.now() + 1_000);
  await search.fill("Ze");
  await page.clock.runFor(1_000);
  assert.ok((await page.getByTestId("contact-card").count()) > 1);
  await page.clock.resume();
  await search.fill(word);
  await page.getByTestId("contact-card").first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="contact-card"]').length === 1);
  await search.fill("");
});

test("import contacts from a CSV file shows the per-row report", async () => {
  const { page } = screen;
  const file = join(tmpdir(), `contacts-${Date.now()}.csv`);
  writeFileSync(
    file,
    "nome,numero,email\nJoão Importado,5521999990001,joao@example.com\nAna Importada,5521999990002,\nSem Número,,x@example.com\n",
  );
  await page.getByRole("button", { name: "Importar" }).click();
  await dialog().getByTestId("import-file").setInputFiles(file);
  await dialog().getByRole("button", { name: "Importar", exact: true }).click();
  const summary = dialog().getByTestId("import-summary");
  await summary.waitFor();
  assert.match(await summary.textContent(), /3 linha\(s\): 2 criado\(s\)/);
  await dialog().getByRole("cell", { name: "João Importado" }).waitFor();
  await dialog().getByText("Erro", { exact: true }).waitFor();
  await dialog().getByRole("button", { name: "Fechar" }).click();
  await card("João Importado").waitFor();
});

test("delete all contacts behind a confirmation", async () => {
  const { page } = screen;
  await page.getByRole("button", { name: "Excluir todos" }).click();
  await dialog().getByText("Excluir todos os contatos?").waitFor();
  await dialog().getByRole("button", { name: "Excluir todos" }).click();
  await toast(page, "Todos os contatos foram excluídos").waitFor();
  await page.getByTestId("empty-state").waitFor();
});
