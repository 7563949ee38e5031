// Bots: a customer walks a Typebot flow (a fake Typebot viewer started here, from the public chat
// API's shapes) with a choice and lands in the chosen queue; a chat entry made on the /ChatBot
// screen (inline row, image upload with progress) answers its shortcut; an audio entry uploaded
// there plays; screenshots of /ChatBot in both themes at 1366 and 375 px.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn, toast, unique } from "../lib/browser.mjs";
import { createAgent, pairedSimulator, randomColor, toneWav, until } from "../lib/conversation.mjs";
import { solidPng } from "../lib/png.mjs";
import { readFileSync } from "node:fs";

let browser;
let admin;
let typebot;
const made = { queues: [], conns: [], chat: [], audio: [] };

/** A Typebot viewer with one published flow: a greeting, a choice of two departments, a hand-over to the chosen queue. */
function fakeTypebot(flow) {
  const sessions = new Map();
  let seq = 0;
  const calls = [];
  const bubble = (text) => ({
    id: `b${++seq}`,
    type: "text",
    content: { type: "richText", richText: [{ type: "p", children: [{ text }] }] },
  });
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const c of req) raw += c;
    const body = raw ? JSON.parse(raw) : {};
    calls.push({ path: req.url, body });
    const send = (status, out) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(out));
    };
    if (req.url === `/api/v1/typebots/${flow.slug}/startChat`) {
      const id = `s${++seq}`;
      sessions.set(id, "choice");
      return send(200, {
        sessionId: id,
        messages: [bubble(flow.greeting)],
        input: { id: "in1", type: "choice input", items: flow.items.map((it, i) => ({ id: `i${i}`, content: it.content })) },
      });
    }
    const m = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(req.url ?? "");
    if (m && sessions.has(m[1])) {
      const item = flow.items.find((it) => it.content === String(body.message ?? "").trim());
      if (!item) {
        return send(200, {
          messages: [bubble("Invalid message. Please, try again.")],
          input: { id: "in1", type: "choice input", items: flow.items.map((it, i) => ({ id: `i${i}`, content: it.content })) },
        });
      }
      sessions.delete(m[1]);
      return send(200, { messages: [bubble(item.reply), bubble(`#{"queueId":${item.queueId}}`)] });
    }
    send(404, { message: "Session not found." });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, calls, close: () => new Promise((r) => server.close(r)) }),
    ),
  );
}

before(async () => {
  browser = await launch();
  admin = await api();
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  for (const id of made.chat) await admin.delete(`/chatbot/${id}`).catch(() => undefined);
  for (const id of made.audio) await admin.delete(`/audiobot/${id}`).catch(() => undefined);
  for (const id of made.conns) await admin.delete(`/whatsapp/${id}`).catch(() => undefined);
  for (const id of made.queues) await admin.delete(`/queue/${id}`).catch(() => undefined);
  await typebot?.close();
  await browser?.close();
});

test("a customer walks a Typebot flow, answers the choice with its number, and lands in that queue", async () => {
  const billing = await admin.post("/queue", { name: unique("Financeiro"), color: randomColor(), greetingMessage: "" });
  const support = await admin.post("/queue", { name: unique("Suporte"), color: randomColor(), greetingMessage: "" });
  made.queues.push(billing.id, support.id);
  typebot = await fakeTypebot({
    slug: "atendimento",
    greeting: "Olá! Sobre o que você quer falar?",
    items: [
      { content: "Segunda via de boleto", reply: "Vou te passar para o financeiro.", queueId: billing.id },
      { content: "Internet lenta", reply: "Um técnico já vai te atender.", queueId: support.id },
    ],
  });
  const conn = await pairedSimulator(admin, { name: unique("Bot"), queueIds: [billing.id, support.id], greetingMessage: "Escolha:" });
  made.conns.push(conn.id);
  await admin.put(`/whatsapp/${conn.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
  await admin.put(`/typebot/settings/${conn.id}`, { enabled: true, baseUrl: typebot.url, slug: "atendimento", delayMs: 0 });

  const number = `55119555${String(Date.now() % 100000).padStart(5, "0")}`;
  await conn.say(number, "oi", "Carla Bot");
  const list = await until(async () => {
    const fromBot = (await conn.phone(number)).filter((m) => m.fromMe);
    return fromBot.length >= 2 ? fromBot : undefined;
  }, "the flow's greeting and choice");
  assert.deepEqual(
    list.map((m) => m.body),
    ["Olá! Sobre o que você quer falar?", "*1* - Segunda via de boleto\n*2* - Internet lenta"],
  );
  const start = typebot.calls.find((c) => c.path.endsWith("/startChat"));
  assert.equal(start.body.prefilledVariables.number, number);

  await conn.say(number, "2", "Carla Bot");
  await until(
    async () => (await conn.phone(number)).some((m) => m.fromMe && m.body === "Um técnico já vai te atender."),
    "the flow's reply",
  );
  assert.equal(typebot.calls.at(-1).body.message, "Internet lenta");
  const ticket = await until(async () => {
    const res = await admin.get(`/tickets?showAll=true&searchParam=${number}`);
    const t = res.tickets.find((x) => x.contact.number === number);
    return t?.queueId === support.id ? t : undefined;
  }, "the ticket in the Suporte queue");
  assert.equal(ticket.status, "pending");
  assert.equal(
    (await conn.phone(number)).some((m) => m.body.includes("#{")),
    false,
  );

  // an agent of that queue sees it waiting, with the conversation so far
  const agent = await createAgent(admin, { name: unique("Técnico"), queueIds: [support.id] });
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page, agent);
  await page.goto(`/tickets/${ticket.id}`);
  await page.getByText("Olá! Sobre o que você quer falar?").first().waitFor();
  await page.getByText("Um técnico já vai te atender.").first().waitFor();
  await settled(page);
  await shot(page, "bots-typebot-handover-1366-light");
  await page.close();
});

test("/ChatBot: empty states, a chat entry with an image made inline, its shortcut answered; an audio entry uploaded and played", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/ChatBot");
  await page.getByRole("heading", { name: "Chatbot", exact: true }).waitFor();
  const chat = page.getByTestId("chatbot-table");
  const audio = page.getByTestId("audiobot-table");
  const before = await admin.get("/chatbot");
  if (before.length === 0) {
    await chat.getByTestId("chatbot-empty").waitFor();
    await settled(page);
    await shot(page, "chatbot-empty-1366-light");
  }

  // a new row, filled in place; the image uploads with a progress bar, then shows its preview
  const shortcut = `planos${Date.now() % 100000}`;
  await chat.getByRole("button", { name: "Adicionar" }).click();
  const row = chat.getByTestId("chatbot-new-row");
  await row.getByLabel("Atalho").fill(shortcut);
  await row.getByLabel("Mensagem").fill("Nossos planos: 300 Mb por R$ 99,90.");
  await row
    .getByTestId("chatbot-file")
    .setInputFiles({ name: "planos.png", mimeType: "image/png", buffer: solidPng(320, 200, [30, 120, 200]) });
  await row.getByRole("img", { name: "Pré-visualização" }).waitFor();
  await row.getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Salvo com sucesso!").waitFor();
  await chat.getByTestId("chatbot-row").filter({ hasText: shortcut }).waitFor();
  const entry = (await admin.get("/chatbot")).find((e) => e.shortcut === shortcut);
  const saved = chat.locator(`[data-entry-id="${entry.id}"]`);
  await saved.getByRole("img", { name: "Pré-visualização" }).waitFor();
  made.chat.push(entry.id);
  assert.match(entry.url, /^\/media\/[a-f0-9]{32}\.png$/);

  // edited in place
  await saved.getByRole("button", { name: "Editar" }).click();
  await saved.getByLabel("Mensagem").fill("Nossos planos: 500 Mb por R$ 119,90.");
  await saved.getByRole("button", { name: "Salvar" }).click();
  await chat.getByText("Nossos planos: 500 Mb por R$ 119,90.").waitFor();

  // a customer who writes the shortcut (another case, an accent) gets the text and the image
  const conn = await pairedSimulator(admin, { name: unique("Loja"), queueIds: [], greetingMessage: "" });
  made.conns.push(conn.id);
  await admin.put(`/whatsapp/${conn.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20 });
  const number = `55119444${String(Date.now() % 100000).padStart(5, "0")}`;
  await conn.say(number, shortcut.toUpperCase().replace("A", "Á"), "Davi");
  const got = await until(async () => (await conn.phone(number)).find((m) => m.fromMe), "the chat entry's answer");
  assert.equal(got.mediaType, "image");
  assert.equal(got.body, "Nossos planos: 500 Mb por R$ 119,90.");

  // an audio entry: the WAV uploads, becomes a voice note, and plays in the row
  await audio.getByRole("button", { name: "Adicionar" }).click();
  const arow = audio.getByTestId("audiobot-new-row");
  await arow.getByLabel("Título").fill("Boas-vindas");
  await arow
    .getByTestId("audiobot-file")
    .setInputFiles({ name: "boas-vindas.wav", mimeType: "audio/wav", buffer: readFileSync(toneWav(2)) });
  await arow.locator("audio").waitFor();
  await arow.getByRole("button", { name: "Salvar" }).click();
  const asaved = audio.getByTestId("audiobot-row").filter({ hasText: "Boas-vindas" }).first();
  await asaved.locator("audio").waitFor();
  const aentry = (await admin.get("/audiobot")).find((e) => e.titulo === "Boas-vindas");
  made.audio.push(aentry.id);
  assert.match(aentry.url, /\.ogg$/);
  const duration = await asaved.locator("audio").evaluate(
    (el) =>
      new Promise((resolve) => {
        if (el.readyState >= 1) return resolve(el.duration);
        el.preload = "metadata";
        el.addEventListener("loadedmetadata", () => resolve(el.duration), { once: true });
        el.addEventListener("error", () => resolve(-1), { once: true });
        el.load();
      }),
  );
  assert.ok(duration > 1, `the voice note plays (${duration} s)`);

  // an agent sends the audio entry from the message input: the customer gets a voice note
  const sender = await createAgent(admin, { name: unique("Atendente"), queueIds: [] });
  const tickets = await admin.get(`/tickets?showAll=true&searchParam=${number}`);
  const davi = tickets.tickets.find((x) => x.contact.number === number);
  await admin.put(`/tickets/${davi.id}`, { status: "open", userId: sender.id });
  const agentPage = await newPage(browser, { width: 1366, height: 900 });
  await signIn(agentPage, sender);
  await agentPage.goto(`/tickets/${davi.id}`);
  await agentPage.setViewportSize({ width: 375, height: 812 });
  // on a phone the composer's actions are in its menu
  await agentPage.getByTestId("composer-more").click();
  await agentPage.getByRole("menuitem", { name: "Áudios prontos" }).click();
  await agentPage.getByTestId("audio-entries").getByText("Boas-vindas").waitFor();
  await settled(agentPage);
  await shot(agentPage, "chat-audio-entries-375-light");
  await agentPage.getByTestId("audio-entries").getByText("Boas-vindas").click();
  const voice = await until(async () => (await conn.phone(number)).find((m) => m.fromMe && m.mediaType === "audio"), "the voice note");
  assert.match(voice.mimetype, /^audio\/ogg/);
  await agentPage.close();

  // delete asks first
  await saved.getByRole("button", { name: "Excluir" }).click();
  await page.getByRole("dialog").getByText("Confirma excluir este item?").waitFor();
  await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
  await page.getByRole("dialog").waitFor({ state: "detached" });

  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.reload();
      await page.getByTestId("chatbot-row").first().waitFor();
      await settled(page);
      await shot(page, `chatbot-${width}-${theme}`);
    }
  }
  await admin.put("/settings/darkMode", { value: "disabled" });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.reload();
  const last = chat.locator(`[data-entry-id="${entry.id}"]`);
  await last.getByRole("button", { name: "Excluir" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Excluir" }).click();
  await toast(page, "Excluído com sucesso!").waitFor();
  await last.waitFor({ state: "detached" });
  made.chat = made.chat.filter((id) => id !== entry.id);
  await page.close();
});
