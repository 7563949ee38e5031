// AI assist (issue 30) in Chromium against a fake OpenAI-compatible server started by this spec on
// 127.0.0.1: the agent asks 'Sugerir resposta', picks a chip, edits it and sends it (the customer's phone
// gets the edited text; the CPF the customer wrote never reached the AI server); a voice note from the
// simulator shows its transcription with 'transcrição automática'; 'Resumo' in the header and in the
// transfer dialog. Screenshots light and dark at 1366 and 375 px (the chat with the chips and a
// transcription, the settings' 'Inteligência artificial' section).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { ADMIN, api, BASE, launch, newPage, settled, shot, signIn, unique } from "../lib/browser.mjs";
import { agentPage, createAgent, pairedSimulator, randomColor, until } from "../lib/conversation.mjs";

const customer = `5549${String(Date.now() + 7).slice(-9)}`;
const KEY = "sk-e2e-fake";
const CPF = "529.982.247-25";
const TRANSCRIPT = "Oi, meu roteador está piscando a luz vermelha desde ontem à noite.";
const PASSWORD = "config-e2e-ai";
const VOICE_NOTE = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(24), Buffer.from("OpusHead"), Buffer.alloc(600, 7)]);

/** A fake OpenAI-compatible server (shared/reference/openai-compatible.md): chat completions, transcriptions, models. */
function fakeOpenAi() {
  const chats = [];
  const audios = [];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks);
    const send = (status, o) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(o));
    if (req.headers.authorization !== `Bearer ${KEY}`)
      return send(401, { error: { message: "Incorrect API key provided", code: "invalid_api_key" } });
    if (req.url === "/v1/models") return send(200, { object: "list", data: [{ id: "gpt-4o-mini" }, { id: "whisper-1" }] });
    if (req.url === "/v1/chat/completions") {
      const body = JSON.parse(raw.toString("utf8"));
      const text = body.messages.map((m) => m.content).join("\n");
      chats.push(text);
      const summary = /resume atendimentos/.test(body.messages[0].content);
      const content = summary
        ? "Cliente: Maria, do setor Suporte.\nPediu: a internet caiu e o roteador pisca vermelho.\nFeito: o atendente pediu para reiniciar.\nPendente: confirmar se voltou."
        : JSON.stringify({
            suggestions: [
              "Olá! Vou verificar sua conexão agora mesmo.",
              "Desligue o roteador da tomada por 30 segundos e ligue de novo, por favor.",
              "Vou abrir um chamado técnico para a sua região.",
            ],
          });
      return send(200, {
        id: "c1",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      });
    }
    if (req.url === "/v1/audio/transcriptions") {
      const form = await new Response(raw, { headers: { "content-type": req.headers["content-type"] } }).formData();
      audios.push({ model: form.get("model"), language: form.get("language"), name: form.get("file")?.name });
      return send(200, { text: TRANSCRIPT });
    }
    send(404, { error: { message: "not found" } });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, chats, audios, baseUrl: `http://127.0.0.1:${server.address().port}/v1` })),
  );
}

/** The simulator's customer sends a voice note (multipart, as its page does). */
async function sendVoiceNote(simId, number) {
  const login = await (
    await fetch(`${BASE}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })
  ).json();
  const form = new FormData();
  form.set("number", number);
  form.set("name", "Maria");
  form.set("body", "");
  form.set("file", new Blob([VOICE_NOTE], { type: "audio/ogg; codecs=opus" }), "nota.ogg");
  const res = await fetch(`${BASE}/simulator/api/connections/${simId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${login.token}` },
    body: form,
  });
  assert.equal(res.status, 200, await res.text());
}

let browser;
let admin;
let ai;
let sim;
let ana;
let ticketId;
let queue;

before(async () => {
  ai = await fakeOpenAi();
  admin = await api();
  for (const [key, value] of [
    ["aiBaseUrl", ai.baseUrl],
    ["aiApiKey", KEY],
    ["aiModel", "gpt-4o-mini"],
    ["aiTranscriptionModel", "whisper-1"],
    ["aiRedact", "enabled"],
    ["aiEnabled", "enabled"],
  ])
    await admin.put(`/settings/${key}`, { value });
  queue = await admin.post("/queue", { name: unique("Suporte"), color: randomColor(), greetingMessage: "Suporte" });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  sim = await pairedSimulator(admin, { name: unique("Provedor IA"), queueIds: [queue.id], greetingMessage: "Olá!" });
  const contact = await admin.post("/contacts", { name: "Maria Souza", number: customer });
  ticketId = (
    await admin.post("/tickets", { contactId: contact.id, whatsappId: sim.id, queueId: queue.id, userId: ana.id, status: "open" })
  ).id;
  await sim.say(customer, `A internet caiu e o roteador pisca vermelho. Meu CPF é ${CPF}`, "Maria Souza");
  await until(async () => (await admin.get(`/messages/${ticketId}`)).messages.some((m) => m.body.includes("roteador")), "the message");
  browser = await launch();
});
after(async () => {
  await admin?.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await admin?.put("/settings/aiEnabled", { value: "disabled" }).catch(() => undefined);
  await admin?.put("/settings/aiTranscriptionModel", { value: "" }).catch(() => undefined);
  await browser?.close();
  ai?.server.close();
});

test("'Testar' reaches the fake AI server with the typed values", async () => {
  const r = await admin.post("/ai/test", { baseUrl: ai.baseUrl, model: "gpt-4o-mini" });
  assert.equal(r.ok, true, r.detail);
});

test("the agent asks for suggestions, picks one, edits it and sends it", async () => {
  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("ai-suggest").click();
  const chips = page.getByTestId("ai-suggestion");
  await chips.nth(2).waitFor();
  assert.equal(await chips.count(), 3);
  await chips.nth(1).click();
  const input = page.getByTestId("message-input");
  assert.equal(await input.inputValue(), "Desligue o roteador da tomada por 30 segundos e ligue de novo, por favor.");
  await input.press("End");
  await input.pressSequentially(" Depois me avise!");
  await input.press("Enter");
  const sent = await until(
    async () => (await sim.phone(customer)).find((m) => m.fromMe && m.body.includes("ligue de novo, por favor. Depois me avise!")),
    "the edited suggestion on the customer's phone",
  );
  assert.ok(sent);
  // grounded in the conversation, and the CPF never left
  const prompt = ai.chats.at(-1);
  assert.match(prompt, /o roteador pisca vermelho/);
  assert.ok(!prompt.includes(CPF) && !prompt.includes("52998224725"), "the CPF reached the AI server");
  await page.context().close();
});

test("a voice note from the simulator shows its transcription, marked 'transcrição automática'", async () => {
  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("chat-view").waitFor();
  await sendVoiceNote(sim.id, customer);
  const shown = page.getByTestId("message-transcription");
  await shown.getByText(TRANSCRIPT).waitFor();
  await shown.getByText("transcrição automática").waitFor();
  assert.deepEqual(ai.audios.at(-1), { model: "whisper-1", language: "pt", name: "voice.ogg" });
  await page.context().close();
});

test("'Resumo' in the header and in the transfer dialog", async () => {
  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("action-summary").click();
  const dialog = page.getByTestId("ai-summary-dialog");
  await dialog
    .getByTestId("ai-summary-text")
    .getByText(/Pendente: confirmar se voltou/)
    .waitFor();
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await page.getByTestId("action-transfer").click();
  await page.getByTestId("transfer-summary").click();
  await page
    .getByTestId("transfer-summary-box")
    .getByText(/Pendente: confirmar se voltou/)
    .waitFor();
  await settled(page);
  await shot(page, "ai-transfer-summary-1366-light");
  await page.context().close();
});

for (const theme of ["light", "dark"]) {
  for (const width of [1366, 375]) {
    test(`screenshot: suggestions and a transcription in the chat, ${theme}, ${width} px`, async () => {
      await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
      const page = await newPage(browser, { width, height: width > 500 ? 800 : 740 });
      await signIn(page, { email: ana.email, password: ana.password });
      await page.goto(`/tickets/${ticketId}`);
      await page.getByTestId("message-transcription").first().waitFor();
      // on a phone 'Sugerir resposta' is in the composer's menu
      if (width < 600) await page.getByTestId("composer-more").click();
      await page.getByTestId("ai-suggest").click();
      await page.getByTestId("ai-suggestion").nth(2).waitFor();
      await settled(page);
      await shot(page, `ai-chat-${width}-${theme}`);
      await page.context().close();
    });
  }
}

for (const theme of ["light", "dark"]) {
  test(`screenshot: the settings' AI section, ${theme}`, async () => {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    await admin.put("/settings/settingsPassword", { value: PASSWORD });
    try {
      for (const width of [1366, 375]) {
        const page = await newPage(browser, { width, height: width > 500 ? 900 : 740 });
        await signIn(page);
        await page.goto("/Settings");
        await page.getByTestId("settings-password").fill(PASSWORD);
        await page.getByTestId("settings-enter").click();
        const section = page.getByTestId("section-ai");
        await section.scrollIntoViewIfNeeded();
        await section.getByTestId("test-ai").click();
        await section.getByTestId("ai-test-result").waitFor();
        assert.match((await section.getByTestId("ai-test-result").textContent()) ?? "", /Conectado/);
        await section.getByTestId("ai-privacy").scrollIntoViewIfNeeded();
        await settled(page);
        await shot(page, `ai-settings-${width}-${theme}`);
        await page.context().close();
      }
    } finally {
      // the gate stays closed only while this spec needs it
      const res = await fetch(`${BASE}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      });
      const { token } = await res.json();
      const unlock = await (
        await fetch(`${BASE}/settings/unlock`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ password: PASSWORD }),
        })
      ).json();
      await fetch(`${BASE}/settings/settingsPassword`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-settings-token": unlock.settingsToken },
        body: JSON.stringify({ value: "" }),
      });
    }
  });
}
