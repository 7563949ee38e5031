import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createQueue,
  customerSays,
  eventually,
  PNG,
  pairedSimulator,
  phoneOf,
  type SimConnection,
  settle,
} from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { json, startFake } from "./fakes/http-fake.js";
import { type FakeFlow, type FakeTypebot, fakeTypebot, OGG_OPUS, rt } from "./fake-typebot.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * The Typebot bridge against a fake Typebot viewer built from the public chat API: a new
 * conversation starts a session, each message continues it, bubbles become WhatsApp messages,
 * choices are numbered lists, `#{…}` commands hand the ticket over, and the queue menu answers
 * when Typebot stays down.
 */

let t: TestApp;
let tb: FakeTypebot;
let flows: Record<string, FakeFlow>;
const bot = fakeClock();
let support: number;
let billing: number;
let agent: { id: number; token: string };
let n = 0;
const nextNumber = () => `55119777${String(++n).padStart(5, "0")}`;

beforeAll(async () => {
  t = await createTestApp({}, { botClock: bot.clock, jobBackoffMs: () => 20 });
  support = await createQueue(t, "Suporte", "Você está no suporte.");
  billing = await createQueue(t, "Financeiro", "");
  agent = await t.createUser({ name: "Ana", queueIds: [support, billing] });
  flows = {
    // the main flow: formatted text, an image, a choice, then a hand-over to the chosen queue
    main: [
      {
        bubbles: [
          {
            type: "text",
            richText: [
              rt.p("Olá, ", rt.bold("bem-vindo"), " à ", rt.italic("Fibra"), "! ", rt.strike("antigo"), " ", rt.underline("sublinhado")),
            ],
          },
          { type: "text", richText: [rt.p("Veja ", rt.link("https://fibra.example/planos", "os planos"))] },
          { type: "image", url: "/files/plano.png" },
        ],
        input: {
          type: "choice input",
          items: [
            { id: "i1", content: "Segunda via", next: 1 },
            { id: "i2", content: "Suporte técnico", next: 2 },
            { id: "i3", content: "Falar com a Ana", next: 3 },
          ],
        },
      },
      { bubbles: [rt.say("Vou te passar para o financeiro."), rt.say(`#{"queueId":${billing}}`)] },
      { bubbles: [rt.say("Suporte, um momento."), rt.say(`#{"queueId":${support}}`)] },
      { bubbles: [rt.say(`#{"queueId":${support},"userId":${agent.id}}`)] },
    ],
    // a wait between two bubbles, then a question
    waits: [
      {
        bubbles: [{ id: "w1", ...rt.say("Um instante...") }, rt.say("Pronto!")],
        actions: [{ type: "wait", lastBubbleBlockId: "w1", wait: { secondsToWaitFor: 3 } }],
        input: { type: "text input" },
      },
      { bubbles: [rt.say("Obrigado.")], input: { type: "text input" } },
    ],
    // a voice note and a video
    media: [{ bubbles: [{ type: "audio", url: "/files/voz.ogg" }, { type: "video", url: "/files/nope.mp4" }, rt.say("fim")] }],
    // stops the bot without a queue
    stop: [{ bubbles: [rt.say("Até logo"), rt.say(`#{"stopBot":true}`)] }],
    // asks one question and waits
    ask: [
      { bubbles: [rt.say("Qual seu nome?")], input: { type: "text input" } },
      { bubbles: [rt.say("Prazer!")], input: { type: "text input" } },
    ],
  };
  tb = await fakeTypebot(flows);
  tb.files.set("plano.png", { type: "image/png", data: PNG });
  tb.files.set("voz.ogg", { type: "audio/ogg", data: OGG_OPUS });
});
afterAll(async () => {
  await t.teardown();
  await tb.close();
});

async function typebotConnection(slug: string, extra: Record<string, unknown> = {}): Promise<SimConnection> {
  const sim = await pairedSimulator(t, { queueIds: [support, billing], greetingMessage: "Escolha um setor:" });
  const res = await api(t, t.adminToken, "PUT", `/typebot/settings/${sim.whatsappId}`, {
    enabled: true,
    baseUrl: tb.url,
    slug,
    delayMs: 0,
    ...extra,
  });
  expect(res.status).toBe(200);
  return sim;
}

async function ticketOf(number: string, whatsappId: number) {
  const { rows } = await t.ctx.db.execute<{ id: number; status: string; queue_id: number | null; user_id: number | null }>(
    sql`select t.id, t.status, t.queue_id, t.user_id from tickets t join contacts c on c.id = t.contact_id
        where c.number = ${number} and t.whatsapp_id = ${whatsappId} order by t.id desc limit 1`,
  );
  return rows[0];
}

/** The customer writes; waits until the bot's turn ran (its job done) and what it queued was sent. */
async function says(sim: SimConnection, number: string, body: string) {
  await customerSays(t, sim, number, body);
  await t.jobs.idle();
  await eventually(async () => {
    const { rows } = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from jobs where name = 'bots.typebot' and state in ('queued','running')`,
    );
    return rows[0].n === 0;
  }, "the bot's jobs");
  await t.jobs.idle();
  await settle(t);
}

const fromBot = async (sim: SimConnection, number: string) => (await phoneOf(sim, number)).filter((m) => m.fromMe);
const callsTo = (kind: "startChat" | "continueChat") => tb.calls.filter((c) => c.path.endsWith(kind));

describe("Typebot bridge", () => {
  it("a new conversation starts a session with the customer's number and name; bubbles become WhatsApp text, image and a numbered list", async () => {
    const sim = await typebotConnection("main");
    const num = nextNumber();
    const starts = callsTo("startChat").length;
    await says(sim, num, "oi");
    expect(callsTo("startChat").length).toBe(starts + 1);
    const start = callsTo("startChat").at(-1);
    expect(start?.path).toBe("/api/v1/typebots/main/startChat");
    expect(start?.body.prefilledVariables).toMatchObject({ number: num, pushName: `Cliente ${num.slice(-4)}` });
    const phone = await fromBot(sim, num);
    expect(phone.map((m) => (m.mediaType === "chat" ? m.body : m.mediaType))).toEqual([
      "Olá, *bem-vindo* à _Fibra_! ~antigo~ sublinhado",
      "Veja os planos (https://fibra.example/planos)",
      "image",
      "*1* - Segunda via\n*2* - Suporte técnico\n*3* - Falar com a Ana",
    ]);
    // no queue menu while the flow runs
    expect(phone.some((m) => m.body.includes("Escolha um setor"))).toBe(false);
  });

  it("a typed number picks the item: Typebot hears its exact text; the hand-over moves the ticket to that queue, pending, and the command is never sent", async () => {
    const sim = await typebotConnection("main");
    const num = nextNumber();
    await says(sim, num, "bom dia");
    await says(sim, num, " 1 ");
    expect(callsTo("continueChat").at(-1)?.body.message).toBe("Segunda via");
    const ticket = await ticketOf(num, sim.whatsappId);
    expect(ticket).toMatchObject({ status: "pending", queue_id: billing, user_id: null });
    const phone = await fromBot(sim, num);
    expect(phone.at(-1)?.body).toBe("Vou te passar para o financeiro.");
    expect(phone.some((m) => m.body.includes("#{"))).toBe(false);
    // the agents see the conversation so far
    const history = await api(t, agent.token, "GET", `/messages/${ticket.id}`);
    expect(history.status).toBe(200);
    const bodies = (history.body.messages as { body: string }[]).map((m) => m.body);
    expect(bodies).toContain("bom dia");
    expect(bodies).toContain("Vou te passar para o financeiro.");
    // the bot is done with this ticket: the next message calls nobody
    const calls = tb.calls.length;
    await says(sim, num, "alô?");
    expect(tb.calls.length).toBe(calls);
  });

  it("an item's text typed loosely (case, accents) is accepted; a hand-over with a user opens the ticket for that agent", async () => {
    const sim = await typebotConnection("main");
    const num = nextNumber();
    await says(sim, num, "oi");
    await says(sim, num, "falar com a ANA");
    expect(callsTo("continueChat").at(-1)?.body.message).toBe("Falar com a Ana");
    expect(await ticketOf(num, sim.whatsappId)).toMatchObject({ status: "open", queue_id: support, user_id: agent.id });
  });

  it("an answer that is no item gets the unknown-input text and the list again, without bothering Typebot", async () => {
    const sim = await typebotConnection("main", { unknownMessage: "Não entendi, responda com o número." });
    const num = nextNumber();
    await says(sim, num, "oi");
    const calls = tb.calls.length;
    await says(sim, num, "quero cancelar");
    expect(tb.calls.length).toBe(calls);
    const phone = await fromBot(sim, num);
    expect(phone.slice(-2).map((m) => m.body)).toEqual([
      "Não entendi, responda com o número.",
      "*1* - Segunda via\n*2* - Suporte técnico\n*3* - Falar com a Ana",
    ]);
    expect((await ticketOf(num, sim.whatsappId)).queue_id).toBeNull();
  });

  it("wait actions and the delay between bot messages are honoured, in order", async () => {
    const sim = await typebotConnection("waits", { delayMs: 700 });
    const num = nextNumber();
    bot.waits.length = 0;
    await says(sim, num, "oi");
    expect(bot.waits).toEqual([3000, 700]);
    expect((await fromBot(sim, num)).map((m) => m.body)).toEqual(["Um instante...", "Pronto!"]);
  });

  it("audio bubbles go as voice notes, video as video; a media that cannot be fetched is skipped", async () => {
    const sim = await typebotConnection("media");
    const num = nextNumber();
    await says(sim, num, "oi");
    const phone = await fromBot(sim, num);
    expect(phone.map((m) => m.mediaType)).toEqual(["audio", "chat"]);
    expect(phone[0].mimetype).toMatch(/^audio\/ogg/);
  });

  it("an audio entry of ours named by its full address goes as a voice note without being fetched", async () => {
    const stored = await t.conv.media.storeUpload(OGG_OPUS);
    flows.entry = [{ bubbles: [{ type: "audio", url: `https://balcao.example/media/${stored.key}` }] }];
    const sim = await typebotConnection("entry");
    const num = nextNumber();
    await says(sim, num, "oi");
    const phone = await fromBot(sim, num);
    expect(phone.map((m) => m.mediaType)).toEqual(["audio"]);
    const { rows } = await t.ctx.db.execute<{ media_key: string }>(
      sql`select m.media_key from messages m join tickets t on t.id = m.ticket_id join contacts c on c.id = t.contact_id
          where c.number = ${num} and m.from_me`,
    );
    expect(rows.map((r) => r.media_key)).toEqual([stored.key]);
  });

  it("stopBot ends the bot: the ticket stays waiting without a queue and nothing answers any more", async () => {
    const sim = await typebotConnection("stop");
    const num = nextNumber();
    await says(sim, num, "oi");
    expect((await fromBot(sim, num)).map((m) => m.body)).toEqual(["Até logo"]);
    const calls = tb.calls.length;
    await says(sim, num, "alguém?");
    expect(tb.calls.length).toBe(calls);
    expect((await fromBot(sim, num)).length).toBe(1);
    expect(await ticketOf(num, sim.whatsappId)).toMatchObject({ status: "pending", queue_id: null });
  });

  it("an agent's message pauses the bot on the ticket", async () => {
    const sim = await typebotConnection("ask");
    const num = nextNumber();
    await says(sim, num, "oi");
    const ticket = await ticketOf(num, sim.whatsappId);
    // an agent takes the ticket, writes, and puts it back in the waiting list without a queue
    expect((await api(t, agent.token, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: agent.id })).status).toBe(200);
    expect((await api(t, agent.token, "POST", `/messages/${ticket.id}`, { body: "Oi, aqui é um atendente." })).status).toBe(200);
    expect((await api(t, t.adminToken, "PUT", `/tickets/${ticket.id}`, { status: "pending", userId: null, queueId: null })).status).toBe(
      200,
    );
    await settle(t);
    expect(await ticketOf(num, sim.whatsappId)).toMatchObject({ status: "pending", user_id: null, queue_id: null });
    const calls = tb.calls.length;
    await says(sim, num, "João");
    expect(tb.calls.length).toBe(calls);
    expect((await fromBot(sim, num)).map((m) => m.body)).toEqual(["Qual seu nome?", "Oi, aqui é um atendente."]);
  });

  it("whatever writes the message: one from the paired phone pauses the bot in its own transaction; a customer's, a bot's or a rolled back one does not", async () => {
    const sim = await typebotConnection("ask");
    const num = nextNumber();
    await says(sim, num, "oi");
    const ticket = await ticketOf(num, sim.whatsappId);
    const state = async () =>
      (
        await t.ctx.db.execute<{ paused: boolean; step: string | null }>(
          sql`select paused_at is not null as paused, step from bot_sessions where ticket_id = ${ticket.id}`,
        )
      ).rows[0];
    expect(await state()).toMatchObject({ paused: false, step: "typebot" });
    const write = (fromMe: boolean, source: string) =>
      sql`insert into messages (wid, whatsapp_id, body, from_me, ticket_id, source) values (${`W${source}${Date.now()}`}, ${sim.whatsappId}, 'x', ${fromMe}, ${ticket.id}, ${source})`;
    await t.ctx.db.execute(write(false, "customer"));
    await t.ctx.db.execute(write(true, "bot"));
    await t.ctx.db
      .transaction(async (tx) => {
        await tx.execute(write(true, "phone"));
        throw new Error("rollback");
      })
      .catch(() => undefined);
    expect(await state()).toMatchObject({ paused: false, step: "typebot" });
    await t.ctx.db.execute(write(true, "phone"));
    expect(await state()).toMatchObject({ paused: true, step: null });
    const calls = tb.calls.length;
    await says(sim, num, "João");
    expect(tb.calls.length).toBe(calls);
  });

  it("a session quiet longer than the expiry starts over; one Typebot forgot (404) starts over at the next message", async () => {
    const sim = await typebotConnection("ask", { expiryMinutes: 5 });
    const num = nextNumber();
    await says(sim, num, "oi");
    await says(sim, num, "João");
    expect((await fromBot(sim, num)).map((m) => m.body)).toEqual(["Qual seu nome?", "Prazer!"]);
    bot.advance(6 * 60_000);
    const starts = callsTo("startChat").length;
    await says(sim, num, "voltei");
    expect(callsTo("startChat").length).toBe(starts + 1);
    expect((await fromBot(sim, num)).at(-1)?.body).toBe("Qual seu nome?");
    tb.forgetAll();
    await says(sim, num, "Maria");
    expect(callsTo("continueChat").at(-1)?.status).toBe(404);
    expect(callsTo("startChat").length).toBe(starts + 2);
    expect((await fromBot(sim, num)).at(-1)?.body).toBe("Qual seu nome?");
  });

  it("Typebot down: the turn is retried on the job runner, then the queue menu answers", async () => {
    const sim = await typebotConnection("main");
    const num = nextNumber();
    tb.down = true;
    try {
      const before = tb.calls.length;
      await says(sim, num, "oi");
      await eventually(async () => (await fromBot(sim, num)).length > 0, "the fallback answer");
      expect(tb.calls.slice(before).map((c) => c.status)).toEqual([503, 503, 503]);
      const phone = await fromBot(sim, num);
      expect(phone.map((m) => m.body)).toEqual(["Escolha um setor:\n\n*1* - Financeiro\n*2* - Suporte"]);
      // the menu goes on from there
      await says(sim, num, "2");
      expect(await ticketOf(num, sim.whatsappId)).toMatchObject({ status: "pending", queue_id: support });
    } finally {
      tb.down = false;
    }
  });

  it("the end keyword stops the bot and the queue menu takes over", async () => {
    const sim = await typebotConnection("ask", { endKeyword: "atendente" });
    const num = nextNumber();
    await says(sim, num, "oi");
    const calls = tb.calls.length;
    await says(sim, num, "Atendente!");
    expect(tb.calls.length).toBe(calls);
    expect((await fromBot(sim, num)).at(-1)?.body).toBe("Escolha um setor:\n\n*1* - Financeiro\n*2* - Suporte");
  });
});

describe("Typebot settings", () => {
  it("the API key is write-only, blank keeps it; expiry, end keyword, unknown text and delay are kept", async () => {
    const sim = await pairedSimulator(t, {});
    const url = `/typebot/settings/${sim.whatsappId}`;
    const saved = await api(t, t.adminToken, "PUT", url, {
      enabled: true,
      baseUrl: "https://bot.example",
      slug: "x",
      apiKey: "secret-key",
      expiryMinutes: 15,
      endKeyword: "parar",
      unknownMessage: "Hã?",
      delayMs: 500,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      enabled: true,
      baseUrl: "https://bot.example",
      slug: "x",
      hasApiKey: true,
      expiryMinutes: 15,
      endKeyword: "parar",
      unknownMessage: "Hã?",
      delayMs: 500,
    });
    expect(JSON.stringify(saved.body)).not.toContain("secret-key");
    const kept = await api(t, t.adminToken, "PUT", url, { enabled: true, baseUrl: "https://bot.example", slug: "y", apiKey: "" });
    expect(kept.body).toMatchObject({ hasApiKey: true, slug: "y", expiryMinutes: 15 });
    expect((await api(t, t.adminToken, "PUT", url, { enabled: true, baseUrl: "", slug: "y" })).status).toBe(400);
    expect((await api(t, t.adminToken, "PUT", url, { enabled: true, baseUrl: "ftp://x", slug: "y" })).status).toBe(400);
    expect((await api(t, t.adminToken, "PUT", url, { enabled: false, baseUrl: "", slug: "", delayMs: 20_000 })).status).toBe(400);
  });
  it("the saved key is sent only to the saved address: a new address needs the key typed (issue 33)", async () => {
    const sim = await typebotConnection("ask", { apiKey: "chave-salva-123" });
    const url = `/typebot/settings/${sim.whatsappId}`;
    const outside = await startFake((_req, res) => json(res, 200, { sessionId: "s", messages: [] }));
    try {
      const moved = await api(t, t.adminToken, "PUT", url, { enabled: true, baseUrl: outside.url, slug: "ask", delayMs: 0 });
      expect(moved.status).toBe(400);
      expect(moved.body).toEqual({
        error: "ERR_VALIDATION",
        fields: { apiKey: ["Digite a chave de API para o novo endereço: a chave salva só é enviada ao endereço salvo."] },
      });
      // still the old address: a customer's message goes there, with the key
      const num = nextNumber();
      await says(sim, num, "oi");
      expect(outside.requests).toHaveLength(0);
      // the same address written with a trailing slash keeps the key
      expect(
        (await api(t, t.adminToken, "PUT", url, { enabled: true, baseUrl: `${tb.url}/`, slug: "ask", delayMs: 0 })).body,
      ).toMatchObject({
        hasApiKey: true,
      });
      // the key typed: the new address gets it, never the saved one
      const typed = await api(t, t.adminToken, "PUT", url, {
        enabled: true,
        baseUrl: outside.url,
        slug: "ask",
        apiKey: "chave-nova",
        delayMs: 0,
      });
      expect(typed.body).toMatchObject({ hasApiKey: true, baseUrl: outside.url });
      await says(sim, nextNumber(), "oi");
      expect(outside.requests.length).toBeGreaterThan(0);
      expect(outside.requests.map((r) => r.headers.authorization)).toEqual(outside.requests.map(() => "Bearer chave-nova"));
      // no address (the bot turned off): the key is dropped, there is nowhere to send it
      const off = await api(t, t.adminToken, "PUT", url, { enabled: false, baseUrl: "", slug: "" });
      expect(off.body).toMatchObject({ hasApiKey: false });
    } finally {
      await outside.close();
    }
  });
});
