import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  createQueue,
  customerSays,
  emitAck,
  eventually,
  listen,
  pairedSimulator,
  recorder,
  settle,
  type SimConnection,
  socketFor,
} from "./conversation-kit.js";
import { FAKE_AI_KEY, type FakeOpenAi, startFakeOpenAi } from "./fakes/openai.js";
import { SGP_APP, SGP_TOKEN, startFakeSgp } from "./fakes/sgp.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * AI assist against a fake OpenAI-compatible server: suggestions and summaries grounded in the
 * ticket (messages, queue, matching quick answers), personal data redacted before it leaves and
 * put back after, who may ask, every failure answered with its ERR_AI_* code and recorded, the
 * per-user limit, nothing sent while AI is off, and a customer's voice note transcribed by a job.
 */

let t: TestApp;
let ai: FakeOpenAi;
let sim: SimConnection;
let agent: { id: number; token: string };
let colleague: { id: number; token: string };
let queueA: number;
let seq = 0;
const CPF = "529.982.247-25";
const EMAIL = "maria.souza@example.com";
/** Ogg/Opus as WhatsApp sends voice notes (the bytes start as one: OggS page, OpusHead) */
const VOICE_NOTE = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(24), Buffer.from("OpusHead"), Buffer.alloc(400, 7)]);

async function set(key: string, value: string) {
  const res = await api(t, t.adminToken, "PUT", `/settings/${key}`, { value });
  expect(res.status).toBe(200);
}

/** An open ticket of a new customer in queue A, owned by the agent. */
async function openTicket(): Promise<{ ticketId: number; number: string }> {
  const number = `55499${String(7000000 + ++seq * 37).padStart(8, "0")}`;
  const contact = (await api(t, t.adminToken, "POST", "/contacts", { name: `Cliente ${seq}`, number })).body;
  const ticket = await api(t, t.adminToken, "POST", "/tickets", {
    contactId: contact.id,
    whatsappId: sim.whatsappId,
    queueId: queueA,
    status: "open",
    userId: agent.id,
  });
  expect(ticket.status).toBe(200);
  return { ticketId: ticket.body.id, number };
}

beforeAll(async () => {
  ai = await startFakeOpenAi();
  t = await createTestApp({}, { ai: { timeoutMs: 400 }, jobBackoffMs: () => 20 });
  queueA = await createQueue(t, "Suporte técnico");
  const queueB = await createQueue(t, "Financeiro");
  sim = await pairedSimulator(t, { queueIds: [queueA, queueB], greetingMessage: "Olá! Escolha um setor." });
  agent = await t.createUser({ name: "Ana", queueIds: [queueA] });
  colleague = await t.createUser({ name: "Bruno", queueIds: [queueB] });
  await set("aiBaseUrl", ai.baseUrl);
  await set("aiApiKey", FAKE_AI_KEY);
  await set("aiModel", "gpt-4o-mini");
  await api(t, t.adminToken, "POST", "/quickAnswers", {
    shortcut: "roteador",
    message: "Desligue o roteador da tomada por 30 segundos e ligue de novo; as luzes devem ficar verdes.",
  });
  await api(t, t.adminToken, "POST", "/quickAnswers", { shortcut: "boleto", message: "A segunda via do boleto está no nosso site." });
});
afterAll(async () => {
  await t.teardown();
  await ai.close();
});
beforeEach(async () => {
  await set("aiEnabled", "enabled");
  await set("aiRedact", "enabled");
  await set("aiTranscriptionModel", "");
});

describe("off by default", () => {
  it("answers 404 ERR_AI_DISABLED, sends nothing, and a voice note is not transcribed", async () => {
    await set("aiEnabled", "disabled");
    await set("aiTranscriptionModel", "whisper-1");
    const { ticketId, number } = await openTicket();
    const before = ai.paths.length;
    for (const kind of ["suggestions", "summary"]) {
      const res = await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/${kind}`, {});
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("ERR_AI_DISABLED");
    }
    await customerSays(t, sim, number, "", { media: { data: VOICE_NOTE, mimetype: "audio/ogg; codecs=opus" } });
    await t.jobs.idle();
    expect(ai.paths.length).toBe(before);
    const msgs = (await api(t, agent.token, "GET", `/messages/${ticketId}`)).body.messages;
    expect(msgs[0].mediaType).toBe("audio");
    expect(msgs[0].transcription ?? null).toBeNull();
  });
});

describe("suggestions", () => {
  it("holds the ticket's messages, its queue and the matching quick answer; answers three replies to edit", async () => {
    const { ticketId, number } = await openTicket();
    await customerSays(t, sim, number, "Boa tarde, meu roteador está piscando vermelho e a internet caiu");
    await api(t, agent.token, "POST", `/messages/${ticketId}`, { body: "Olá! Vou verificar sua conexão." });
    await settle(t);
    const res = await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/suggestions`, { language: "pt-BR" });
    expect(res.status).toBe(200);
    expect(res.body.suggestions).toHaveLength(3);
    const sent = ai.chats.at(-1);
    expect(sent?.authorization).toBe(`Bearer ${FAKE_AI_KEY}`);
    expect(sent?.model).toBe("gpt-4o-mini");
    expect(sent?.text).toContain("Cliente: Boa tarde, meu roteador está piscando vermelho e a internet caiu");
    expect(sent?.text).toContain("Atendente: Olá! Vou verificar sua conexão.");
    expect(sent?.text).toContain("Suporte técnico");
    // the matching quick answer, not the one about invoices
    expect(sent?.text).toContain("Desligue o roteador da tomada por 30 segundos");
    expect(sent?.text).not.toContain("segunda via do boleto");
    // nothing was sent to the customer by asking
    const msgs = (await api(t, agent.token, "GET", `/messages/${ticketId}`)).body.messages;
    expect(msgs).toHaveLength(2);
  });

  it("never lets a CPF or an e-mail reach the AI server with aiRedact on, and puts them back in the suggestions", async () => {
    const { ticketId, number } = await openTicket();
    await customerSays(t, sim, number, `Meu CPF é ${CPF} e meu e-mail ${EMAIL}, liga no (49) 99123-4567`);
    const res = await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/suggestions`, {});
    expect(res.status).toBe(200);
    const sent = ai.chats.at(-1)?.text ?? "";
    expect(sent).not.toContain(CPF);
    expect(sent).not.toContain("52998224725");
    expect(sent).not.toContain(EMAIL);
    expect(sent).not.toContain("99123-4567");
    expect(sent).toContain("[CPF_1]");
    expect(sent).toContain("[EMAIL_1]");
    // the fake kept the first placeholder in its first suggestion: the agent reads the CPF again
    expect(res.body.suggestions[0]).toContain(CPF);

    await set("aiRedact", "disabled");
    await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/suggestions`, {});
    expect(ai.chats.at(-1)?.text).toContain(CPF);
  });

  it("is refused to another queue's agent (403) and nothing leaves", async () => {
    const { ticketId } = await openTicket();
    const before = ai.paths.length;
    for (const kind of ["suggestions", "summary"]) {
      const res = await api(t, colleague.token, "POST", `/tickets/${ticketId}/ai/${kind}`, {});
      expect(res.status).toBe(403);
    }
    expect(ai.paths.length).toBe(before);
  });
});

describe("grounded in the billing system", () => {
  it("with SGP configured, the prompt holds what the agent's panel shows: contract status, plan, open invoices", async () => {
    const sgp = await startFakeSgp();
    try {
      for (const [key, value] of [
        ["integrationSystem", "SGP"],
        ["integrationUrl", sgp.url],
        ["integrationApp", SGP_APP],
        ["integrationToken", SGP_TOKEN],
      ])
        await set(key, value);
      // the contact's number is the one SGP lists for contract 1001
      const contact = (await api(t, t.adminToken, "POST", "/contacts", { name: "Maria", number: "5549991234567" })).body;
      const ticket = await api(t, t.adminToken, "POST", "/tickets", {
        contactId: contact.id,
        whatsappId: sim.whatsappId,
        queueId: queueA,
        status: "open",
        userId: agent.id,
      });
      await customerSays(t, sim, "5549991234567", "Quero pagar minha fatura");
      const res = await api(t, agent.token, "POST", `/tickets/${ticket.body.id}/ai/suggestions`, {});
      expect(res.status).toBe(200);
      const sent = ai.chats.at(-1)?.text ?? "";
      expect(sent).toContain("Suspenso");
      expect(sent).toContain("FIBRA 300M");
      expect(sent).toContain("vencimento 2026-09-10, R$ 89,90");
      expect(sent).toContain("vencimento 2026-11-10, R$ 99,90");
      // the phone SGP keeps is not part of it
      expect(sent).not.toContain("99123-4567");
    } finally {
      await set("integrationUrl", "");
      await sgp.close();
    }
  });
});

describe("summary", () => {
  it("summarises the ticket from its messages for a transfer", async () => {
    const { ticketId, number } = await openTicket();
    await customerSays(t, sim, number, `Sem internet desde ontem, CPF ${CPF}`);
    const res = await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/summary`, {});
    expect(res.status).toBe(200);
    expect(res.body.summary).toContain("Pendente");
    expect(res.body.summary).toContain(CPF);
    const sent = ai.chats.at(-1)?.text ?? "";
    expect(sent).toContain("Sem internet desde ontem");
    expect(sent).not.toContain(CPF);
  });
});

describe("failures are clear and the inbox keeps working", () => {
  const cases: [Parameters<FakeOpenAi["failNext"]>[0], number, string][] = [
    ["401", 502, "ERR_AI_UNAUTHORIZED"],
    ["429", 429, "ERR_AI_RATE_LIMITED"],
    ["timeout", 504, "ERR_AI_TIMEOUT"],
    ["500", 503, "ERR_AI_UNAVAILABLE"],
    ["malformed", 502, "ERR_AI_BAD_ANSWER"],
  ];
  for (const [kind, status, code] of cases)
    it(`the AI server's ${kind} → ${status} ${code}, recorded`, async () => {
      const { ticketId, number } = await openTicket();
      ai.failNext(kind);
      const res = await t.app.inject({
        method: "POST",
        url: `/tickets/${ticketId}/ai/suggestions`,
        headers: { authorization: `Bearer ${agent.token}` },
        payload: {},
      });
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toBe(code);
      // the AI server's own Retry-After is passed on
      if (kind === "429") expect(res.headers["retry-after"]).toBe("7");
      const calls = (await api(t, t.adminToken, "GET", `/ai/calls?ticketId=${ticketId}`)).body.calls;
      expect(calls[0]).toMatchObject({ kind: "suggestions", status: code, userName: "Ana" });
      // the inbox goes on: the customer's next message is stored
      await customerSays(t, sim, number, "Alô?");
      const msgs = (await api(t, agent.token, "GET", `/messages/${ticketId}`)).body.messages;
      expect(msgs.some((m: { body: string }) => m.body === "Alô?")).toBe(true);
    });

  it("an AI server that is down → 503 ERR_AI_UNAVAILABLE", async () => {
    const { ticketId } = await openTicket();
    // the key typed again with each address (a saved one goes only to the saved address)
    const move = async (value: string) =>
      expect((await api(t, t.adminToken, "PUT", "/settings/aiBaseUrl", { value, secret: FAKE_AI_KEY })).status).toBe(200);
    await move("http://127.0.0.1:9/v1");
    try {
      const res = await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/summary`, {});
      expect(res.status).toBe(503);
      expect(res.body.error).toBe("ERR_AI_UNAVAILABLE");
    } finally {
      await move(ai.baseUrl);
    }
  });
});

describe("per-user limit", () => {
  it("the 21st request in a minute answers 429 with Retry-After, and does not reach the AI server", async () => {
    const busy = await t.createUser({ name: "Carla", queueIds: [queueA] });
    const { ticketId } = await openTicket();
    await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { userId: busy.id, status: "open" });
    for (let i = 0; i < 20; i++) expect((await api(t, busy.token, "POST", `/tickets/${ticketId}/ai/summary`, {})).status).toBe(200);
    const before = ai.paths.length;
    const res = await t.app.inject({
      method: "POST",
      url: `/tickets/${ticketId}/ai/summary`,
      headers: { authorization: `Bearer ${busy.token}` },
      payload: {},
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe("ERR_AI_RATE_LIMITED");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(ai.paths.length).toBe(before);
  });
});

describe("the call record", () => {
  it("keeps who, ticket, kind, characters out and status, never the content; admins only", async () => {
    const { ticketId, number } = await openTicket();
    await customerSays(t, sim, number, `Segredo do cliente ${EMAIL}`);
    expect((await api(t, agent.token, "POST", `/tickets/${ticketId}/ai/suggestions`, {})).status).toBe(200);
    const res = await api(t, t.adminToken, "GET", `/ai/calls?ticketId=${ticketId}`);
    expect(res.status).toBe(200);
    const [call] = res.body.calls;
    expect(call).toMatchObject({ kind: "suggestions", userId: agent.id, userName: "Ana", ticketId, status: "ok" });
    expect(call.charsOut).toBeGreaterThan(100);
    expect(JSON.stringify(res.body)).not.toContain("Segredo");
    expect((await api(t, agent.token, "GET", "/ai/calls")).status).toBe(403);
  });
});

describe("voice notes", () => {
  it("a customer's voice note from the simulator gets its transcription on the message and the socket", async () => {
    await set("aiTranscriptionModel", "whisper-1");
    const { ticketId, number } = await openTicket();
    const socket = await socketFor(await listen(t), agent.token);
    try {
      const updates = recorder<{ action: string; message: { id: number; transcription?: string | null } }>(socket, "appMessage");
      expect(await emitAck(socket, "joinChatBox", ticketId)).toEqual({ ok: true });
      const before = ai.audios.length;
      await customerSays(t, sim, number, "", { media: { data: VOICE_NOTE, mimetype: "audio/ogg; codecs=opus" } });
      const heardFirst = updates.waitFor((p) => p.action === "update" && Boolean(p.message.transcription), 10_000);
      await heardFirst;
      expect(ai.audios.length - before).toBe(1);
      const audio = ai.audios.at(-1);
      expect(audio).toMatchObject({ model: "whisper-1", language: "pt", authorization: `Bearer ${FAKE_AI_KEY}` });
      expect(audio?.fileName).toMatch(/\.ogg$/);
      expect(audio?.fileBytes).toBe(VOICE_NOTE.length);
      const msgs = (await api(t, agent.token, "GET", `/messages/${ticketId}`)).body.messages;
      const note = msgs.find((m: { mediaType: string }) => m.mediaType === "audio");
      expect(note.transcription).toBe(ai.transcript);
      const heard = await updates.waitFor((p) => p.action === "update" && p.message.id === note.id && Boolean(p.message.transcription));
      expect(heard.message.transcription).toBe(ai.transcript);
    } finally {
      socket.close();
    }
  });

  it("is retried after a 429 and a 500, and never retried after a 401", async () => {
    await set("aiTranscriptionModel", "whisper-1");
    const first = await openTicket();
    ai.failNext("429");
    ai.failNext("500");
    const before = ai.audios.length;
    await customerSays(t, sim, first.number, "", { media: { data: VOICE_NOTE, mimetype: "audio/ogg; codecs=opus" } });
    await eventually(async () => {
      const msgs = (await api(t, agent.token, "GET", `/messages/${first.ticketId}`)).body.messages;
      return msgs.some((m: { transcription?: string | null }) => m.transcription === ai.transcript);
    }, "the transcription after two failures");
    expect(ai.audios.length - before).toBe(1);
    expect(ai.paths.filter((p) => p === "/v1/audio/transcriptions").length).toBeGreaterThanOrEqual(3);

    const second = await openTicket();
    ai.failNext("401");
    const paths = ai.paths.length;
    await customerSays(t, sim, second.number, "", { media: { data: VOICE_NOTE, mimetype: "audio/ogg; codecs=opus" } });
    const recordedCalls = async () => (await api(t, t.adminToken, "GET", `/ai/calls?ticketId=${second.ticketId}`)).body.calls;
    await eventually(async () => (await recordedCalls()).length > 0, "the transcription's call record");
    await t.jobs.idle();
    expect(ai.paths.length - paths).toBe(1);
    const calls = await recordedCalls();
    expect(calls).toMatchObject([{ kind: "transcription", status: "ERR_AI_UNAUTHORIZED", userId: null }]);
  });
});

describe("with ALLOWED_PRIVATE_HOSTS unset (the default)", () => {
  it("an AI server on an internal address is refused before anything leaves", async () => {
    const strict = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "" });
    try {
      const before = ai.paths.length;
      for (const baseUrl of [ai.baseUrl, ai.baseUrl.replace("127.0.0.1", "localhost")]) {
        const res = await api(strict, strict.adminToken, "POST", "/ai/test", { baseUrl, apiKey: FAKE_AI_KEY });
        expect(res.status).toBe(200);
        expect(res.body.ok).toBe(false);
        // what to do, not "the server is down" (issue 53): the refusal is ALLOWED_PRIVATE_HOSTS's
        expect(res.body.detail).toContain(`${new URL(baseUrl).host} é um endereço da rede interna`);
        expect(res.body.detail).toContain("ALLOWED_PRIVATE_HOSTS");
        expect(res.body.detail).not.toContain("fora do ar");
      }
      expect(ai.paths.length).toBe(before);
    } finally {
      await strict.teardown();
    }
  });
});

describe("'Testar' in the settings", () => {
  it("tests the typed values; the saved key goes only to the saved address", async () => {
    const ok = await api(t, t.adminToken, "POST", "/ai/test", { model: "gpt-4o-mini" });
    expect(ok.body).toMatchObject({ ok: true, models: ["gpt-4o-mini", "whisper-1"] });
    expect(ai.paths.at(-1)).toBe("/v1/models");

    const wrongModel = await api(t, t.adminToken, "POST", "/ai/test", { model: "llama3" });
    expect(wrongModel.body.ok).toBe(false);
    expect(wrongModel.body.detail).toContain("llama3");

    // the same server under another address: the saved key is not sent there
    const other = ai.baseUrl.replace("127.0.0.1", "localhost");
    const refused = await api(t, t.adminToken, "POST", "/ai/test", { baseUrl: other });
    expect(refused.body.ok).toBe(false);
    expect(refused.body.detail).toContain("401");
    const typedKey = await api(t, t.adminToken, "POST", "/ai/test", { baseUrl: other, apiKey: FAKE_AI_KEY });
    expect(typedKey.body.ok).toBe(true);
  });

  it("is behind the settings gate like other settings writes", async () => {
    await set("settingsPassword", "segredo123");
    const res = await api(t, t.adminToken, "POST", "/ai/test", {});
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("ERR_SETTINGS_LOCKED");
  });
});
