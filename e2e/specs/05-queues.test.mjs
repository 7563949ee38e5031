import { test } from "node:test";
import { unique } from "../lib/browser.mjs";
import { crudScreen } from "../lib/crud.mjs";

const screen = crudScreen({ path: "/queues", heading: "Setores", cardTestId: "queue-card" });
const { dialog, card } = screen;

test("create, edit and delete a queue; an empty name shows 'Obrigatório*'", async () => {
  await screen.add("Adicionar setor");
  await dialog().getByRole("option", { name: "#43a047" }).click();
  await screen.save();
  await dialog().getByText("Obrigatório*").waitFor();

  const name = unique("Financeiro");
  await dialog().getByLabel("Nome").fill(name);
  await dialog().getByLabel("Mensagem de saudação").fill("Olá! Você está no financeiro.");
  await screen.save("Setor salvo com sucesso");
  await card(name).getByText("#43a047").waitFor();

  await screen.edit(name);
  await dialog().getByRole("textbox", { name: "Cor", exact: true }).fill("#1e88e5");
  await screen.save("Setor salvo com sucesso");
  await card(name).getByText("#1e88e5").waitFor();

  await screen.remove(name, "Setor excluído com sucesso");
});
