import { after, before, test } from "node:test";
import { launch, newPage, signIn, toast } from "../lib/browser.mjs";

let browser;
let page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await signIn(page);
  await page.goto("/quickAnswers");
  await page.getByRole("heading", { name: "Respostas rápidas" }).waitFor();
});
after(() => browser?.close());

const dialog = () => page.getByRole("dialog");
const card = (name) => page.getByTestId("quick-answer-card").filter({ hasText: name });

test("create, edit and delete a quick answer; a short message shows 'Too Short!'", async () => {
  const shortcut = `bomdia${Date.now() % 100000}`;
  await page.getByRole("button", { name: "Adicionar resposta" }).click();
  await dialog().getByLabel("Atalho").fill(shortcut);
  await dialog().getByLabel("Mensagem").fill("Oi");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await dialog().getByText("Too Short!").waitFor();

  await dialog().getByLabel("Mensagem").fill("Bom dia! Como posso ajudar?");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Resposta rápida salva com sucesso").waitFor();
  await card(`/${shortcut}`).waitFor();

  await card(`/${shortcut}`)
    .getByRole("button", { name: `Editar /${shortcut}` })
    .click();
  await dialog().getByLabel("Mensagem").fill("Bom dia! Em que posso ajudar hoje?");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Resposta rápida salva com sucesso").waitFor();
  await card(`/${shortcut}`).getByText("Em que posso ajudar hoje?").waitFor();

  await card(`/${shortcut}`)
    .getByRole("button", { name: `Excluir /${shortcut}` })
    .click();
  await dialog().getByRole("button", { name: "Excluir" }).click();
  await toast(page, "Resposta rápida excluída com sucesso").waitFor();
  await card(`/${shortcut}`).waitFor({ state: "detached" });
});
