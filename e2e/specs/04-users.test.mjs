import { after, before, test } from "node:test";
import { launch, newPage, signIn, toast, unique } from "../lib/browser.mjs";

let browser;
let page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await signIn(page);
  await page.goto("/users");
  await page.getByRole("heading", { name: "Usuários" }).waitFor();
});
after(() => browser?.close());

const dialog = () => page.getByRole("dialog");
const card = (name) => page.getByTestId("user-card").filter({ hasText: name });

test("create, edit and delete a user; an invalid email shows 'Invalid email'", async () => {
  const name = unique("Carla Atendente");
  await page.getByRole("button", { name: "Adicionar usuário" }).click();
  await dialog().getByLabel("Nome").fill(name);
  await dialog().getByLabel("Email").fill("carla-at-example");
  await dialog().getByLabel("Senha").fill("segredo1");
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await dialog().getByText("Invalid email").waitFor();

  await dialog().getByLabel("Email").fill(`carla-${Date.now()}@example.com`);
  await dialog().getByLabel("Perfil").click();
  await page.getByRole("option", { name: "Super" }).click();
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Usuário salvo com sucesso").waitFor();
  await card(name).getByText("Super").waitFor();

  await card(name)
    .getByRole("button", { name: `Editar ${name}` })
    .click();
  const renamed = `${name} Lima`;
  await dialog().getByLabel("Nome").fill(renamed);
  await dialog().getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Usuário salvo com sucesso").waitFor();
  await card(renamed).waitFor();

  await card(renamed)
    .getByRole("button", { name: `Excluir ${renamed}` })
    .click();
  await dialog().getByRole("button", { name: "Excluir" }).click();
  await toast(page, "Usuário excluído com sucesso").waitFor();
  await card(renamed).waitFor({ state: "detached" });
});
