import { test } from "node:test";
import { unique } from "../lib/browser.mjs";
import { crudScreen } from "../lib/crud.mjs";

const screen = crudScreen({ path: "/users", heading: "Usuários", cardTestId: "user-card" });
const { dialog, card } = screen;

test("create, edit and delete a user; an invalid email shows 'Email inválido'", async () => {
  const { page } = screen;
  const name = unique("Carla Atendente");
  await screen.add("Adicionar usuário");
  await dialog().getByLabel("Nome").fill(name);
  await dialog().getByLabel("Email").fill("carla-at-example");
  await dialog().getByLabel("Senha").fill("segredo1");
  await screen.save();
  await dialog().getByText("Email inválido").waitFor();

  await dialog().getByLabel("Email").fill(`carla-${Date.now()}@example.com`);
  await dialog().getByLabel("Perfil").click();
  await page.getByRole("option", { name: "Super" }).click();
  await screen.save("Usuário salvo com sucesso");
  await card(name).getByText("Super").waitFor();

  await screen.edit(name);
  const renamed = `${name} Lima`;
  await dialog().getByLabel("Nome").fill(renamed);
  await screen.save("Usuário salvo com sucesso");
  await card(renamed).waitFor();

  await screen.remove(renamed, "Usuário excluído com sucesso");
});
