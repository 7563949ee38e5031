// "Meu perfil" (issue 53, item 3): an agent opens it from the name in the top bar, changes the name
// (the top bar follows), the language and the theme (both at once after saving, and again at the next
// sign-in), then the password (the other session ends, this one goes on). Screenshots light and dark
// at 1366 and 375 px land in e2e/screenshots/.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn, toast, unique } from "../lib/browser.mjs";

let browser;
const agent = { name: unique("Agente Perfil"), email: `perfil-${Date.now()}@example.com`, password: "perfil-1" };

before(async () => {
  browser = await launch();
  await (await api()).post("/users", { ...agent, profile: "user", queueIds: [] });
});
after(async () => {
  await browser?.close();
});

const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const DARK = "rgb(18, 18, 18)";

async function noSidewaysScroll(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
}

/** Opens "Meu perfil" from the user's menu of the top bar (the name on wide screens, an icon on phones). */
async function openProfile(page, name) {
  await page.getByTestId("user-menu-button").click();
  await page.getByRole("menuitem", { name: "Meu perfil" }).click();
  await page.waitForURL("**/profile");
  await page.getByRole("heading", { name: "Meu perfil" }).waitFor();
  // the form takes the profile once it is read
  await page.waitForFunction((n) => document.querySelector('input[name="name"]')?.value === n, name);
}

/** Saves the form, the pointer then moved off the toasts (a toast under the pointer stays). */
async function save(page, label = "Salvar") {
  await page.getByRole("button", { name: label }).click();
  await page.mouse.move(5, 300);
}

/** A screenshot of the screen's top (the title and the first fields), once the toasts are gone and nothing moves. */
async function shotTop(page, name, heading = "Meu perfil") {
  await page.waitForFunction(() => !document.querySelector("#notistack-snackbar"), null, { timeout: 12_000 });
  await page.getByRole("heading", { name: heading }).evaluate((h) => h.scrollIntoView({ block: "end" }));
  await settled(page);
  await shot(page, name);
}

async function choose(page, label, option) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option }).click();
}

let wide;

test("from the top bar: a new name shows in the top bar; the theme and the language apply on saving", async () => {
  wide = await newPage(browser, { width: 1366, height: 900 });
  await signIn(wide, agent);
  const button = wide.getByRole("button", { name: `Conta de ${agent.name}` });
  assert.equal(await wide.getByTestId("topbar-user-name").textContent(), agent.name);
  await button.click();
  await wide.getByRole("menuitem", { name: "Sair" }).waitFor();
  await wide.keyboard.press("Escape");
  await openProfile(wide, agent.name);
  assert.equal(await background(wide), "rgb(244, 245, 249)", "the installation's light theme");

  agent.name = `${agent.name} Silva`;
  await wide.getByLabel("Nome").fill(agent.name);
  await save(wide);
  await toast(wide, "Perfil salvo.").waitFor();
  await wide.getByTestId("topbar-user-name").filter({ hasText: agent.name }).waitFor();
  await wide.getByRole("button", { name: `Conta de ${agent.name}` }).waitFor();
  await shotTop(wide, "profile-1366-light");

  await choose(wide, "Tema", "Escuro");
  await save(wide);
  await wide.waitForFunction((dark) => getComputedStyle(document.body).backgroundColor === dark, DARK);
  await shotTop(wide, "profile-1366-dark");

  // the language, at once; kept on the account
  await choose(wide, "Idioma", "Español");
  await save(wide);
  await wide.getByRole("heading", { name: "Mi perfil" }).waitFor();
  await toast(wide, "Perfil guardado.").waitFor();

  // nothing else of the account moved, and the server has it all
  const saved = await wide.evaluate(async () => {
    const res = await fetch("/profile", {
      headers: { authorization: `Bearer ${localStorage.getItem("token")}`, accept: "application/json" },
    });
    return res.json();
  });
  assert.deepEqual(
    { name: saved.name, profile: saved.profile, theme: saved.theme, language: saved.language, email: saved.email },
    { name: agent.name, profile: "user", theme: "dark", language: "es", email: agent.email },
  );
});

test("at 375 px: the next sign-in has the account's language and theme; a new password ends the other session", async () => {
  const phone = await newPage(browser, { width: 375, height: 812 });
  await signIn(phone, agent);
  // the account's theme and language, on a device that never chose either
  await phone.waitForFunction((dark) => getComputedStyle(document.body).backgroundColor === dark, DARK);
  await phone.getByTestId("user-menu-button").click();
  await phone.getByRole("menuitem", { name: "Mi perfil" }).waitFor();
  await settled(phone);
  await shot(phone, "profile-menu-375-dark");
  await phone.getByRole("menuitem", { name: "Mi perfil" }).click();
  await phone.waitForURL("**/profile");
  await phone.getByRole("heading", { name: "Mi perfil" }).waitFor();

  await choose(phone, "Idioma", "Português (Brasil)");
  await save(phone, "Guardar");
  await phone.getByRole("heading", { name: "Meu perfil" }).waitFor();
  await noSidewaysScroll(phone);
  await shotTop(phone, "profile-375-dark");
  await phone.getByRole("button", { name: "Salvar" }).scrollIntoViewIfNeeded();
  await settled(phone);
  await shot(phone, "profile-375-dark-bottom");

  await choose(phone, "Tema", /^Padrão da instalação/);
  await save(phone);
  await phone.waitForFunction((dark) => getComputedStyle(document.body).backgroundColor !== dark, DARK);
  await noSidewaysScroll(phone);
  await shotTop(phone, "profile-375-light");
  await phone.getByRole("button", { name: "Salvar" }).scrollIntoViewIfNeeded();
  await settled(phone);
  await shot(phone, "profile-375-light-bottom");

  // a wrong current password: said under the field, nothing changes
  await phone.getByLabel("Senha atual").fill("errada");
  await phone.getByLabel("Nova senha", { exact: true }).fill("perfil-2");
  await phone.getByLabel("Confirmar nova senha").fill("perfil-2");
  await save(phone);
  await phone.getByText("A senha atual não confere.").first().waitFor();

  await phone.getByLabel("Senha atual").fill(agent.password);
  await save(phone);
  await toast(phone, "Senha alterada. As suas outras sessões foram encerradas.").waitFor();
  assert.equal(await phone.getByLabel("Senha atual").inputValue(), "", "the password fields are emptied");
  agent.password = "perfil-2";

  // this device goes on, without a reload and after one; the other session is over
  await phone.evaluate(() => {
    history.pushState({}, "", "/contacts");
    dispatchEvent(new PopStateEvent("popstate"));
  });
  await phone.getByRole("heading", { name: "Contatos" }).waitFor();
  await phone.locator('[aria-busy="false"]').first().waitFor();
  assert.equal(new URL(phone.url()).pathname, "/contacts");
  await phone.reload();
  await phone.getByRole("heading", { name: "Contatos" }).waitFor();
  assert.equal(new URL(phone.url()).pathname, "/contacts");
  await wide.evaluate(() => localStorage.setItem("i18nextLng", "pt-BR"));
  await wide.reload();
  await wide.waitForURL("**/login");
  await signIn(wide, agent);
  await wide.context().close();
  await phone.context().close();
});
