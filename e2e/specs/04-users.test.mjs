import assert from "node:assert/strict";
import { test } from "node:test";
import { api, settled, shot, unique } from "../lib/browser.mjs";
import { crudScreen } from "../lib/crud.mjs";

const screen = crudScreen({ path: "/users", heading: "Usuários", cardTestId: "user-card" });
const { dialog, card } = screen;

test("create, edit and delete a user; an invalid email shows 'E-mail inválido'", async () => {
  const { page } = screen;
  const name = unique("Carla Atendente");
  await screen.add("Adicionar usuário");
  await dialog().getByLabel("Nome").fill(name);
  await dialog().getByLabel("E-mail").fill("carla-at-example");
  await dialog().getByLabel("Senha").fill("segredo1");
  await screen.save();
  await dialog().getByText("E-mail inválido").waitFor();

  await dialog().getByLabel("E-mail").fill(`carla-${Date.now()}@example.com`);
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

test("screenshots: the user dialog with the profiles and what each may do, light and dark, 1366 and 375 px", async () => {
  const { page } = screen;
  const admin = await api();
  try {
    for (const theme of ["light", "dark"]) {
      await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
      for (const width of [1366, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await page.reload();
        await page.getByRole("heading", { name: "Usuários" }).waitFor();
        await screen.add("Adicionar usuário");
        await dialog().getByTestId("profile-help").waitFor();
        await settled(page);
        await shot(page, `users-dialog-${width}-${theme}`);
        await dialog().getByLabel("Perfil").click();
        await page.getByRole("option", { name: /^Supervisor/ }).waitFor();
        await settled(page);
        await shot(page, `users-profiles-${width}-${theme}`);
        await page.keyboard.press("Escape");
        await page.getByRole("listbox").waitFor({ state: "detached" });
        await page.keyboard.press("Escape");
        await dialog().waitFor({ state: "detached" });
      }
    }
  } finally {
    await admin.put("/settings/darkMode", { value: "disabled" });
  }
});
