import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, signIn } from "../lib/browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await (await api()).put("/settings/darkMode", { value: "disabled" });
  await browser?.close();
});

test("switching the language translates the shell and the choice survives a reload", async () => {
  const page = await newPage(browser);
  await signIn(page);
  await page.goto("/contacts");
  await page.getByRole("heading", { name: "Contatos" }).waitFor();
  await page.getByRole("button", { name: "Idioma" }).click();
  await page.getByRole("menuitem", { name: "English" }).click();
  await page.getByRole("heading", { name: "Contacts" }).waitFor();
  await page.getByRole("navigation", { name: "menu" }).getByRole("link", { name: "Quick answers" }).waitFor();

  await page.reload();
  await page.getByRole("heading", { name: "Contacts" }).waitFor();

  await page.getByRole("button", { name: "Language" }).click();
  await page.getByRole("menuitem", { name: "Español" }).click();
  await page.getByRole("heading", { name: "Contactos" }).waitFor();

  await page.getByRole("button", { name: "Idioma" }).click();
  await page.getByRole("menuitem", { name: "Português (Brasil)" }).click();
  await page.getByRole("heading", { name: "Contatos" }).waitFor();
  await page.context().close();
});

test("a browser in another language gets English, unless Brazilian Portuguese was chosen", async () => {
  const page = await newPage(browser, { locale: "de-DE" });
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  await page.evaluate(() => localStorage.setItem("i18nextLng", "pt-BR"));
  await page.reload();
  await page.getByRole("button", { name: "Entrar" }).waitFor();
  await page.context().close();
});

test("the dark-mode switch turns the theme dark for everyone, live", async () => {
  const page = await newPage(browser);
  await signIn(page);
  const other = await newPage(browser);
  await signIn(other);
  const background = (p) => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background(page);

  await page.getByRole("button", { name: "Tema escuro" }).click();
  await page.getByRole("button", { name: "Tema claro" }).waitFor();
  await page.waitForFunction((before) => getComputedStyle(document.body).backgroundColor !== before, light);
  assert.equal(await background(page), "rgb(18, 18, 18)");
  // the other session hears the settings event
  await other.waitForFunction(() => getComputedStyle(document.body).backgroundColor === "rgb(18, 18, 18)");

  await page.getByRole("button", { name: "Tema claro" }).click();
  await page.waitForFunction((before) => getComputedStyle(document.body).backgroundColor === before, light);
  await page.context().close();
  await other.context().close();
});

test("the volume slider is stored locally", async () => {
  const page = await newPage(browser);
  await signIn(page);
  const slider = page.getByRole("slider", { name: "Volume das notificações" }).first();
  assert.equal(await slider.getAttribute("aria-valuenow"), "1");
  await slider.focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.evaluate(() => localStorage.getItem("volume")), "0.8");
  await page.reload();
  assert.equal(await page.getByRole("slider", { name: "Volume das notificações" }).first().getAttribute("aria-valuenow"), "0.8");
  await page.context().close();
});
