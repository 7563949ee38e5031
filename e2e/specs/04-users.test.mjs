import assert from "node:assert/strict";
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
  // the profiles in Portuguese, each saying what it may do
  assert.match(await dialog().getByTestId("profile-help").textContent(), /^Atende os clientes dos seus setores/);
  await dialog().getByLabel("Perfil").click();
  for (const [profile, does] of [
    ["Administrador", "Tudo: usuários, setores, conexões"],
    ["Supervisor", "Vê e age em todos os atendimentos"],
    ["Atendente", "Atende os clientes dos seus setores"],
  ]) {
    await page.getByRole("option", { name: profile }).filter({ hasText: does }).waitFor();
  }
  await page.getByRole("option", { name: /^Supervisor/ }).click();
  assert.equal(await dialog().getByLabel("Perfil").textContent(), "Supervisor");
  assert.match(await dialog().getByTestId("profile-help").textContent(), /^Vê e age em todos os atendimentos/);
  await screen.save("Usuário salvo com sucesso");
  await card(name).getByText("Supervisor", { exact: true }).waitFor();

  await screen.edit(name);
  const renamed = `${name} Lima`;
  await dialog().getByLabel("Nome").fill(renamed);
  await screen.save("Usuário salvo com sucesso");
  await card(renamed).waitFor();

  await screen.remove(renamed, "Usuário excluído com sucesso");
});
