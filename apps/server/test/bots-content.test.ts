import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createQueue,
  customerSays,
  eventually,
  listen,
  multipart,
  nextEvent,
  PNG,
  pairedSimulator,
  phoneOf,
  recorder,
  type SimConnection,
  socketFor,
} from "./conversation-kit.js";
import { startFake } from "./fakes/http-fake.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** Chat entries and audio entries: admins write them, everyone reads; a shortcut in a ticket without an agent gets its entry. */

let t: TestApp;
let agent: { id: number; token: string };
let sim: SimConnection;

beforeAll(async () => {
  t = await createTestApp();
  const q1 = await createQueue(t, "Suporte");
  const q2 = await createQueue(t, "Financeiro");
  agent = await t.createUser({ name: "Ana", queueIds: [q1, q2] });
  sim = await pairedSimulator(t, { queueIds: [q1, q2], greetingMessage: "Escolha:" });
});
afterAll(() => t.teardown());

/** A short real WAV (mono 8 kHz, a 440 Hz tone): what an admin might upload. */
function wav(seconds = 0.5): Buffer {
  const rate = 8000;
  const n = Math.floor(rate * seconds);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "latin1");
  h.writeUInt32LE(36 + data.length, 4);
  h.write("WAVEfmt ", 8, "latin1");
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36, "latin1");
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

async function upload(token: string, url: string, field: string, name: string, type: string, data: Buffer) {
  const form = multipart({}, [{ field, name, type, data }]);
  const res = await t.app.inject({ method: "POST", url, headers: { ...bearer(token), ...form.headers }, payload: form.payload });
  return { status: res.statusCode, body: res.json() };
}

describe("chat entries", () => {
  it("admins create, edit and delete; agents read but cannot write; each change is an event", async () => {
    const created = nextEvent(t, "chatbot.changed", (p) => p.action === "create");
    const res = await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "horario", message: "Das 8h às 18h.", url: "" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ shortcut: "horario", message: "Das 8h às 18h.", url: "" });
    expect((await created).action).toBe("create");
    expect((await api(t, agent.token, "GET", "/chatbot")).body.map((e: { shortcut: string }) => e.shortcut)).toContain("horario");
    expect((await api(t, agent.token, "POST", "/chatbot", { shortcut: "x", message: "y" })).status).toBe(403);
    expect((await api(t, agent.token, "PUT", `/chatbot/${res.body.id}`, { message: "z" })).status).toBe(403);
    const edited = await api(t, t.adminToken, "PUT", `/chatbot/${res.body.id}`, { message: "Das 8h às 20h." });
    expect(edited.body.message).toBe("Das 8h às 20h.");
    expect((await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "  ", message: "y" })).status).toBe(400);
    const deleted = nextEvent(t, "chatbot.changed", (p) => p.action === "delete");
    expect((await api(t, t.adminToken, "DELETE", `/chatbot/${res.body.id}`)).status).toBe(200);
    expect(await deleted).toEqual({ action: "delete", id: res.body.id });
    expect((await api(t, t.adminToken, "DELETE", `/chatbot/${res.body.id}`)).body.error).toBe("ERR_NO_CHATBOT_FOUND");
  });

  it("the image upload takes images judged by their bytes", async () => {
    const ok = await upload(t.adminToken, "/chatbot/upload", "image", "p.png", "image/png", PNG);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, url: expect.stringMatching(/^\/media\/[a-f0-9]{32}\.png$/) });
    const fake = await upload(t.adminToken, "/chatbot/upload", "image", "p.png", "image/png", Buffer.from("not an image at all"));
    expect(fake.status).toBe(400);
    expect((await upload(agent.token, "/chatbot/upload", "image", "p.png", "image/png", PNG)).status).toBe(403);
  });

  it("a customer's message equal to a shortcut (case and accents ignored) gets the entry's text and image; not in an agent's ticket", async () => {
    const img = await upload(t.adminToken, "/chatbot/upload", "image", "planos.png", "image/png", PNG);
    await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "Planos", message: "Nossos planos: 300 Mb por R$ 99.", url: img.body.url });
    await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "pix", message: "Chave PIX: 12.345.678/0001-90", url: "" });
    const num = "5511966600001";
    await customerSays(t, sim, num, "PLÁNOS");
    let phone = (await phoneOf(sim, num)).filter((m) => m.fromMe);
    // the entry, then the greeting and queue menu (the ticket still needs a queue)
    expect(phone.map((m) => [m.mediaType, m.body.split("\n")[0]])).toEqual([
      ["image", "Nossos planos: 300 Mb por R$ 99."],
      ["chat", "Escolha:"],
    ]);
    await customerSays(t, sim, num, "Pix!");
    phone = (await phoneOf(sim, num)).filter((m) => m.fromMe);
    expect(phone.at(-1)?.body).toBe("Chave PIX: 12.345.678/0001-90");
    // anything else goes on to the queue menu
    await customerSays(t, sim, num, "bom dia");
    phone = (await phoneOf(sim, num)).filter((m) => m.fromMe);
    expect(phone.at(-1)?.body).toContain("Escolha:");
    // once an agent has the ticket, shortcuts are the agent's business
    const tickets = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${num}`);
    const ticketId = tickets.body.tickets[0].id;
    expect((await api(t, agent.token, "PUT", `/tickets/${ticketId}`, { status: "open", userId: agent.id })).status).toBe(200);
    const count = phone.length;
    await customerSays(t, sim, num, "pix");
    expect((await phoneOf(sim, num)).filter((m) => m.fromMe)).toHaveLength(count);
  });

  it("an entry's image at an outside address is fetched with a size limit: a 50 MB answer is cut and the text still goes", async () => {
    const TOTAL = 50 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    let finished = false;
    const outside = await startFake((req, res) => {
      if (req.path === "/planos.png") return void res.writeHead(200, { "content-type": "image/png" }).end(PNG);
      res.writeHead(200, { "content-type": "image/png" });
      const pump = () => {
        while (written < TOTAL) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        finished = true;
        res.end();
      };
      pump();
    });
    try {
      await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "fora", message: "Imagem de fora", url: `${outside.url}/planos.png` });
      await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "enorme", message: "Imagem enorme", url: `${outside.url}/enorme.png` });
      const num = "5511966600091";
      await customerSays(t, sim, num, "fora");
      // the entry's answer first (the queue menu may follow it)
      expect((await phoneOf(sim, num)).filter((m) => m.fromMe).map((m) => [m.mediaType, m.body])[0]).toEqual(["image", "Imagem de fora"]);
      await customerSays(t, sim, num, "enorme");
      const enorme = (await phoneOf(sim, num)).filter((m) => m.fromMe && m.body === "Imagem enorme");
      expect(enorme.map((m) => m.mediaType ?? "chat")).toEqual(["chat"]);
      // the download stopped at the limit (UPLOAD_LIMIT, 16 MiB): the server could not push it all
      expect(finished).toBe(false);
      expect(written).toBeLessThan(TOTAL / 2);
    } finally {
      await outside.close();
    }
  });
});

describe("chat entries and the queue menu", () => {
  it("a shortcut answered first still leaves the ticket to the menu: the menu follows once, and the customer's choice routes it", async () => {
    await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "horarios", message: "Atendemos das 8h às 18h.", url: "" });
    const q1 = await createQueue(t, "Vendas");
    const q2 = await createQueue(t, "Cobrança");
    const s2 = await pairedSimulator(t, { queueIds: [q1, q2], greetingMessage: "Olá! Escolha um setor:" });
    const num = "5511966600078";
    await customerSays(t, s2, num, "Horários");
    let phone = (await phoneOf(s2, num)).filter((m) => m.fromMe).map((m) => m.body);
    expect(phone[0]).toBe("Atendemos das 8h às 18h.");
    expect(phone[1]).toContain("Olá! Escolha um setor:");
    expect(phone).toHaveLength(2);
    // another shortcut while the menu waits: its answer, not the menu again
    await customerSays(t, s2, num, "horarios");
    phone = (await phoneOf(s2, num)).filter((m) => m.fromMe).map((m) => m.body);
    expect(phone.slice(2)).toEqual(["Atendemos das 8h às 18h."]);
    const pick = /\*(\d+)\* - Cobrança/.exec(phone[1])?.[1] ?? "";
    await customerSays(t, s2, num, pick);
    const [ticket] = (await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${num}`)).body.tickets;
    expect([ticket.status, ticket.queueId]).toEqual(["pending", q2]);
  });
});

describe("live updates", () => {
  it("every signed-in socket hears chatbot:update and audiobot:update", async () => {
    const socket = await socketFor(await listen(t), agent.token);
    try {
      const chat = recorder<{ action: string; chatEntry?: { shortcut: string }; id?: number }>(socket, "chatbot:update");
      const audio = recorder<{ action: string; audioEntry?: { titulo: string }; id?: number }>(socket, "audiobot:update");
      const c = await api(t, t.adminToken, "POST", "/chatbot", { shortcut: "aovivo", message: "Ao vivo", url: "" });
      await chat.waitFor((p) => p.action === "create" && p.chatEntry?.shortcut === "aovivo");
      const a = await api(t, t.adminToken, "POST", "/audiobot", { titulo: "Ao vivo", url: "" });
      await audio.waitFor((p) => p.action === "create" && p.audioEntry?.titulo === "Ao vivo");
      await api(t, t.adminToken, "DELETE", `/audiobot/${a.body.id}`);
      await audio.waitFor((p) => p.action === "delete" && p.id === a.body.id);
      await api(t, t.adminToken, "DELETE", `/chatbot/${c.body.id}`);
      await chat.waitFor((p) => p.action === "delete" && p.id === c.body.id);
    } finally {
      socket.disconnect();
    }
  });
});

describe("audio entries", () => {
  it("an uploaded audio becomes an Ogg/Opus voice note; the entry keeps its title and address", async () => {
    const up = await upload(t.adminToken, "/audiobot/upload", "audio", "boas-vindas.wav", "audio/wav", wav());
    expect(up.status).toBe(200);
    expect(up.body.url).toMatch(/^\/media\/[a-f0-9]{32}\.ogg$/);
    const bytes = await readFile(join(t.config.dataDir, "media", up.body.url.slice("/media/".length)));
    expect((await fileTypeFromBuffer(bytes))?.mime).toBe("audio/ogg; codecs=opus");
    const served = await t.app.inject({ method: "GET", url: up.body.url, headers: bearer(agent.token) });
    expect(served.statusCode).toBe(200);

    const created = await api(t, t.adminToken, "POST", "/audiobot", { titulo: "Boas-vindas", url: up.body.url });
    expect(created.status).toBe(200);
    const list = await api(t, agent.token, "GET", "/audiobot");
    expect(list.body).toEqual([expect.objectContaining({ titulo: "Boas-vindas", url: up.body.url })]);
    expect((await api(t, agent.token, "POST", "/audiobot", { titulo: "x" })).status).toBe(403);
    const renamed = await api(t, t.adminToken, "PUT", `/audiobot/${created.body.id}`, { titulo: "Bem-vindo" });
    expect(renamed.body.titulo).toBe("Bem-vindo");
    expect((await api(t, t.adminToken, "DELETE", `/audiobot/${created.body.id}`)).status).toBe(200);
  });

  it("a file that is no audio is refused by its bytes, whatever its name says", async () => {
    const bad = await upload(t.adminToken, "/audiobot/upload", "audio", "song.mp3", "audio/mpeg", PNG);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_INVALID_FILE");
  });
});

describe("bot steps after a crash", () => {
  it("a customer message whose steps never ran (the process died after its commit) is answered by the job runner", async () => {
    const num = "5511966600077";
    await customerSays(t, sim, num, "oi");
    const before = (await phoneOf(sim, num)).filter((m) => m.fromMe).length;
    expect(before).toBe(1);
    await t.sender.idle();
    // nothing is left behind once the steps ran
    const { rows: left } = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from jobs where name = 'bots.inbound'`);
    expect(left[0].n).toBe(0);
    // the state a crash leaves: the message and its safety-net job committed, no bot answer
    const { rows } = await t.ctx.db.execute<{ id: number; ticket_id: number }>(sql`
      insert into messages (wid, whatsapp_id, body, from_me, read, ack, media_type, ticket_id, contact_id, source)
      select 'crash-' || t.id, t.whatsapp_id, 'bom dia', false, false, 0, 'chat', t.id, t.contact_id, 'customer'
      from tickets t join contacts c on c.id = t.contact_id where c.number = ${num}
      returning id, ticket_id`);
    const { id, ticket_id } = rows[0];
    await t.ctx.db.execute(sql`
      insert into jobs (name, payload, run_at, max_attempts, singleton_key)
      values ('bots.inbound', ${JSON.stringify({ messageId: id, ticketId: ticket_id })}::jsonb, now(), 3, ${`bots:msg:${id}`})`);
    t.jobs.wake();
    await eventually(async () => {
      const sent = (await phoneOf(sim, num)).filter((m) => m.fromMe);
      return sent.length > before && sent.at(-1)?.body.includes("Escolha:") === true;
    }, "the menu again, sent by the job");
    const answered = (await phoneOf(sim, num)).filter((m) => m.fromMe).length;
    expect(answered).toBeGreaterThan(before);
    // the answer can reach the phone before its job is marked done (its key is taken until then)
    await eventually(async () => {
      const { rows: j } = await t.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from jobs where singleton_key = ${`bots:msg:${id}`} and state <> 'done'`,
      );
      return j[0].n === 0;
    }, "the first job finished");
    // run again (a second crash): a bot already answered after it, nothing is sent twice
    await t.ctx.db.execute(sql`
      insert into jobs (name, payload, run_at, max_attempts, singleton_key)
      values ('bots.inbound', ${JSON.stringify({ messageId: id, ticketId: ticket_id })}::jsonb, now(), 3, ${`bots:msg:${id}`})`);
    t.jobs.wake();
    await eventually(async () => {
      const { rows: j } = await t.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from jobs where singleton_key = ${`bots:msg:${id}`} and state <> 'done'`,
      );
      return j[0].n === 0;
    }, "the second job done");
    expect((await phoneOf(sim, num)).filter((m) => m.fromMe)).toHaveLength(answered);
  });

  it("a message no bot can answer (its ticket is with an agent) is stored without a safety-net job; one a bot answers gets it", async () => {
    const num = "5511966600078";
    await customerSays(t, sim, num, "oi");
    await t.sender.idle();
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`select m.ticket_id as id from messages m join contacts c on c.id = m.contact_id where c.number = ${num} order by m.id desc limit 1`,
    );
    const ticketId = Number(rows[0].id);
    // the safety-net jobs stored with this ticket's messages (other tests' conversations may still be running)
    const jobsWritten: unknown[][] = [];
    const off = t.ctx.database.onQuery((q, params) => {
      const at = params.indexOf("bots.inbound");
      // the job's payload carries the ticket: the parameter after its name
      if (/insert into jobs/i.test(q) && at >= 0 && Number(params[at + 1]) === ticketId) jobsWritten.push(params);
    });
    try {
      // the menu waits for a choice: a bot may answer, the job goes with the message
      await customerSays(t, sim, num, "bom dia");
      expect(jobsWritten).toHaveLength(1);
      // an agent takes the ticket: no bot answers there any more, the message goes alone
      expect((await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { status: "open", userId: agent.id })).status).toBe(200);
      await customerSays(t, sim, num, "alguém aí?");
      expect(jobsWritten).toHaveLength(1);
      const { rows: stored } = await t.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from messages where ticket_id = ${ticketId} and body = 'alguém aí?'`,
      );
      expect(stored[0].n).toBe(1);
    } finally {
      off();
    }
  });
});
