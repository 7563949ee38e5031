import { test } from "node:test";
import { crudScreen } from "../lib/crud.mjs";

const screen = crudScreen({ path: "/quickAnswers", heading: "Respostas rápidas", cardTestId: "quick-answer-card" });
const { dialog, card } = screen;

test("create, edit and delete a quick answer; a short message shows 'Muito curto!'", async () => {
  const shortcut = `bomdia${Date.now() % 100000}`;
  await screen.add("Adicionar resposta");
  await dialog().getByLabel("Atalho").fill(shortcut);
  await dialog().getByLabel("Mensagem").fill("Oi");
  await screen.save();
  await dialog().getByText("Muito curto!").waitFor();

  await dialog().getByLabel("Mensagem").fill("Bom dia! Como posso ajudar?");
  await screen.save("Resposta rápida salva com sucesso");
  await card(`/${shortcut}`).waitFor();

  await screen.edit(`/${shortcut}`);
  await dialog().getByLabel("Mensagem").fill("Bom dia! Em que posso ajudar hoje?");
  await screen.save("Resposta rápida salva com sucesso");
  await card(`/${shortcut}`).getByText("Em que posso ajudar hoje?").waitFor();

  await screen.remove(`/${shortcut}`, "Resposta rápida excluída com sucesso");
});
