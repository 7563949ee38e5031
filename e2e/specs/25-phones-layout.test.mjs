// Phones and layout (issue 53, item 8), seen in Chromium: at 375 px the composer's actions are in one
// menu and the text box has the width ('Assinar', the note, the AI in the menu); an internal note turns
// note mode off once sent; at 1366 px the chat header keeps the customer's whole name with Resumo, PIX,
// Contrato and the rest (an overflow menu where the pane is narrower); the incidents' titles wrap by
// words (cards on phones); Configurações jumps to a section with its id in the URL; the not-found page
// leads back to the inbox. Screenshots light and dark at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, api, BASE, launch, newPage, settled, shot, signIn, unique } from "../lib/browser.mjs";
import { pairedSimulator, randomColor, until } from "../lib/conversation.mjs";

const PASSWORD = "layout-e2e-53";
const customer = `5548${String(Date.now() + 53).slice(-9)}`;
const customerName = `Maria Aparecida dos Santos ${unique("").trim()}`;
const LONG_TITLE = "Rompimento de fibra óptica na avenida principal do Centro e do bairro Jardim América após obra da prefeitura";
let browser;
let admin;
let sim;
let ticketId;
let openIncident;

/** The admin's token (the API helper keeps its own). */
async function adminLogin() {
  const r = await fetch(`${BASE}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  return r.json();
}

/** A setting changed while the settings password is set: through the token 'Acesso restrito' gives. */
async function putGated(key, value) {
  const { token } = await adminLogin();
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const unlock = await (
    await fetch(`${BASE}/settings/unlock`, { method: "POST", headers, body: JSON.stringify({ password: PASSWORD }) })
  ).json();
  const res = await fetch(`${BASE}/settings/${key}`, {
    method: "PUT",
    headers: { ...headers, "x-settings-token": unlock.settingsToken },
    body: JSON.stringify({ value }),
  });
  assert.equal(res.status, 200, await res.text());
}

async function theme(dark) {
  await admin.put("/settings/darkMode", { value: dark ? "enabled" : "disabled" });
}

before(async () => {
  browser = await launch();
  admin = await api();
  const { user } = await adminLogin();
  for (const [key, value] of [
    ["pix", "enabled"],
    ["urlPix", "https://pix.example.com/gerar"],
    ["enableContract", "enabled"],
    // AI on (Resumo in the header, Sugerir resposta in the composer): nothing listens there, nothing is asked
    ["aiBaseUrl", "http://127.0.0.1:9/v1"],
    ["aiModel", "gpt-4o-mini"],
    ["aiEnabled", "enabled"],
  ])
    await admin.put(`/settings/${key}`, { value });
  const queue = await admin.post("/queue", { name: unique("Suporte"), color: randomColor(), greetingMessage: "" });
  sim = await pairedSimulator(admin, { name: unique("Fibra Layout"), queueIds: [queue.id] });
  const contact = await admin.post("/contacts", { name: customerName, number: customer });
  ticketId = (
    await admin.post("/tickets", { contactId: contact.id, whatsappId: sim.id, queueId: queue.id, userId: user.id, status: "open" })
  ).id;
  await sim.say(customer, "Boa tarde, minha internet está lenta desde ontem", customerName);
  await until(async () => (await admin.get(`/messages/${ticketId}`)).messages.length > 0, "the customer's message");
});
after(async () => {
  if (openIncident) await admin?.post(`/incidents/${openIncident.id}/close`, {}).catch(() => undefined);
  for (const [key, value] of [
    ["darkMode", "disabled"],
    ["aiEnabled", "disabled"],
    ["pix", "disabled"],
    ["urlPix", ""],
    ["enableContract", "disabled"],
  ])
    await admin?.put(`/settings/${key}`, { value }).catch(() => undefined);
  await browser?.close();
});

async function openChat(width) {
  const page = await newPage(browser, { width, height: width < 600 ? 740 : 800 });
  await signIn(page);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("chat-view").getByTestId("message").first().waitFor();
  await page.getByTestId("message-input").waitFor();
  return page;
}

test("at 375 px the text box has the width, one line of placeholder; Assinar, the note and the AI are in the composer's menu", async () => {
  const page = await openChat(375);
  const input = page.getByTestId("message-input");
  await settled(page);
  const box = await input.boundingBox();
  assert.ok(box.width >= 200, `the text box is ${box.width}px wide`);
  const lines = await input.evaluate((el) => el.clientHeight / Number.parseFloat(getComputedStyle(el).lineHeight));
  assert.ok(lines < 1.5, `the placeholder takes ${lines.toFixed(1)} lines`);
  assert.equal(await page.getByText("Assinar", { exact: true }).isVisible(), false, "Assinar is not beside the text box");

  // Assinar: in the menu, on by default, off and on again (remembered)
  await page.getByTestId("composer-more").click();
  const menu = page.getByTestId("composer-menu");
  const sign = menu.getByTestId("composer-sign");
  await sign.waitFor();
  assert.equal((await sign.textContent()).trim(), "Assinar");
  assert.equal(await sign.getAttribute("aria-checked"), "true");
  for (const name of ["Emoji", "Áudios prontos", "Anexar arquivo", "Respostas rápidas", "Nota interna", "Sugerir resposta"])
    await menu.getByRole("menuitem", { name }).or(menu.getByRole("menuitemcheckbox", { name })).waitFor();
  await sign.click();
  assert.equal(await sign.getAttribute("aria-checked"), "false");
  assert.equal(await page.evaluate(() => localStorage.getItem("signOption")), "false");
  await sign.click();
  assert.equal(await sign.getAttribute("aria-checked"), "true");
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "hidden" });

  // Respostas rápidas: the "/" the short placeholder no longer mentions
  await page.getByTestId("composer-more").click();
  await menu.getByTestId("composer-quick").click();
  assert.equal(await input.inputValue(), "/");
  await input.fill("");

  // Sugerir resposta from the menu: its panel shows above the text box once the menu is closed
  await page.getByTestId("composer-more").click();
  await menu.getByTestId("ai-suggest").click();
  await menu.waitFor({ state: "hidden" });
  const panel = page.getByTestId("ai-suggestions");
  await panel.waitFor();
  const [p, i] = [await panel.boundingBox(), await input.boundingBox()];
  assert.ok(p.y + p.height <= i.y, "the suggestions sit above the text box");
  await panel.getByRole("button", { name: "Fechar" }).click();
  await panel.waitFor({ state: "detached" });
  await page.context().close();
});

test("an internal note turns note mode off once sent, at 375 and 1366 px", async () => {
  for (const width of [375, 1366]) {
    const page = await openChat(width);
    const input = page.getByTestId("message-input");
    const toggle = page.getByTestId("note-toggle");
    if (width < 600) await page.getByTestId("composer-more").click();
    await toggle.click();
    await page.locator("[data-note]").waitFor();
    if (width < 600) assert.equal(await input.getAttribute("placeholder"), "Nota interna (só a equipe vê)");
    const text = `Cliente VIP, verificar a ONU (${width})`;
    await input.fill(text);
    await input.press("Enter");
    await page.locator('[data-testid="message"][data-internal="true"]', { hasText: text }).waitFor();
    // off: the box is the customer's again
    await page.locator("[data-note]").waitFor({ state: "detached" });
    if (width < 600) {
      await page.getByTestId("composer-more").click();
      assert.equal(await toggle.getAttribute("aria-checked"), "false");
      await page.keyboard.press("Escape");
    } else {
      assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    }
    assert.equal((await sim.phone(customer)).filter((m) => m.body.includes("verificar a ONU")).length, 0, "a note never reaches the phone");
    await page.context().close();
  }
});

/** Whether the name is cut; when it is, it says so and its tooltip has all of it. */
async function nameCut(page) {
  const name = page.getByTestId("chat-header").getByTestId("chat-contact-name");
  const cut = await name.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  assert.equal(await name.getAttribute("data-cut"), cut ? "true" : null, "data-cut says whether the name is cut");
  if (cut) {
    await name.hover();
    const tooltip = page.getByRole("tooltip", { name: customerName });
    await tooltip.waitFor();
    await page.mouse.move(1, 400);
    await tooltip.waitFor({ state: "detached" });
  }
  return cut;
}

test("the chat header keeps the customer's whole name beside Resumo, PIX, Contrato, Agendar, Transferir and Finalizar", async () => {
  for (const dark of [false, true]) {
    await theme(dark);
    for (const width of [1366, 375]) {
      const page = await openChat(width);
      const header = page.getByTestId("chat-header");
      const name = header.getByTestId("chat-contact-name");
      await settled(page);
      assert.equal((await name.textContent()).trim(), customerName);
      const n = await name.boundingBox();
      const actions = await header.getByTestId("chat-actions").boundingBox();
      assert.ok(n.x + n.width <= actions.x || n.y + n.height <= actions.y, "the name and the actions do not overlap");
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(sideways <= 0, `the page scrolls sideways by ${sideways}px`);
      if (width === 1366) {
        assert.equal(await nameCut(page), false, "the whole name shows at 1366 px");
        for (const id of ["action-summary", "action-pix", "action-contract", "action-schedule", "action-transfer", "action-close"])
          assert.ok(await header.getByTestId(id).isVisible(), `${id} in view at ${width} px`);
        await shot(page, `phones-chat-${width}-${dark ? "dark" : "light"}`);
      } else {
        // a phone: the name as long as the row allows (with its tooltip); Agendar, Transferir and
        // Finalizar with their names whole, the rest under Mais
        await nameCut(page);
        for (const [id, label] of [
          ["action-schedule", "Agendar"],
          ["action-transfer", "Transferir"],
          ["action-close", "Finalizar"],
        ]) {
          const label$ = header.getByTestId(id).locator(".label");
          assert.equal((await label$.textContent()).trim(), label);
          assert.equal(await label$.evaluate((el) => el.scrollWidth > el.clientWidth), false, `${label} is cut`);
        }
        await settled(page);
        await shot(page, `phones-chat-${width}-${dark ? "dark" : "light"}`);
        await header.getByTestId("chat-actions-more").click();
        for (const label of ["Resumo", "Gerar PIX", "Contrato"]) await page.getByRole("menuitem", { name: label }).waitFor();
        await settled(page);
        await shot(page, `phones-chat-more-${width}-${dark ? "dark" : "light"}`);
        await page.keyboard.press("Escape");
        await page.getByRole("menu").waitFor({ state: "hidden" });
        await page.getByTestId("composer-more").click();
        await page.getByTestId("composer-menu").waitFor();
        await settled(page);
        await shot(page, `phones-composer-menu-${width}-${dark ? "dark" : "light"}`);
      }
      await page.context().close();
    }
  }
  await theme(false);
});

test("where the chat pane is narrower (1024 px), the header's actions fold into a menu that still reaches Contrato", async () => {
  const page = await openChat(1024);
  const header = page.getByTestId("chat-header");
  await settled(page);
  assert.equal(await header.getAttribute("data-actions-mode"), "menu");
  await nameCut(page);
  await header.getByTestId("action-close").waitFor();
  await header.getByTestId("chat-actions-more").click();
  const contract = page.getByRole("menuitem", { name: "Contrato" });
  await contract.waitFor();
  await settled(page);
  await shot(page, "phones-chat-menu-1024-light");
  await contract.click();
  await page.getByTestId("contracts-dialog").waitFor();
  await page.context().close();
});

test("incidents: a long title wraps between words; cards on phones", async () => {
  const closed = await admin.post("/incidents", {
    title: LONG_TITLE,
    message: "Identificamos uma falha na sua região.",
    area: "Centro, Jardim América e Vila Nova",
    tags: ["Florianópolis", "São José"],
  });
  await admin.post(`/incidents/${closed.id}/close`, {});
  openIncident = await admin.post("/incidents", {
    title: "Queda de energia no POP Norte",
    message: "Identificamos uma falha na sua região.",
    area: "Bairros da zona norte",
  });
  for (const dark of [false, true]) {
    await theme(dark);
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width < 600 ? 760 : 800 });
      await signIn(page);
      await page.goto("/incidents");
      const item = page
        .getByTestId(width < 600 ? "incident-card" : "incident-row")
        .filter({ hasText: "Rompimento de fibra óptica" })
        .first();
      await item.waitFor();
      await settled(page);
      const title = item.getByTestId("incident-title");
      const box = await title.boundingBox();
      assert.ok(box.width >= 200, `the title's column is ${box.width}px wide at ${width} px`);
      // wrapped between words: no word split across lines (each line's text ends where a word does)
      const split = await title.evaluate((el) => {
        const text = el.firstChild;
        const range = document.createRange();
        const tops = [];
        for (let i = 0; i < text.length; i++) {
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          tops.push(range.getBoundingClientRect().top);
        }
        const s = text.textContent;
        return [...s].some((ch, i) => i > 0 && tops[i] > tops[i - 1] + 1 && s[i - 1] !== " " && ch !== " ");
      });
      assert.equal(split, false, `a word of the title is split at ${width} px`);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(sideways <= 0, `the page scrolls sideways by ${sideways}px`);
      await shot(page, `phones-incidents-${width}-${dark ? "dark" : "light"}`);
      await page.context().close();
    }
  }
  await theme(false);
  await admin.post(`/incidents/${openIncident.id}/close`, {});
  openIncident = undefined;
});

test("Configurações: a list of sections jumps to one and puts its id in the URL; an address with #mail opens there", async () => {
  await admin.put("/settings/settingsPassword", { value: PASSWORD });
  try {
    for (const dark of [false, true]) {
      await putGated("darkMode", dark ? "enabled" : "disabled");
      for (const width of [1366, 375]) {
        const page = await newPage(browser, { width, height: width < 600 ? 740 : 800 });
        await signIn(page);
        await page.goto("/Settings");
        await page.getByTestId("settings-password").fill(PASSWORD);
        await page.getByTestId("settings-enter").click();
        await page.getByTestId("section-pix").waitFor();
        // the contract's images are with the contracts, not with the e-mail
        await page.getByTestId("section-pix").getByTestId("image-mail_fundo_contrato").waitFor();
        await page.getByTestId("section-pix").getByTestId("image-mail_marca_agua").waitFor();
        assert.equal(await page.getByTestId("section-mail").getByTestId("image-mail_fundo_contrato").count(), 0);
        const nav = page.getByTestId("settings-nav");
        await settled(page);
        await shot(page, `phones-settings-${width}-${dark ? "dark" : "light"}`);

        await nav.getByTestId("settings-nav-colors").click();
        await page.waitForURL(/\/Settings#colors$/);
        const scroller = page.getByTestId("settings-scroll");
        await page.waitForFunction(() => {
          const box = document.querySelector('[data-testid="settings-scroll"]').getBoundingClientRect();
          const top = document.getElementById("colors").getBoundingClientRect().top - box.top;
          return top >= -1 && top < 80;
        });
        await settled(page);
        assert.ok(await page.getByTestId("field-topbarColor").isVisible(), "the colours are in view");
        // the list says where the screen is
        const current = nav.getByTestId("settings-nav-colors");
        assert.ok(
          (await current.getAttribute("aria-current")) === "location" || (await current.getAttribute("aria-selected")) === "true",
          "Cores is the current entry",
        );
        await shot(page, `phones-settings-colors-${width}-${dark ? "dark" : "light"}`);
        assert.ok((await scroller.evaluate((el) => el.scrollTop)) > 0);

        // an address naming a section opens there (the tab keeps its token for a while)
        await page.evaluate(() => history.replaceState(null, "", "/Settings#mail"));
        await page.reload();
        await page.getByTestId("section-mail").waitFor();
        await page.waitForFunction(() => {
          const box = document.querySelector('[data-testid="settings-scroll"]').getBoundingClientRect();
          const top = document.getElementById("mail").getBoundingClientRect().top - box.top;
          return top >= -1 && top < 80;
        });
        await page.context().close();
      }
    }
  } finally {
    await putGated("darkMode", "disabled");
    await putGated("settingsPassword", "");
  }
});

test("the not-found page says so, shows the address and leads back to the inbox", async () => {
  for (const dark of [false, true]) {
    await theme(dark);
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width < 600 ? 740 : 800 });
      await signIn(page);
      await page.goto("/relatorios/antigos");
      const notFound = page.getByTestId("not-found");
      await notFound.getByRole("heading", { name: "Página não encontrada" }).waitFor();
      assert.equal(await notFound.getByTestId("not-found-path").textContent(), "/relatorios/antigos");
      await settled(page);
      await shot(page, `phones-not-found-${width}-${dark ? "dark" : "light"}`);
      await notFound.getByRole("link", { name: "Voltar aos atendimentos" }).click();
      await page.waitForURL(/\/tickets$/);
      await page.context().close();
    }
  }
  await theme(false);
});
