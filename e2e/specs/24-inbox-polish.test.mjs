// What a new user tripped over in the inbox (issue 14, items 5–18), each seen in the browser:
// the chat opens at its newest message with images above, the chat being read does not count up,
// previews read as a person would, links and phone numbers, queue chips' contrast, the connection
// card's number, the sign-up link, pt-BR validation messages, toasts clear of the top bar, the
// ticket filters at 1366 px, importing the phone's contacts. Screenshots at 1366 and 375 px,
// light and dark, into e2e/screenshots.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, BASE, api, launch, newPage, settled, shot, signIn, socketJoined, toast, unique } from "../lib/browser.mjs";
import { pairedSimulator, randomColor, ticketRow, until } from "../lib/conversation.mjs";
import { solidPng } from "../lib/png.mjs";

let browser;
let admin;
let token;
let queue;
let sim;
const stamp = String(Date.now()).slice(-6);
const number = (i) => `55119${stamp}${String(i).padStart(2, "0")}`;

/** The customer sends a picture through the simulator's API (multipart, as its page does). */
async function customerSendsImage(simId, to, name, png, caption = "") {
  const form = new FormData();
  form.append("number", to);
  form.append("name", name);
  form.append("body", caption);
  form.append("file", new Blob([png], { type: "image/png" }), "foto.png");
  const res = await fetch(`${BASE}/simulator/api/connections/${simId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  assert.equal(res.status, 200, await res.text());
}

async function ticketOf(num) {
  return until(async () => {
    const { tickets } = await admin.get(`/tickets?showAll=true&searchParam=${num}`);
    return tickets.find((t) => t.contact.number === num);
  }, `the ticket of ${num}`);
}

/** A customer who wrote, with the ticket accepted by the admin. */
async function openTicket(i, name, body = "Oi, boa tarde") {
  await sim.say(number(i), body, name);
  const t = await ticketOf(number(i));
  if (t.status !== "open") await admin.put(`/tickets/${t.id}`, { status: "open" });
  return t;
}

/** Whether the boxes of two elements overlap. */
function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

before(async () => {
  browser = await launch();
  admin = await api();
  const r = await fetch(`${BASE}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  token = (await r.json()).token;
  // yellow, the colour that read 1.40:1 with white text
  // a yellow of its own (queue colours are unique): red fd, green c0–ef, blue 00–3f
  const yellow = `#fd${(0xc0 + Math.floor(Math.random() * 48)).toString(16)}${Math.floor(Math.random() * 64)
    .toString(16)
    .padStart(2, "0")}`;
  queue = await admin.post("/queue", { name: unique("Plantão"), color: yellow, greetingMessage: "" });
  sim = await pairedSimulator(admin, { name: unique("Celular da loja"), queueIds: [queue.id] });
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" });
  await admin.put("/settings/userCreation", { value: "disabled" });
  await browser?.close();
});

test("5. a chat with three images above the fold opens at its newest message, and stays there while they load", async () => {
  const name = unique("Fotos do Roteador");
  const t = await openTicket(1, name, "Vou mandar as fotos do roteador");
  const colours = [
    [220, 80, 60],
    [60, 140, 220],
    [80, 180, 90],
  ];
  for (const [i, c] of colours.entries()) await customerSendsImage(sim.id, number(1), name, solidPng(1200, 900, c), `foto ${i + 1}`);
  await sim.say(number(1), "As luzes estão piscando em vermelho", name);
  await until(async () => (await admin.get(`/messages/${t.id}`)).messages.length >= 5, "the five messages");

  // the phone first: the wide screen then also scrolls up and gets one more message
  for (const width of [375, 1366]) {
    const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
    await signIn(page);
    // slow the pictures down: they arrive well after the chat has scrolled
    await page.route("**/media/**", async (route) => {
      await new Promise((res) => setTimeout(res, 600));
      await route.continue();
    });
    await page.goto(`/tickets/${t.id}`);
    const list = page.getByTestId("messages-list");
    await list.getByText("As luzes estão piscando em vermelho").waitFor();
    // every picture has loaded and taken its height
    await page.waitForFunction(() => {
      const imgs = [...document.querySelectorAll('[data-testid="message-image"]')];
      return imgs.length >= 3 && imgs.every((i) => i.complete && i.naturalHeight > 0);
    });
    await settled(page);
    const gap = await list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok(gap <= 2, `at ${width} px the chat stops ${gap}px above its newest message`);
    const newest = await list.getByText("As luzes estão piscando em vermelho").boundingBox();
    const box = await list.boundingBox();
    assert.ok(newest.y + newest.height <= box.y + box.height + 1, `the newest message is in view (${JSON.stringify({ newest, box })})`);
    await shot(page, `polish-chat-images-${width}-light`);
    if (width === 1366) {
      // the user scrolls up to read: what arrives then does not pull the view down
      // scrolled, and the scroll event handled (the list lets go of the bottom there), as a user's scroll is
      await list.evaluate(
        (el) =>
          new Promise((resolve) => {
            el.addEventListener("scroll", () => requestAnimationFrame(() => resolve()), { once: true });
            el.scrollTop = 0;
          }),
      );
      await page.waitForFunction(() => document.querySelector('[data-testid="messages-list"]').scrollTop === 0);
      await sim.say(number(1), "Mandei mais uma coisa", name);
      await list.getByText("Mandei mais uma coisa").waitFor();
      assert.ok((await list.evaluate((el) => el.scrollTop)) < 50, "the view stays where the user scrolled to");
    }
    await page.context().close();
  }
});

test("6. messages arriving in the chat the agent is reading are read: no unread count, on the server too", async () => {
  const name = unique("Cliente Lendo");
  const t = await openTicket(2, name, "Bom dia");
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.goto(`/tickets/${t.id}`);
  await page.getByTestId("messages-list").getByText("Bom dia").waitFor();
  const row = ticketRow(page, name);
  await row.waitFor();
  // opening the chat reads what was already there ('Bom dia'): its badge goes once that read is done
  await row.getByTestId("ticket-unread").waitFor({ state: "detached" });
  // from here the list counts what arrives: watch its badge the whole time
  await page.evaluate(() => {
    window.__unreadSeen = 0;
    new MutationObserver(() => {
      for (const b of document.querySelectorAll('[data-testid="ticket-unread"]')) {
        const n = Number(b.textContent);
        if (
          b
            .closest('[data-testid="ticket-item"]')
            ?.textContent?.includes(document.querySelector('[data-testid="chat-contact-name"]')?.textContent ?? "@")
        )
          window.__unreadSeen = Math.max(window.__unreadSeen, n || 0);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await sim.say(number(2), "Chegou agora, com a conversa aberta", name);
  await sim.say(number(2), "E mais esta", name);
  await page.getByTestId("messages-list").getByText("E mais esta").waitFor();
  await until(async () => (await admin.get(`/tickets/${t.id}`)).unreadMessages === 0, "the server to count nothing unread");
  assert.equal(await row.getByTestId("ticket-unread").count(), 0, "no unread badge on the chat being read");
  assert.equal(await page.evaluate(() => window.__unreadSeen), 0, "the badge never showed");
  const stored = await admin.get(`/messages/${t.id}`);
  assert.ok(
    stored.messages.filter((m) => !m.fromMe).every((m) => m.read),
    "the customer's messages are read",
  );

  // in a hidden tab the chat is not being read: it counts up, and is read when the tab shows again
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await sim.say(number(2), "Enquanto a aba estava escondida", name);
  await page.getByTestId("messages-list").getByText("Enquanto a aba estava escondida").waitFor();
  await row.getByTestId("ticket-unread").waitFor();
  assert.equal((await admin.get(`/tickets/${t.id}`)).unreadMessages, 1);
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await row.getByTestId("ticket-unread").waitFor({ state: "detached" });
  await until(async () => (await admin.get(`/tickets/${t.id}`)).unreadMessages === 0, "read once the tab shows");
  await page.context().close();
});

test("7, 8. the list preview: no signature markup, a deleted message gives way to the one before, the customer's words over the bot's", async () => {
  const name = unique("Prévia Limpa");
  const t = await openTicket(3, name, "Qual o valor do plano de 500 mega?");
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  const preview = ticketRow(page, name).getByTestId("ticket-preview");
  await preview.waitFor();
  // an agent's signed message shows as a person reads it
  await admin.post(`/messages/${t.id}`, { body: "*Administrador:*\nO plano custa R$ 99,90" });
  await until(async () => (await preview.textContent())?.includes("O plano custa"), "the agent's words in the preview");
  const shown = (await preview.textContent()) ?? "";
  assert.ok(!shown.includes("*"), `no signature markup: "${shown}"`);
  assert.ok(!shown.includes("Administrador"), `no signature: "${shown}"`);
  // the agent deletes it: the preview goes back to the message before
  const sent = (await admin.get(`/messages/${t.id}`)).messages.find((m) => m.body.includes("O plano custa"));
  await admin.delete(`/messages/${sent.id}`);
  await until(async () => (await preview.textContent())?.includes("Qual o valor"), "the previous message in the preview");

  // a bot's greeting does not replace what the customer said
  const otherQueue = await admin.post("/queue", { name: unique("Financeiro"), color: randomColor(), greetingMessage: "" });
  const botConn = await pairedSimulator(admin, {
    name: unique("Com saudação"),
    queueIds: [queue.id, otherQueue.id],
    greetingMessage: "Olá! Escolha uma opção:",
  });
  const botName = unique("Fala Com Bot");
  await botConn.say(number(4), "Preciso da segunda via", botName);
  const botPreview = ticketRow(page, botName).getByTestId("ticket-preview");
  await page.getByTestId("tab-waiting").filter({ visible: true }).click();
  await botPreview.waitFor();
  await until(async () => (await botConn.phone(number(4))).some((m) => m.fromMe), "the bot's greeting on the phone");
  // the list cuts a preview at 20 characters
  assert.match((await botPreview.textContent()) ?? "", /^Preciso da segunda/);
  await page.context().close();
});

test("9. links in messages open in a new tab; phone numbers read +55 (11) 98765-4321 on every screen", async () => {
  const name = unique("Manda Link");
  const t = await openTicket(5, name, "O boleto está em https://exemplo.com.br/boleto?id=42, pode conferir?");
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.goto(`/tickets/${t.id}`);
  const link = page.getByTestId("messages-list").getByRole("link", { name: "https://exemplo.com.br/boleto?id=42" });
  await link.waitFor();
  assert.equal(await link.getAttribute("href"), "https://exemplo.com.br/boleto?id=42");
  assert.equal(await link.getAttribute("target"), "_blank");
  assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
  const n = number(5);
  const formatted = `+55 (${n.slice(2, 4)}) ${n.slice(4, 9)}-${n.slice(9)}`;
  // the contact's drawer
  await page.getByRole("button", { name: "Dados do contato" }).click();
  assert.equal((await page.getByTestId("contact-tel").textContent())?.trim(), formatted);
  await shot(page, "polish-contact-drawer-1366-light");
  await page.keyboard.press("Escape");
  // the contacts screen
  await page.goto("/contacts");
  await page.getByRole("searchbox", { name: /Pesquisar/ }).fill(n);
  await page.getByTestId("contact-card").filter({ hasText: name }).getByText(formatted).waitFor();
  // the connection's card
  await page.goto("/connections");
  const phoneNumbers = await page.getByTestId("connection-number").allTextContents();
  for (const p of phoneNumbers.filter((x) => x.startsWith("+"))) assert.match(p, /^\+55 \(\d{2}\) \d{4,5}-\d{4}$|^\+\d+$/);
  await page.context().close();
});

test("10. a yellow queue's chip has dark text: at least 4.5:1", async () => {
  const name = unique("Chip Amarelo");
  await openTicket(6, name, "Oi");
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  const chip = ticketRow(page, name).getByTestId("ticket-queue");
  await chip.waitFor();
  const [fg, bg] = await chip.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
  const lum = (rgb) => {
    const [r, g, b] = rgb
      .match(/\d+(\.\d+)?/g)
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  assert.ok(ratio >= 4.5, `queue chip contrast ${ratio.toFixed(2)}:1 (${fg} on ${bg})`);
  await page.context().close();
});

test("11. the connection card follows the phone: a new QR clears the number, another phone's shows", async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.goto("/connections");
  const card = page
    .getByTestId("connection-card")
    .filter({ hasText: (await admin.get("/simulator/api/connections")).find((c) => c.id === sim.id).name });
  const numberOnCard = card.getByTestId("connection-number");
  await until(async () => (await numberOnCard.textContent())?.startsWith("+55"), "the first phone's number");
  const first = await numberOnCard.textContent();
  await admin.put(`/whatsappsession/${sim.id}`);
  await until(async () => (await numberOnCard.textContent()) !== first, "the old number to go");
  assert.ok(!(await numberOnCard.textContent())?.includes(first.slice(-4)), "no old number while a new QR waits");
  const qr = await until(async () => {
    const c = (await admin.get("/simulator/api/connections")).find((x) => x.id === sim.id);
    return c?.status === "qrcode" && c.qrcode;
  }, "the new QR code");
  await admin.post(`/simulator/api/connections/${sim.id}/scan`, { qrcode: qr, number: "5521998765432" });
  await card.getByText("+55 (21) 99876-5432").waitFor();
  await card.getByText("Conectado", { exact: true }).waitFor();
  await page.context().close();
});

test("11b. what happens while a page's live connection is still starting shows once it is up: a customer's message in the open chat", async () => {
  const name = unique("Cliente Chegando");
  const t = await openTicket(10, name, "Primeira mensagem");
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  // the live connection's code (loaded after sign-in) is held back: the page reads, then events happen before it listens
  let release;
  const held = new Promise((r) => {
    release = r;
  });
  // (socket.io-client is its own lazy chunk, named after api/socket-io.ts)
  await page.route("**/assets/socket-io-*.js", async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await page.goto(`/tickets/${t.id}`);
  await page.getByTestId("messages-list").getByText("Primeira mensagem").waitFor();
  await sim.say(number(10), "Escrevi enquanto a página abria", name);
  await until(
    async () => (await admin.get(`/messages/${t.id}`)).messages.some((m) => m.body === "Escrevi enquanto a página abria"),
    "the message to be stored",
  );
  release();
  await page.getByTestId("messages-list").getByText("Escrevi enquanto a página abria").waitFor();
  await page.context().close();
});

test("12. the sign-up link shows only when sign-up is enabled", async () => {
  await admin.put("/settings/userCreation", { value: "disabled" });
  let page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto("/login");
  await page.getByRole("button", { name: "Entrar" }).waitFor();
  // once the login colours (and so the setting) have loaded
  await page.waitForResponse((r) => r.url().includes("/colors")).catch(() => undefined);
  await settled(page);
  assert.equal(await page.getByRole("link", { name: "Não tem uma conta? Cadastre-se" }).count(), 0);
  await shot(page, "polish-login-1366-light");
  await page.context().close();

  await admin.put("/settings/userCreation", { value: "enabled" });
  page = await newPage(browser, { width: 375, height: 740 });
  await page.goto("/login");
  await page.getByRole("link", { name: "Não tem uma conta? Cadastre-se" }).waitFor();
  await page.context().close();
  await admin.put("/settings/userCreation", { value: "disabled" });
});

test("12b. the hint under a waiting or closed chat names the button on screen: Atender, Reabrir", async () => {
  await sim.say(number(40), "Alguém pode me ajudar?", "Cliente Espera");
  const ticket = await ticketOf(number(40));
  const page = await newPage(browser, { width: 375, height: 740 });
  await signIn(page);
  // the address is a new page load: its socket joins its rooms again before the ticket changes below
  const joined = socketJoined(page);
  await page.goto(`/tickets/${ticket.id}`);
  await joined;
  const accept = page.getByTestId("action-accept");
  await accept.waitFor();
  const button = (await accept.textContent()).trim();
  assert.equal(button, "Atender");
  assert.equal((await page.getByTestId("input-disabled").textContent()).trim(), `Clique em ${button} para responder`);

  await admin.put(`/tickets/${ticket.id}`, { status: "open" });
  await admin.put(`/tickets/${ticket.id}`, { status: "closed" });
  const reopen = page.getByTestId("action-reopen");
  await reopen.waitFor();
  const label = (await reopen.getAttribute("aria-label")) ?? (await reopen.textContent()).trim();
  assert.equal(label, "Reabrir");
  assert.equal((await page.getByTestId("input-disabled").textContent()).trim(), "Clique em Reabrir para responder");
  await page.context().close();
});

test("13. validation messages are in the interface's language", async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.goto("/contacts");
  await page.getByRole("button", { name: "Adicionar contato" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("A");
  await dialog.getByLabel("Número").fill("1199876-54ab");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await dialog.getByText("Muito curto!").first().waitFor();
  await dialog.getByText("Número inválido").waitFor();
  const text = (await dialog.textContent()) ?? "";
  for (const english of ["Too Short", "Too Long", "Required", "Invalid", "expected"])
    assert.ok(!text.includes(english), `"${english}" in: ${text}`);
  await settled(page);
  await shot(page, "polish-contact-errors-1366-light");
  await page.context().close();
});

test("14. toasts cover none of the top bar's controls", async () => {
  for (const width of [1366, 375]) {
    const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
    await signIn(page);
    const shown = toast(page, "Login efetuado com sucesso");
    await shown.waitFor();
    await settled(page);
    const box = await shown.boundingBox();
    const controls = page.locator("header button, header a, header [role=button], header input");
    for (let i = 0; i < (await controls.count()); i++) {
      const c = controls.nth(i);
      if (!(await c.isVisible())) continue;
      const cb = await c.boundingBox();
      assert.ok(!overlaps(box, cb), `at ${width} px the toast covers "${(await c.getAttribute("aria-label")) ?? (await c.textContent())}"`);
    }
    await shot(page, `polish-toast-${width}-light`);
    await page.context().close();
  }
});

test("15. at 1366 px the ticket filters are not cut and every tab label is one line", async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.getByTestId("tab-open").waitFor();
  await settled(page);
  for (const id of ["tab-open", "tab-group", "tab-closed", "tab-search", "tab-assigned", "tab-waiting"]) {
    const lines = await page
      .getByTestId(id)
      .filter({ visible: true })
      .evaluate((el) => {
        // the label's own text (not a badge's count beside it): how many lines its boxes take
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.textContent.trim() ? 1 : 3) });
        const text = walker.nextNode();
        if (!text) return 1;
        const range = document.createRange();
        range.selectNodeContents(text);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
    assert.equal(lines, 1, `${id} wraps onto ${lines} lines`);
  }
  // every filter shows its whole value
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="ticket-filters"] .MuiSelect-select, [data-testid="ticket-filters"] button')]
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent),
  );
  assert.deepEqual(cut, [], `truncated filters: ${cut.join(", ")}`);
  await page.context().close();
});

test("18. 'Importar do WhatsApp' adds the contacts the connected phone knows", async () => {
  const known = unique("Contato do Celular");
  await sim.say(number(9), "Oi, sou do celular", known);
  const contact = await until(async () => (await admin.get(`/contacts?searchParam=${number(9)}`)).contacts[0], "the contact");
  await admin.delete(`/contacts/${contact.id}`);
  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.goto("/contacts");
  await page.getByRole("button", { name: "Importar", exact: true }).click();
  const dialog = page.getByRole("dialog");
  // several connections: this test's phone is chosen
  const connName = (await admin.get("/simulator/api/connections")).find((c) => c.id === sim.id).name;
  await dialog.getByLabel("Conexão").click();
  await page.getByRole("option", { name: connName }).click();
  await dialog.getByRole("button", { name: "Importar do WhatsApp" }).click();
  await dialog.getByText(/criado\(s\)/).waitFor();
  await dialog.getByText(known).waitFor();
  await settled(page);
  await shot(page, "polish-import-phone-1366-light");
  await page.keyboard.press("Escape");
  assert.equal((await admin.get(`/contacts?searchParam=${number(9)}`)).contacts[0]?.name, known);
  await page.context().close();
});

for (const theme of ["light", "dark"]) {
  for (const width of [1366, 375]) {
    test(`screenshots: tickets, chat, connections, contacts, login, ${theme}, ${width} px`, async () => {
      await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
      const { tickets } = await admin.get(`/tickets?showAll=true&searchParam=${number(1)}`);
      const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
      await page.goto("/login");
      await page.getByRole("button", { name: "Entrar" }).waitFor();
      await settled(page);
      await shot(page, `polish-login-${width}-${theme}`);
      await signIn(page);
      await page.getByTestId("ticket-item").first().waitFor();
      await settled(page);
      await shot(page, `polish-tickets-${width}-${theme}`);
      await page.goto(`/tickets/${tickets[0].id}`);
      await page.getByTestId("messages-list").getByText("As luzes estão piscando em vermelho").waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="message-image"]')].every((i) => i.complete));
      await settled(page);
      await shot(page, `polish-chat-${width}-${theme}`);
      await page.goto("/connections");
      await page.getByTestId("connection-card").first().waitFor();
      await settled(page);
      await shot(page, `polish-connections-${width}-${theme}`);
      await page.goto("/contacts");
      await page.getByTestId("contact-card").first().waitFor();
      await page.getByRole("button", { name: "Importar", exact: true }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Importar do WhatsApp" }).waitFor();
      await settled(page);
      await shot(page, `polish-contacts-import-${width}-${theme}`);
      await page.context().close();
    });
  }
}
