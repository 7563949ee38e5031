import { after, before, test } from "node:test";
import { launch, newPage, signIn, toast, unique } from "../lib/browser.mjs";

let browser;
let page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await signIn(page);
  await page.goto("/queues");
  await page.getByRole("heading", { name: "Setores" }).waitFor();
});
after(() => browser?.close());

const dialog = () => page.getByRole("dialog");
const card = (name) => page.getByTestId("queue-card").filter({ hasText: name });

test("create, edit and delete a queue; an empty name shows 'Obrigatório*'", async () => {
  await page.getByRole("button", { name: "Adicionar setor" }).click();
  await dialog().getByRole("option", { name: "#43a047" }).click();
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await dialog().getByText("Obrigatório*").waitFor();

  const name = unique("Financeiro");
  await dialog().getByLabel("Nome").fill(name);
  await dialog().getByLabel("Mensagem de saudação").fill("Olá! Você está no financeiro.");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Setor salvo com sucesso").waitFor();
  await card(name).getByText("#43a047").waitFor();

  await card(name)
    .getByRole("button", { name: `Editar ${name}` })
    .click();
  await dialog().getByRole("textbox", { name: "Cor", exact: true }).fill("#1e88e5");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Setor salvo com sucesso").waitFor();
  await card(name).getByText("#1e88e5").waitFor();

  await card(name)
    .getByRole("button", { name: `Excluir ${name}` })
    .click();
  await dialog().getByRole("button", { name: "Excluir" }).click();
  await toast(page, "Setor excluído com sucesso").waitFor();
  await card(name).waitFor({ state: "detached" });
});
