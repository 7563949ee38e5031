// The settings screen: the server-checked gate ('Acesso restrito'), a login logo seen on the login
// page of another browser, the top bar colour live in another signed-in page, dark mode, the
// finance frames from financeBaseUrl; screenshots of every section in both themes at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, BASE, launch, newPage, settled, shot, signIn, toast, within } from "../lib/browser.mjs";
import { solidPng } from "../lib/png.mjs";

const PASSWORD = "cofre-e2e-42";
const SECTIONS = ["pix", "witnesses", "integration", "selfService", "mail", "logos", "colors", "texts", "retention", "access"];
let browser;

/** The admin's API calls, with the settings token once the password exists. */
async function adminApi() {
  const login = await (
    await fetch(`${BASE}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })
  ).json();
  const call = async (method, path, body, settingsToken) => {
    const res = await fetch(`${BASE}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${login.token}`,
        accept: "application/json",
        ...(body && { "content-type": "application/json" }),
        ...(settingsToken && { "x-settings-token": settingsToken }),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
  return call;
}

async function unlockedPage(page) {
  await page.goto("/Settings");
  await page.getByText("Acesso restrito").waitFor();
  await page.getByTestId("settings-password").fill(PASSWORD);
  await page.getByTestId("settings-enter").click();
  await page.getByTestId("section-pix").waitFor();
}

before(async () => {
  browser = await launch();
});
after(async () => {
  // leave the server as other specs expect it: defaults, and no settings password
  const call = await adminApi();
  const unlock = await call("POST", "/settings/unlock", { password: PASSWORD });
  const token = unlock.body?.settingsToken;
  for (const [key, value] of [
    ["topbarColor", "#001f3f"],
    ["darkMode", "disabled"],
    ["logoLogin", ""],
    ["logoDashboard", ""],
    ["favicon", ""],
    ["contrato_cpf1", ""],
    ["financeBaseUrl", ""],
    ["selfServiceAskDocument", "Para consultar seus dados, envie o CPF ou CNPJ do titular (só os números)."],
    ["settingsPassword", ""],
  ])
    await call("PUT", `/settings/${key}`, { value }, token);
  await browser?.close();
});

test("the first admin creates the settings password; a wrong one is refused with 'Senha incorreta!'; the right one opens the screen", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/Settings");
  await page.getByText("Acesso restrito").waitFor();
  await page.getByTestId("settings-password").fill(PASSWORD);
  await page.getByTestId("settings-password-confirm").fill(PASSWORD);
  await page.getByTestId("settings-enter").click();
  for (const id of SECTIONS) await page.getByTestId(`section-${id}`).waitFor();

  // without the token the server refuses changes
  const call = await adminApi();
  const locked = await call("PUT", "/settings/topbarColor", { value: "#123456" });
  assert.deepEqual(locked, { status: 403, body: { error: "ERR_SETTINGS_LOCKED" } });

  await page.getByTestId("settings-lock").click();
  await page.getByTestId("settings-password").fill("senha-errada");
  await page.getByTestId("settings-enter").click();
  await page.getByTestId("settings-gate-error").getByText("Senha incorreta!").waitFor();
  await toast(page, "Senha incorreta!").waitFor();
  await page.getByTestId("settings-password").fill(PASSWORD);
  await page.getByTestId("settings-enter").click();
  await page.getByTestId("section-pix").waitFor();

  // changing the password locks the screen; the old one no longer opens it
  for (const [from, to] of [
    [PASSWORD, `${PASSWORD}-novo`],
    [`${PASSWORD}-novo`, PASSWORD],
  ]) {
    await page.getByTestId("field-settingsPassword").fill(to);
    await page.getByTestId("save-access").click();
    await page.getByText("Acesso restrito").waitFor();
    await page.getByTestId("settings-password").fill(from);
    await page.getByTestId("settings-enter").click();
    await page.getByTestId("settings-gate-error").waitFor();
    await page.getByTestId("settings-password").fill(to);
    await page.getByTestId("settings-enter").click();
    await page.getByTestId("section-access").waitFor();
  }
  await page.context().close();
});

test("a login logo uploaded here is on the login page of another browser", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await unlockedPage(page);
  await page
    .getByTestId("upload-logoLogin")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: solidPng(120, 40, [200, 30, 60]) });
  const img = page.getByTestId("image-logoLogin").locator("img");
  await img.waitFor();
  const src = await img.getAttribute("src");
  assert.match(src, /^\/branding\/[a-f0-9]{32}\.png$/);

  const visitor = await newPage(browser);
  await visitor.goto("/login");
  const logo = visitor.locator(`img[src="${src}"]`);
  await logo.waitFor();
  await visitor.waitForFunction((s) => {
    const el = document.querySelector(`img[src="${s}"]`);
    return el?.complete && el.naturalWidth === 120;
  }, src);
  await visitor.context().close();

  // a text file named .png: 'Upload falhou'
  await page
    .getByTestId("upload-logoDashboard")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("não é imagem\n".repeat(20)) });
  await toast(page, "Upload falhou").waitFor();

  // witness CPF: shown 000.000.000-00, check digits verified before saving
  await page.getByTestId("field-contrato_cpf1").fill("52998224724");
  assert.equal(await page.getByTestId("field-contrato_cpf1").inputValue(), "529.982.247-24");
  await page.getByTestId("save-witnesses").click();
  await page.getByTestId("section-witnesses").getByText("CPF inválido").waitFor();
  await page.getByTestId("field-contrato_cpf1").fill("52998224725");
  await page.getByTestId("save-witnesses").click();
  await toast(page, "Configurações salvas.").waitFor();

  // PIX on without its URL: 'URL vazia', nothing saved
  await page.getByTestId("field-pix").check();
  await page.getByTestId("save-pix").click();
  await toast(page, "URL vazia").waitFor();
  await page.context().close();
});

test("the top bar colour changes live in another signed-in page; dark mode switches everyone", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  const other = await newPage(browser);
  await signIn(other);
  await other.goto("/contacts");
  await unlockedPage(page);

  const colors = page.getByTestId("section-colors");
  await colors.scrollIntoViewIfNeeded();
  await page.getByTestId("field-topbarColor").fill("#f5f5a0");
  await page.getByTestId("contrast-warning").first().waitFor(); // white text on pale yellow
  await page.getByTestId("field-topbarColor").fill("#8b1e3f");
  await page.getByTestId("save-colors").click();
  await toast(page, "Configurações salvas.").waitFor();
  await other.waitForFunction(() => getComputedStyle(document.querySelector("header")).backgroundColor === "rgb(139, 30, 63)");

  await page.getByTestId("field-darkMode").check();
  await page.getByTestId("save-colors").click();
  await other.waitForFunction(() => getComputedStyle(document.body).backgroundColor === "rgb(18, 18, 18)");
  await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor === "rgb(18, 18, 18)");
  await page.getByTestId("field-darkMode").uncheck();
  await page.getByTestId("save-colors").click();
  await other.waitForFunction(() => getComputedStyle(document.body).backgroundColor !== "rgb(18, 18, 18)");

  // the top bar's logo and the tab's icon follow at once too
  await page
    .getByTestId("upload-logoDashboard")
    .setInputFiles({ name: "topo.png", mimeType: "image/png", buffer: solidPng(64, 64, [20, 160, 90]) });
  await page
    .getByTestId("upload-favicon")
    .setInputFiles({ name: "icone.png", mimeType: "image/png", buffer: solidPng(32, 32, [250, 120, 0]) });
  await other.waitForFunction(() =>
    /^\/branding\/[a-f0-9]{32}\.png$/.test(document.querySelector("header img")?.getAttribute("src") ?? ""),
  );
  await other.waitForFunction(() => /\/branding\/[a-f0-9]{32}\.png$/.test(document.querySelector("link[rel~='icon']")?.href ?? ""));
  await page.context().close();
  await other.context().close();
});

test("the self-service bot's words are the provider's: edited in 'Autoatendimento no WhatsApp', saved for the bot", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await unlockedPage(page);
  const section = page.getByTestId("section-selfService");
  await section.scrollIntoViewIfNeeded();
  await section.getByText("Autoatendimento no WhatsApp").waitFor();
  // the variables each text takes are listed under it
  await section.getByText(/\{name\}: primeiro nome do cliente/).waitFor();
  const field = page.getByTestId("field-selfServiceAskDocument");
  assert.match(await field.inputValue(), /envie o CPF ou CNPJ/);
  await field.fill("Oi! Me manda o CPF ou CNPJ do titular, só números, por favor.");
  await page.getByTestId("save-selfService").click();
  await toast(page, "Configurações salvas.").waitFor();
  const call = await adminApi();
  const settings = await call("GET", "/settings");
  const saved = settings.body.find((s) => s.key === "selfServiceAskDocument");
  assert.equal(saved?.value, "Oi! Me manda o CPF ou CNPJ do titular, só números, por favor.");
  await page.context().close();
});

test("LGPD retention: the audit log's and the media files' days are set in 'Privacidade e retenção (LGPD)'", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await unlockedPage(page);
  const section = page.getByTestId("section-retention");
  await section.scrollIntoViewIfNeeded();
  await section.getByText("Privacidade e retenção (LGPD)").waitFor();
  assert.equal(await page.getByTestId("field-auditRetentionDays").inputValue(), "365");
  assert.equal(await page.getByTestId("field-mediaRetentionDays").inputValue(), "0");
  await section.getByText(/0 mantém tudo/).waitFor();
  await page.getByTestId("field-mediaRetentionDays").fill("180");
  await page.getByTestId("save-retention").click();
  await toast(page, "Configurações salvas.").waitFor();
  const call = await adminApi();
  const settings = (await call("GET", "/settings")).body;
  assert.equal(settings.find((s) => s.key === "mediaRetentionDays")?.value, "180");
  assert.equal(settings.find((s) => s.key === "auditRetentionDays")?.value, "365");
  // back to keeping everything (0), from the form too
  await page.getByTestId("field-mediaRetentionDays").fill("0");
  await page.getByTestId("save-retention").click();
  await within(
    (async () => {
      while ((await call("GET", "/settings")).body.find((s) => s.key === "mediaRetentionDays")?.value !== "0")
        await new Promise((r) => setTimeout(r, 50));
    })(),
    10_000,
    "mediaRetentionDays back to 0",
  );
  await page.context().close();
});

test("finance pages explain what to configure, then open financeBaseUrl in a sandboxed frame", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/Pix");
  await page.getByTestId("finance-not-configured").getByText("Configurações → Integração").waitFor();
  await unlockedPage(page);
  await page.getByTestId("field-financeBaseUrl").fill("https://financeiro.example.com/app");
  await page.getByTestId("save-integration").click();
  await toast(page, "Configurações salvas.").waitFor();
  const csp = (await fetch(`${BASE}/colors`)).headers.get("content-security-policy");
  assert.match(csp, /frame-src 'self' blob: https:\/\/financeiro\.example\.com;/);
  await page.goto("/Pix");
  const frame = page.locator("iframe");
  await frame.waitFor({ state: "attached" });
  assert.match(await frame.getAttribute("src"), /^https:\/\/financeiro\.example\.com\/app\/listarPix\?id=\d+$/);
  assert.equal(
    await frame.getAttribute("sandbox"),
    "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads",
  );
  await page.context().close();
});

test("at 375 px no label of the settings screen is cut, in Portuguese, English and Spanish", async () => {
  const page = await newPage(browser, { width: 375, height: 812 });
  await signIn(page);
  for (const lang of ["pt-BR", "en", "es"]) {
    await page.evaluate((l) => localStorage.setItem("i18nextLng", l), lang);
    await page.goto("/Settings");
    // unlocked once, the screen stays open for a while
    await page.getByTestId("settings-password").or(page.getByTestId("section-pix")).first().waitFor();
    if (await page.getByTestId("settings-password").isVisible()) {
      await page.getByTestId("settings-password").fill(PASSWORD);
      await page.getByTestId("settings-enter").click();
    }
    await page.getByTestId("section-pix").waitFor();
    await settled(page);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll("main label, main legend span")]
        .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent),
    );
    assert.deepEqual(cut, [], `${lang}: labels cut at 375 px`);
  }
  await page.context().close();
});

test("'Testar conexão' and 'Enviar e-mail de teste' test what the form holds and say in Portuguese what failed, the detail second", async () => {
  const call = await adminApi();
  for (const theme of ["light", "dark"]) {
    await call("PUT", "/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width < 600 ? 2200 : 1800 });
      await signIn(page);
      await unlockedPage(page);
      const integration = page.getByTestId("section-integration");
      await integration.scrollIntoViewIfNeeded();
      // nothing saved: the test sends what is typed (a port where nothing listens)
      await page.getByTestId("field-integrationUrl").fill("http://127.0.0.1:1");
      await page.getByTestId("field-integrationApp").fill("balcao");
      await page.getByTestId("field-integrationToken").fill("token-digitado");
      const sent = page.waitForRequest((r) => r.url().endsWith("/billing/test") && r.method() === "POST");
      await page.getByTestId("test-integration").click();
      assert.deepEqual((await sent).postDataJSON(), { system: "SGP", url: "http://127.0.0.1:1", app: "balcao", token: "token-digitado" });
      const billing = page.getByTestId("test-integration-result");
      await billing.getByText("SGP: Não foi possível conectar a 127.0.0.1:1. Confira a URL e a porta", { exact: false }).waitFor();
      assert.match(await page.getByTestId("test-integration-result-technical").textContent(), /^Detalhe técnico: ERR_OUTGOING_UNREACHABLE/);
      assert.doesNotMatch(await billing.textContent(), /ECONNREFUSED/);
      await settled(page);
      await integration.screenshot({ path: `${import.meta.dirname}/../screenshots/settings-integration-test-${theme}-${width}.png` });

      const mail = page.getByTestId("section-mail");
      await mail.scrollIntoViewIfNeeded();
      await page.getByTestId("field-mail_host").fill("127.0.0.1");
      await page.getByTestId("field-mail_port").fill("1");
      const mailSent = page.waitForRequest((r) => r.url().endsWith("/email/test") && r.method() === "POST");
      await page.getByTestId("send-test-mail").click();
      const body = (await mailSent).postDataJSON();
      assert.equal(body.mail_host, "127.0.0.1");
      assert.equal(body.mail_port, "1");
      const result = page.getByTestId("test-mail-result");
      await result.getByText("Falhou: O servidor 127.0.0.1 recusou a conexão na porta 1.", { exact: false }).waitFor();
      assert.match(await page.getByTestId("test-mail-result-technical").textContent(), /^Detalhe técnico: .*ECONNREFUSED/);
      await settled(page);
      await mail.screenshot({ path: `${import.meta.dirname}/../screenshots/settings-mail-test-${theme}-${width}.png` });
      await page.context().close();
    }
  }
  await call("PUT", "/settings/darkMode", { value: "disabled" });
  // nothing was saved by testing
  const settings = (await call("GET", "/settings")).body;
  assert.equal(settings.find((s) => s.key === "integrationUrl")?.value ?? "", "");
});

test("screenshots of every section, light and dark, 1366 and 375 px", async () => {
  const call = await adminApi();
  for (const theme of ["light", "dark"]) {
    await call("PUT", "/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      // tall enough that no section is cut by the page's scroll area
      const page = await newPage(browser, { width, height: width < 600 ? 2200 : 1800 });
      await signIn(page);
      await unlockedPage(page);
      await settled(page);
      for (const id of SECTIONS) {
        const section = page.getByTestId(`section-${id}`);
        await section.scrollIntoViewIfNeeded();
        await section.screenshot({ path: `${import.meta.dirname}/../screenshots/settings-${id}-${theme}-${width}.png` });
      }
      await page.getByTestId("settings-lock").click();
      await page.getByText("Acesso restrito").waitFor();
      await page.setViewportSize({ width, height: width < 600 ? 812 : 800 });
      await shot(page, `settings-gate-${theme}-${width}`);
      await page.context().close();
    }
  }
  await call("PUT", "/settings/darkMode", { value: "disabled" });
});
