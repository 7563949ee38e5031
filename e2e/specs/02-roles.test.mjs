import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, signIn, unique } from "../lib/browser.mjs";

let browser;
const agent = { email: `agent-${Date.now()}@balcao.local`, password: "agent123" };
before(async () => {
  browser = await launch();
  const admin = await api();
  await admin.post("/users", { name: unique("Agente"), email: agent.email, password: agent.password, profile: "user", queueIds: [] });
});
after(() => browser?.close());

test("an agent sees only the common drawer items and is sent from /users to /tickets", async () => {
  const page = await newPage(browser);
  await signIn(page, agent);
  const nav = page.getByRole("navigation", { name: "menu" });
  for (const label of ["Atendimentos", "Contatos", "Respostas rápidas"]) await nav.getByRole("link", { name: label }).waitFor();
  for (const label of ["Usuários", "Setores", "Dashboard", "Conexões", "Configurações", "Disparos", "Agendamentos", "Chatbot"]) {
    assert.equal(await nav.getByRole("link", { name: label }).count(), 0, `${label} must be hidden`);
  }
  // admin-only: deleting contacts and the dark-mode switch are not offered
  await page.goto("/contacts");
  await page.getByRole("heading", { name: "Contatos" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Excluir todos" }).count(), 0);
  assert.equal(await page.getByRole("button", { name: "Tema escuro" }).count(), 0);

  for (const path of ["/users", "/queues", "/Settings", "/connections"]) {
    await page.goto(path);
    await page.waitForURL("**/tickets");
  }
  await page.context().close();
});

test("an admin sees the admin items", async () => {
  const page = await newPage(browser);
  await signIn(page);
  const nav = page.getByRole("navigation", { name: "menu" });
  for (const label of ["Dashboard", "Usuários", "Setores", "Chatbot", "Disparos", "Agendamentos", "Conexões", "Configurações"]) {
    await nav.getByRole("link", { name: label }).waitFor();
  }
  // contracts only when enableContract is enabled
  assert.equal(await nav.getByRole("link", { name: "Contratos" }).count(), 0);
  const admin = await api();
  await admin.put("/settings/enableContract", { value: "enabled" });
  await nav.getByRole("link", { name: "Contratos" }).waitFor(); // live through the settings socket event
  await admin.put("/settings/enableContract", { value: "disabled" });
  await page.context().close();
});
