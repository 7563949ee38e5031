import { rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { WACallEvent, WAMessage, WAMessageUpdate } from "baileys";
import { sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../src/app.js";
import { createBaileysChannel } from "../src/channels/baileys/driver.js";
import type { BaileysSocketConfig } from "../src/channels/baileys/socket.js";
import type { Config } from "../src/config.js";
import { DEMO_ADMIN } from "../src/config.js";
import type { Database } from "../src/db/client.js";
import { FakeSocket, flush, ManualTimer, ME_JID, ME_LID } from "./baileys-fake-socket.js";
import { multipart, PNG, recorder, socketFor } from "./conversation-kit.js";
import { bearer, createTestDatabase, testConfig } from "./helpers.js";

/**
 * The Baileys driver over a fake socket, through the real channel manager, inbound pipeline,
 * HTTP API and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): pairing, every inbound
 * type, LIDs, acks, calls, sends, media both ways, getMessage and a restart on the stored auth.
 */

// ---------- harness ----------

/** The bytes the fake "downloads" for an inbound media message, by message id. */
const downloads = new Map<string, Buffer>();

interface Harness {
  built: App;
  sockets: FakeSocket[];
  token: string;
  timer: ManualTimer;
}

async function boot(database: Database, config: Config): Promise<Harness> {
  const sockets: FakeSocket[] = [];
  const timer = new ManualTimer();
  const built = await buildApp(config, {
    database,
    logger: false,
    serveWeb: false,
    channelFactories: {
      baileys: (deps) =>
        createBaileysChannel(deps, {
          socketFactory: (c: BaileysSocketConfig) => {
            const s = new FakeSocket(c);
            sockets.push(s);
            return s;
          },
          // no waits: reconnects only when a test fires the timer, sends never paced
          timer,
          random: () => 0.5,
          downloadMedia: async (msg: WAMessage) => {
            const data = downloads.get(msg.key.id ?? "");
            if (!data) throw new Error("media gone");
            return data;
          },
        }),
    },
  });
  await built.app.ready();
  const res = await built.app.inject({
    method: "POST",
    url: "/auth/login",
    payload: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
  });
  return { built, sockets, timer, token: res.json().token as string };
}

let database: Database;
let drop: () => Promise<void>;
let config: Config;
let h: Harness;
let whatsappId: number;
let url: string;
let admin: Socket;

const live = () => h.sockets[h.sockets.length - 1];

async function api(method: "GET" | "POST" | "PUT" | "DELETE", path: string, payload?: unknown) {
  const res = await h.built.app.inject({
    method,
    url: path,
    headers: bearer(h.token),
    ...(payload !== undefined && { payload: payload as object }),
  });
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely
  return { status: res.statusCode, body: body as any, raw: res.rawPayload };
}

async function rows<T extends Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await h.built.ctx.db.execute<T>(query)).rows as T[];
}

/** Lets the driver's queued work run, then waits until the pipeline has handled every event and the outbox sent what it holds. */
async function settle() {
  for (let i = 0; i < 3; i++) {
    await flush();
    await h.built.channels.idle();
    await h.built.sender.idle();
  }
}

/** Polls a condition (no fixed sleeps): the driver writes some things after the events it emits. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function inbound(...messages: WAMessage[]) {
  live().emit("messages.upsert", { messages, type: "notify" });
  await settle();
}

let seq = 0;
const wid = (tag: string) => `3EB0PIPE${tag}${String(++seq).padStart(4, "0")}`;
const pnJid = (n: string) => `${n}@s.whatsapp.net`;
const lidJid = (l: string) => `${l}@lid`;

/** A customer's message as Baileys delivers it, by number with the LID beside it unless told otherwise. */
function waMessage(
  from: { pn?: string; lid?: string },
  message: WAMessage["message"],
  extra: { id?: string; fromMe?: boolean; pushName?: string } = {},
): WAMessage {
  const remoteJid = from.pn ? pnJid(from.pn) : lidJid(from.lid ?? "");
  const alt = from.pn && from.lid ? lidJid(from.lid) : undefined;
  return {
    key: { remoteJid, ...(alt && { remoteJidAlt: alt }), fromMe: extra.fromMe ?? false, id: extra.id ?? wid("M") },
    messageTimestamp: 1767261600,
    ...(extra.pushName !== undefined ? { pushName: extra.pushName } : extra.fromMe ? {} : { pushName: "Maria Souza" }),
    message,
  } as WAMessage;
}

async function messageByWid(id: string) {
  const [m] = await rows<{
    id: number;
    ticket_id: number;
    body: string;
    from_me: boolean;
    ack: number;
    media_type: string;
    media_key: string | null;
    mimetype: string | null;
    file_name: string | null;
    data_json: string | null;
    contact_id: number | null;
    quoted_msg_id: number | null;
    is_deleted: boolean;
    is_edited: boolean;
    whatsapp_id: number;
  }>(sql`select *, id::int as id, quoted_msg_id::int as quoted_msg_id from messages where wid = ${id}`);
  return m;
}

async function contactsOf(number: string | null, lid: string | null) {
  return rows<{ id: number; name: string; number: string | null; lid: string | null; profile_pic_url: string; is_group: boolean }>(
    sql`select id, name, number, lid, profile_pic_url, is_group from contacts where number = ${number} or lid = ${lid} order by id`,
  );
}

async function liveTicketOf(contactId: number) {
  const [t] = await rows<{ id: number; status: string; unread_messages: number; is_group: boolean; user_id: number | null }>(
    sql`select id, status, unread_messages, is_group, user_id from tickets where contact_id = ${contactId} and status <> 'closed'`,
  );
  return t;
}

/** The socket calls of the live fake since a mark. */
function callsSince(mark: number, method: string) {
  return live()
    .calls.slice(mark)
    .filter((c) => c.method === method)
    .map((c) => c.args);
}

// a customer with number and LID, used across the inbound tests
const MARIA = { pn: "5511987650001", lid: "210987650000001" };

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  config = testConfig();
  h = await boot(database, config);
  await h.built.app.listen({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(h.built.app.server.address() as AddressInfo).port}`;
  admin = await socketFor(url, h.token);
});

afterAll(async () => {
  admin?.close();
  await h?.built.close();
  await drop?.();
  if (config) rmSync(config.dataDir, { recursive: true, force: true });
});

// ---------- pairing ----------

describe(`baileys through the pipeline (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("pairs by QR: OPENING → qrcode → CONNECTED in the database, on whatsappSession and in GET /whatsapp", async () => {
    const sessions = recorder<{ action: string; session: { id: number; status: string; qrcode: string } }>(admin, "whatsappSession");
    const created = await api("POST", "/whatsapp", {
      name: "WhatsApp Suporte",
      type: "baileys",
      acceptCalls: false,
      callRefuseMessage: "Não atendemos ligações por aqui, escreva sua dúvida.",
      // sends without waiting for the pace or a reply's typing gap (both have their own tests)
      sendIntervalMs: 0,
      sendJitterMs: 0,
      sendBurst: 20,
      replyGapMs: 0,
    });
    expect(created.status).toBe(200);
    whatsappId = created.body.id;
    await settle();
    expect(h.sockets).toHaveLength(1);
    // nothing stored yet: Baileys gets fresh credentials and will show a QR code
    expect(h.sockets[0].config.auth.creds.me).toBeUndefined();
    const status = async () => (await api("GET", `/whatsapp/${whatsappId}`)).body;
    expect(await status()).toMatchObject({ status: "OPENING", qrcode: "" });

    h.sockets[0].qr("2@primeiro-qr,abc");
    await settle();
    expect(await status()).toMatchObject({ status: "qrcode", qrcode: "2@primeiro-qr,abc" });

    // scanned: Baileys saves the identity and asks for a restart, then opens
    h.sockets[0].emit("creds.update", { me: { id: ME_JID, lid: ME_LID, name: "Provedor Net" }, registered: true });
    h.sockets[0].close(515);
    await until(
      async () => h.sockets.length,
      (n) => n === 2,
      "the restarted socket",
    );
    expect(h.sockets[0].ended).toBe(true);
    expect(h.sockets[0].listenerTotal()).toBe(0);
    // it reads back the identity saved just before the restart
    expect(h.sockets[1].config.auth.creds.me?.id).toBe(ME_JID);
    h.sockets[1].open();
    await settle();

    expect(await status()).toMatchObject({ status: "CONNECTED", qrcode: "", number: "5511900001111", retries: 0 });
    const list = (await api("GET", "/whatsapp")).body as { id: number; status: string; number: string }[];
    expect(list.find((w) => w.id === whatsappId)).toMatchObject({ status: "CONNECTED", number: "5511900001111" });

    await sessions.waitFor((p) => p.session.id === whatsappId && p.session.status === "CONNECTED");
    const seen = sessions.seen.filter((p) => p.session.id === whatsappId).map((p) => [p.session.status, p.session.qrcode]);
    const steps = seen.filter((s, i) => i === 0 || s[0] !== seen[i - 1][0]);
    expect(steps).toEqual([
      ["OPENING", ""],
      ["qrcode", "2@primeiro-qr,abc"],
      ["OPENING", ""],
      ["CONNECTED", ""],
    ]);

    // the credentials are in whatsapp_auth_keys, written with BufferJSON
    const [creds] = await until(
      () => rows<{ value: string }>(sql`select value from whatsapp_auth_keys where whatsapp_id = ${whatsappId} and key = 'creds'`),
      (r) => r.length === 1 && r[0].value.includes(ME_JID),
      "stored credentials",
    );
    expect(JSON.parse(creds.value)).toMatchObject({ me: { id: ME_JID }, registered: true });
  });

  // ---------- inbound ----------

  it("text: a new contact (number and LID), a pending ticket and the message, unread and ack 0", async () => {
    const id = wid("TXT");
    await inbound(waMessage(MARIA, { conversation: "Boa tarde, minha internet caiu" }, { id }));
    const m = await messageByWid(id);
    expect(m).toMatchObject({
      body: "Boa tarde, minha internet caiu",
      from_me: false,
      ack: 0,
      media_type: "chat",
      whatsapp_id: whatsappId,
    });
    const [contact] = await contactsOf(MARIA.pn, MARIA.lid);
    expect(contact).toMatchObject({ name: "Maria Souza", number: MARIA.pn, lid: MARIA.lid, is_group: false });
    expect(m.contact_id).toBe(contact.id);
    expect(await liveTicketOf(contact.id)).toMatchObject({ id: m.ticket_id, status: "pending", unread_messages: 1 });

    // a redelivery of the same message is a no-op
    await inbound(waMessage(MARIA, { conversation: "Boa tarde, minha internet caiu" }, { id }));
    expect(await rows(sql`select id from messages where wid = ${id}`)).toHaveLength(1);
  });

  it("extended text quoting an earlier message links quotedMsg", async () => {
    const first = wid("Q1");
    await inbound(waMessage(MARIA, { conversation: "Qual o valor do plano?" }, { id: first }));
    const reply = wid("Q2");
    await inbound(
      waMessage(
        MARIA,
        {
          extendedTextMessage: {
            text: "Isso mesmo, o plano de 300 mega",
            contextInfo: { stanzaId: first, participant: pnJid(MARIA.pn), quotedMessage: { conversation: "Qual o valor do plano?" } },
          },
        },
        { id: reply },
      ),
    );
    const quoted = await messageByWid(first);
    const m = await messageByWid(reply);
    expect(m).toMatchObject({ body: "Isso mesmo, o plano de 300 mega", quoted_msg_id: quoted.id });
    const listed = (await api("GET", `/messages/${m.ticket_id}`)).body.messages as { id: number; quotedMsg: unknown }[];
    expect(listed.find((x) => x.id === m.id)?.quotedMsg).toMatchObject({ id: quoted.id, body: "Qual o valor do plano?", fromMe: false });
  });

  it("image, audio, voice note, video, document and sticker: downloaded, stored and served at mediaUrl", async () => {
    const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(18, 1)]);
    const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
    const cases = [
      {
        tag: "IMG",
        content: { imageMessage: { mimetype: "image/jpeg", caption: "Foto do roteador" } },
        data: PNG,
        type: "image",
        body: "Foto do roteador",
      },
      {
        tag: "AUD",
        content: { audioMessage: { mimetype: "audio/mpeg", ptt: false, seconds: 40 } },
        data: Buffer.from("audio-file-bytes"),
        type: "audio",
        body: "",
      },
      {
        tag: "PTT",
        content: { audioMessage: { mimetype: "audio/ogg; codecs=opus", ptt: true, seconds: 7 } },
        data: Buffer.from("voice-note-bytes"),
        type: "audio",
        body: "",
      },
      {
        tag: "VID",
        content: { videoMessage: { mimetype: "video/mp4", caption: "Luz piscando" } },
        data: Buffer.from("video-bytes"),
        type: "video",
        body: "Luz piscando",
      },
      {
        tag: "DOC",
        content: { documentMessage: { mimetype: "application/pdf", fileName: "comprovante.pdf", title: "comprovante.pdf" } },
        data: PDF,
        type: "document",
        body: "comprovante.pdf",
      },
      { tag: "STK", content: { stickerMessage: { mimetype: "image/webp" } }, data: WEBP, type: "sticker", body: "" },
    ] as const;
    for (const c of cases) {
      const id = wid(c.tag);
      downloads.set(id, c.data);
      await inbound(waMessage(MARIA, c.content as WAMessage["message"], { id }));
      const m = await messageByWid(id);
      expect(m, c.tag).toMatchObject({ media_type: c.type, body: c.body });
      if (c.tag === "DOC") expect(m).toMatchObject({ file_name: "comprovante.pdf", mimetype: "application/pdf" });
      expect(m.media_key, c.tag).toBeTruthy();
      const listed = (await api("GET", `/messages/${m.ticket_id}?rowsPerPage=100`)).body.messages as {
        id: number;
        mediaUrl: string | null;
      }[];
      const mediaUrl = listed.find((x) => x.id === m.id)?.mediaUrl;
      expect(mediaUrl, c.tag).toBe(`/media/${m.media_key}`);
      const served = await h.built.app.inject({ method: "GET", url: mediaUrl as string });
      expect(served.statusCode, c.tag).toBe(200);
      expect(Buffer.compare(served.rawPayload, c.data), c.tag).toBe(0);
    }

    // media whose download fails still lands as a message, with a placeholder
    const lost = wid("LOST");
    await inbound(waMessage(MARIA, { imageMessage: { mimetype: "image/jpeg" } }, { id: lost }));
    expect(await messageByWid(lost)).toMatchObject({ media_key: null, body: "[mídia indisponível]" });
  });

  it("location and contact card keep their data; a reaction adds no message", async () => {
    const loc = wid("LOC");
    await inbound(
      waMessage(
        MARIA,
        { locationMessage: { degreesLatitude: -23.55052, degreesLongitude: -46.633308, name: "Casa", address: "Rua das Flores, 100" } },
        { id: loc },
      ),
    );
    const l = await messageByWid(loc);
    expect(l).toMatchObject({ media_type: "location", body: "Casa - Rua das Flores, 100" });
    expect(JSON.parse(l.data_json ?? "{}")).toMatchObject({ latitude: -23.55052, longitude: -46.633308 });

    const card = wid("VCF");
    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:João Técnico\nTEL;type=CELL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD";
    await inbound(waMessage(MARIA, { contactMessage: { displayName: "João Técnico", vcard } }, { id: card }));
    const v = await messageByWid(card);
    expect(v).toMatchObject({ media_type: "vcard", body: "João Técnico" });
    expect(JSON.parse(v.data_json ?? "{}")).toMatchObject({ displayName: "João Técnico", number: "5511912345678" });

    // reactions are not shown in the inbox (decision: ignored, nothing stored or changed)
    const [{ n: before }] = await rows<{ n: number }>(sql`select count(*)::int as n from messages where ticket_id = ${l.ticket_id}`);
    const reaction = wid("REA");
    await inbound(
      waMessage(MARIA, { reactionMessage: { key: { remoteJid: pnJid(MARIA.pn), fromMe: false, id: loc }, text: "👍" } }, { id: reaction }),
    );
    const [{ n: after }] = await rows<{ n: number }>(sql`select count(*)::int as n from messages where ticket_id = ${l.ticket_id}`);
    expect(after).toBe(before);
    expect(await messageByWid(reaction)).toBeUndefined();
    expect(await messageByWid(loc)).toMatchObject({ body: "Casa - Rua das Flores, 100", is_edited: false });
  });

  it("revoke marks the message deleted; an edit replaces the body and marks it edited; both announced", async () => {
    const chatSocket = await socketFor(url, h.token);
    try {
      const gone = wid("DEL");
      const edited = wid("EDT");
      await inbound(waMessage(MARIA, { conversation: "número errado" }, { id: gone }));
      await inbound(waMessage(MARIA, { conversation: "internet lenta" }, { id: edited }));
      const ticketId = (await messageByWid(gone)).ticket_id;
      await new Promise<void>((resolve) => chatSocket.emit("joinChatBox", ticketId, () => resolve()));
      const updates = recorder<{ action: string; message: { wid: string; body: string; isDeleted: boolean; isEdited: boolean } }>(
        chatSocket,
        "appMessage",
      );

      await inbound(
        waMessage(
          MARIA,
          { protocolMessage: { key: { remoteJid: pnJid(MARIA.pn), fromMe: false, id: gone }, type: 0 } },
          { id: wid("REV") },
        ),
      );
      await inbound(
        waMessage(
          MARIA,
          {
            protocolMessage: {
              key: { remoteJid: pnJid(MARIA.pn), fromMe: false, id: edited },
              type: 14,
              editedMessage: { conversation: "internet lenta desde ontem" },
              timestampMs: 1767261660000,
            },
          },
          { id: wid("EDP") },
        ),
      );
      expect(await messageByWid(gone)).toMatchObject({ is_deleted: true });
      expect(await messageByWid(edited)).toMatchObject({ body: "internet lenta desde ontem", is_edited: true, is_deleted: false });
      await updates.waitFor((p) => p.action === "update" && p.message.wid === gone && p.message.isDeleted && p.message.body === "");
      await updates.waitFor((p) => p.action === "update" && p.message.wid === edited && p.message.isEdited);
      const listed = (await api("GET", `/messages/${ticketId}?rowsPerPage=100`)).body.messages as {
        wid: string;
        body: string;
        isDeleted: boolean;
      }[];
      expect(listed.find((m) => m.wid === gone)).toMatchObject({ isDeleted: true, body: "" });
    } finally {
      chatSocket.close();
    }
  });

  // ---------- addresses ----------

  it("a LID-only sender is resolved through the LID mapping to the contact created by number: LID attached, no duplicate", async () => {
    const created = await api("POST", "/contacts", { name: "Carlos Pereira", number: "5511987650002" });
    expect(created.status).toBe(200);
    const lid = "210987650000002";
    live().pnForLid.set(lidJid(lid), pnJid("5511987650002"));
    const id = wid("LID");
    await inbound(waMessage({ lid }, { conversation: "Preciso da segunda via do boleto" }, { id, pushName: "Carlos" }));
    const found = await contactsOf("5511987650002", lid);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: created.body.id, name: "Carlos Pereira", number: "5511987650002", lid });
    expect(await messageByWid(id)).toMatchObject({ contact_id: created.body.id });
  });

  it("a customer first known only by LID (no mapping yet) becomes one contact when the number shows up", async () => {
    const lid = "210987650000003";
    const first = wid("LO1");
    await inbound(waMessage({ lid }, { conversation: "oi" }, { id: first, pushName: "Joana" }));
    const [byLid] = await contactsOf(null, lid);
    expect(byLid).toMatchObject({ number: null, lid, name: "Joana" });

    // later the mapping is learned (Baileys announces it) and a message arrives by number with the LID beside it
    live().emit("lid-mapping.update", { lid: lidJid(lid), pn: pnJid("5511987650003") });
    const second = wid("LO2");
    await inbound(waMessage({ pn: "5511987650003", lid }, { conversation: "meu número é este" }, { id: second, pushName: "Joana" }));
    const all = await contactsOf("5511987650003", lid);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: byLid.id, number: "5511987650003", lid });
    const a = await messageByWid(first);
    const b = await messageByWid(second);
    expect(b.ticket_id).toBe(a.ticket_id);
  });

  it("a message sent from the phone is recorded fromMe in the customer's ticket, not unread", async () => {
    const before = await liveTicketOf((await contactsOf(MARIA.pn, MARIA.lid))[0].id);
    const id = wid("ME");
    await inbound(waMessage(MARIA, { conversation: "Já estamos verificando, um momento" }, { id, fromMe: true, pushName: "Provedor Net" }));
    const m = await messageByWid(id);
    expect(m).toMatchObject({ from_me: true, contact_id: null, ticket_id: before.id, body: "Já estamos verificando, um momento" });
    expect((await liveTicketOf((await contactsOf(MARIA.pn, MARIA.lid))[0].id)).unread_messages).toBe(before.unread_messages);
  });

  it("status broadcasts are ignored", async () => {
    const id = wid("STS");
    live().emit("messages.upsert", {
      messages: [
        {
          key: { remoteJid: "status@broadcast", fromMe: false, id, participant: pnJid("5511987650009") },
          messageTimestamp: 1767261600,
          pushName: "Alguém",
          message: { extendedTextMessage: { text: "Meu status" } },
        } as WAMessage,
      ],
      type: "notify",
    });
    await settle();
    expect(await messageByWid(id)).toBeUndefined();
    expect(await contactsOf("5511987650009", null)).toHaveLength(0);
  });

  it("groups follow CheckMsgIsGroup: ignored when enabled, a group ticket with the participant as author when disabled", async () => {
    const group = "120363025746800001";
    const groupMessage = (id: string) =>
      ({
        key: {
          remoteJid: `${group}@g.us`,
          fromMe: false,
          id,
          participant: lidJid("210987650000004"),
          participantAlt: pnJid("5511987650004"),
          addressingMode: "lid",
        },
        messageTimestamp: 1767261600,
        pushName: "Pedro",
        message: { conversation: "Pessoal, caiu aqui também" },
      }) as WAMessage;

    const ignored = wid("GRP");
    await inbound(groupMessage(ignored));
    expect(await messageByWid(ignored)).toBeUndefined();

    expect((await api("PUT", "/settings/CheckMsgIsGroup", { value: "disabled" })).status).toBe(200);
    try {
      const kept = wid("GRP");
      await inbound(groupMessage(kept));
      const m = await messageByWid(kept);
      const [groupContact] = await contactsOf(group, null);
      expect(groupContact).toMatchObject({ is_group: true });
      const [pedro] = await contactsOf("5511987650004", "210987650000004");
      expect(pedro).toMatchObject({ name: "Pedro", number: "5511987650004", lid: "210987650000004", is_group: false });
      expect(m).toMatchObject({ contact_id: pedro.id, body: "Pessoal, caiu aqui também" });
      expect(await liveTicketOf(groupContact.id)).toMatchObject({ id: m.ticket_id, is_group: true });
    } finally {
      await api("PUT", "/settings/CheckMsgIsGroup", { value: "enabled" });
    }
  });

  // ---------- outbound ----------

  it("an agent's reply quoting the customer: sendMessage gets the quoted message; acks 1–4 reach the database and appMessage", async () => {
    const [maria] = await contactsOf(MARIA.pn, MARIA.lid);
    const ticket = await liveTicketOf(maria.id);
    expect((await api("PUT", `/tickets/${ticket.id}`, { status: "open" })).status).toBe(200);
    const question = wid("ASK");
    await inbound(waMessage(MARIA, { conversation: "qual o prazo da visita?" }, { id: question }));
    const q = await messageByWid(question);

    const chatSocket = await socketFor(url, h.token);
    try {
      await new Promise<void>((resolve) => chatSocket.emit("joinChatBox", ticket.id, () => resolve()));
      const updates = recorder<{ action: string; message: { id: number; ack: number } }>(chatSocket, "appMessage");

      const mark = live().calls.length;
      const res = await api("POST", `/messages/${ticket.id}`, { body: "Amanhã pela manhã", quotedMsg: { id: q.id } });
      expect(res.status).toBe(200);
      const [sent] = res.body as { id: number; wid: string; ack: number; fromMe: boolean; quotedMsg: { id: number } }[];
      expect(sent).toMatchObject({ fromMe: true, ack: 0, quotedMsg: { id: q.id } });
      await settle();
      const [[jid, content, options]] = callsSince(mark, "sendMessage") as [string, { text: string }, { quoted: WAMessage }][];
      expect(jid).toBe(pnJid(MARIA.pn));
      expect(content).toEqual({ text: "Amanhã pela manhã" });
      expect(options.quoted.key).toMatchObject({ remoteJid: pnJid(MARIA.pn), fromMe: false, id: question });
      expect(options.quoted.message).toEqual({ conversation: "qual o prazo da visita?" });
      // sent with the id it was stored with
      expect(options).toMatchObject({ messageId: sent.wid });

      // WhatsApp's statuses: SERVER_ACK 2 → ack 1, DELIVERY_ACK 3 → 2, READ 4 → 3, PLAYED 5 → 4
      for (const [status, ack] of [
        [2, 1],
        [3, 2],
        [4, 3],
        [5, 4],
      ]) {
        live().emit("messages.update", [
          { key: { remoteJid: pnJid(MARIA.pn), fromMe: true, id: sent.wid }, update: { status } },
        ] as WAMessageUpdate[]);
        await settle();
        expect((await messageByWid(sent.wid)).ack).toBe(ack);
        await updates.waitFor((p) => p.action === "update" && p.message.id === sent.id && p.message.ack === ack);
      }
      // a late, lower status never lowers the ack
      live().emit("messages.update", [
        { key: { remoteJid: pnJid(MARIA.pn), fromMe: true, id: sent.wid }, update: { status: 3 } },
      ] as WAMessageUpdate[]);
      await settle();
      expect((await messageByWid(sent.wid)).ack).toBe(4);
    } finally {
      chatSocket.close();
    }
  });

  it("media round trip: an uploaded image reaches sendMessage as bytes; the stored copy is served at mediaUrl", async () => {
    const [maria] = await contactsOf(MARIA.pn, MARIA.lid);
    const ticket = await liveTicketOf(maria.id);
    const mark = live().calls.length;
    const form = multipart({ body: "Segue o comprovante" }, [{ field: "medias", name: "roteador.png", type: "image/png", data: PNG }]);
    const res = await h.built.app.inject({
      method: "POST",
      url: `/messages/${ticket.id}`,
      headers: { ...bearer(h.token), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    const [sent] = res.json() as { wid: string; mediaType: string; mediaUrl: string }[];
    expect(sent.mediaType).toBe("image");
    await settle();
    const [[jid, content]] = callsSince(mark, "sendMessage") as [string, { image: Buffer; mimetype: string; caption?: string }][];
    expect(jid).toBe(pnJid(MARIA.pn));
    expect(Buffer.compare(content.image, PNG)).toBe(0);
    expect(content).toMatchObject({ mimetype: "image/png", caption: "Segue o comprovante" });
    const served = await h.built.app.inject({ method: "GET", url: sent.mediaUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(served.rawPayload, PNG)).toBe(0);
  });

  it("opening the chat sends read receipts; typing goes as presence; delete for everyone goes to WhatsApp", async () => {
    const [maria] = await contactsOf(MARIA.pn, MARIA.lid);
    const ticket = await liveTicketOf(maria.id);
    const unread = wid("UNR");
    await inbound(waMessage(MARIA, { conversation: "ainda está aí?" }, { id: unread }));
    const mark = live().calls.length;
    expect((await api("GET", `/messages/${ticket.id}`)).status).toBe(200);
    await until(
      async () => callsSince(mark, "readMessages").length,
      (n) => n === 1,
      "the read receipt",
    );
    const [[keys]] = callsSince(mark, "readMessages") as [{ remoteJid: string; id: string; fromMe: boolean }[]][];
    expect(keys).toContainEqual({ remoteJid: pnJid(MARIA.pn), id: unread, fromMe: false });

    expect((await api("POST", `/digitando/${ticket.id}`)).body).toEqual({ typing: true, delivered: true });
    expect((await api("POST", `/digitando/stop/${ticket.id}`)).body).toEqual({ typing: false, delivered: true });
    expect(callsSince(mark, "sendPresenceUpdate")).toEqual([
      ["composing", pnJid(MARIA.pn)],
      ["paused", pnJid(MARIA.pn)],
    ]);

    const [sent] = (await api("POST", `/messages/${ticket.id}`, { body: "mensagem errada" })).body as { id: number; wid: string }[];
    await settle();
    live().emit("messages.update", [
      { key: { remoteJid: pnJid(MARIA.pn), fromMe: true, id: sent.wid }, update: { status: 2 } },
    ] as WAMessageUpdate[]);
    await settle();
    const at = live().calls.length;
    const deleted = await api("DELETE", `/messages/${sent.id}`);
    expect(deleted.body).toMatchObject({ id: sent.id, isDeleted: true });
    expect(callsSince(at, "sendMessage")).toEqual([
      [pnJid(MARIA.pn), { delete: { remoteJid: pnJid(MARIA.pn), fromMe: true, id: sent.wid } }],
    ]);

    // a reply quoting the deleted message: the quote points at it, its text is not sent again
    const quoting = live().calls.length;
    const reply = await api("POST", `/messages/${ticket.id}`, { body: "a certa é esta", quotedMsg: { id: sent.id } });
    expect(reply.status).toBe(200);
    await settle();
    const [[, content, options]] = callsSince(quoting, "sendMessage") as [string, { text: string }, { quoted: WAMessage }][];
    expect(content).toEqual({ text: "a certa é esta" });
    expect(options.quoted.key).toMatchObject({ fromMe: true, id: sent.wid });
    expect(JSON.stringify(options.quoted.message)).not.toContain("mensagem errada");
  });

  // ---------- calls ----------

  it("with acceptCalls off a call is rejected, the refusal is sent and a call_log is recorded in the contact's ticket", async () => {
    const [maria] = await contactsOf(MARIA.pn, MARIA.lid);
    const ticket = await liveTicketOf(maria.id);
    const mark = live().calls.length;
    live().emit("call", [
      {
        chatId: lidJid(MARIA.lid),
        from: lidJid(MARIA.lid),
        callerPn: pnJid(MARIA.pn),
        id: "CALLPIPE0001",
        date: new Date("2026-01-01T10:05:00.000Z"),
        isVideo: false,
        isGroup: false,
        status: "offer",
        offline: false,
      },
    ] as WACallEvent[]);
    await settle();
    // rejected with the jid the call came from
    expect(callsSince(mark, "rejectCall")).toEqual([["CALLPIPE0001", lidJid(MARIA.lid)]]);
    const log = await messageByWid("call:CALLPIPE0001");
    expect(log).toMatchObject({ media_type: "call_log", body: "Chamada de voz", ticket_id: ticket.id, contact_id: maria.id });
    const refusal = callsSince(mark, "sendMessage").map((args) => args.slice(0, 2));
    expect(refusal).toEqual([[pnJid(MARIA.pn), { text: "Não atendemos ligações por aqui, escreva sua dúvida." }]]);
    const [stored] = await rows<{ from_me: boolean; ticket_id: number }>(
      sql`select from_me, ticket_id from messages where body = ${"Não atendemos ligações por aqui, escreva sua dúvida."}`,
    );
    expect(stored).toEqual({ from_me: true, ticket_id: ticket.id });
  });

  it("with acceptCalls on a call is only recorded: no rejection, no refusal", async () => {
    expect((await api("PUT", `/whatsapp/${whatsappId}`, { acceptCalls: true })).status).toBe(200);
    try {
      const mark = live().calls.length;
      live().emit("call", [
        {
          chatId: pnJid(MARIA.pn),
          from: pnJid(MARIA.pn),
          id: "CALLPIPE0002",
          date: new Date("2026-01-01T10:06:00.000Z"),
          isVideo: true,
          isGroup: false,
          status: "offer",
          offline: false,
        },
      ] as WACallEvent[]);
      await settle();
      expect(await messageByWid("call:CALLPIPE0002")).toMatchObject({ media_type: "call_log", body: "Chamada de vídeo" });
      expect(callsSince(mark, "rejectCall")).toEqual([]);
      expect(callsSince(mark, "sendMessage")).toEqual([]);
    } finally {
      await api("PUT", `/whatsapp/${whatsappId}`, { acceptCalls: false });
    }
  });

  // ---------- numbers and pictures ----------

  it("opening a ticket with a typed-in number asks WhatsApp first: unknown → ERR_WAPP_INVALID_CONTACT, known → its canonical number and LID", async () => {
    const nobody = (await api("POST", "/contacts", { name: "Número inexistente", number: "5511955550001" })).body;
    live().onWhatsAppAnswer = [{ jid: pnJid("5511955550001"), exists: false }];
    let mark = live().calls.length;
    const refused = await api("POST", "/tickets", { contactId: nobody.id, whatsappId, status: "open" });
    expect(refused).toMatchObject({ status: 400, body: { error: "ERR_WAPP_INVALID_CONTACT" } });
    expect(callsSince(mark, "onWhatsApp")).toEqual([[pnJid("5511955550001")]]);
    expect(await rows(sql`select id from tickets where contact_id = ${nobody.id}`)).toHaveLength(0);

    // typed without Brazil's ninth digit: WhatsApp answers with the number it knows, and its LID
    const old = (await api("POST", "/contacts", { name: "Dona Cida", number: "551187650010" })).body;
    live().onWhatsAppAnswer = [{ jid: pnJid("5511987650010"), exists: true }];
    live().lidForPn.set(pnJid("5511987650010"), lidJid("210987650000010"));
    const opened = await api("POST", "/tickets", { contactId: old.id, whatsappId, status: "open" });
    expect(opened.status).toBe(200);
    expect(opened.body.contact).toMatchObject({ id: old.id });
    const [cida] = await contactsOf("5511987650010", "210987650000010");
    expect(cida).toMatchObject({ id: old.id, number: "5511987650010", lid: "210987650000010" });
    mark = live().calls.length;
    expect((await api("POST", `/messages/${opened.body.id}`, { body: "Olá, Dona Cida" })).status).toBe(200);
    await settle();
    expect(callsSince(mark, "sendMessage")[0][0]).toBe(pnJid("5511987650010"));

    // a contact WhatsApp already told us about (it has a LID) is not asked again
    expect((await api("PUT", `/tickets/${opened.body.id}`, { status: "closed" })).status).toBe(200);
    mark = live().calls.length;
    expect((await api("POST", "/tickets", { contactId: old.id, whatsappId, status: "open" })).status).toBe(200);
    expect(callsSince(mark, "onWhatsApp")).toEqual([]);

    // the check itself failing is ERR_WAPP_CHECK_CONTACT
    const other = (await api("POST", "/contacts", { name: "Sem resposta", number: "5511955550003" })).body;
    const sock = live();
    sock.onWhatsApp = async () => {
      throw new Error("timed out");
    };
    expect(await api("POST", "/tickets", { contactId: other.id, whatsappId, status: "open" })).toMatchObject({
      status: 502,
      body: { error: "ERR_WAPP_CHECK_CONTACT" },
    });
  });

  it("profile pictures are fetched when a customer writes, stored on the contact, and not asked again on every message", async () => {
    const who = { pn: "5511987650020", lid: "210987650000020" };
    const mark = live().calls.length;
    await inbound(waMessage(who, { conversation: "oi" }, { pushName: "Rafael" }));
    const [rafael] = await until(
      () => contactsOf(who.pn, who.lid),
      (r) => r[0]?.profile_pic_url !== "",
      "the stored picture",
    );
    expect(rafael.profile_pic_url).toBe("https://pps.whatsapp.net/v/t61/photo.jpg");
    expect((await api("GET", `/contacts/${rafael.id}`)).body.profilePicUrl).toBe("https://pps.whatsapp.net/v/t61/photo.jpg");
    await inbound(waMessage(who, { conversation: "alguém aí?" }, { pushName: "Rafael" }));
    expect(callsSince(mark, "profilePictureUrl").filter((a) => a[0] === pnJid(who.pn))).toEqual([[pnJid(who.pn), "image"]]);

    // no picture (or hidden by privacy): the contact keeps none, and nothing fails
    const hidden = { pn: "5511000000000", lid: "210987650000021" };
    const id = wid("NOPIC");
    await inbound(waMessage(hidden, { conversation: "sem foto" }, { id }));
    await until(
      async () => callsSince(mark, "profilePictureUrl").filter((a) => a[0] === pnJid(hidden.pn)).length,
      (n) => n === 1,
      "the picture request",
    );
    expect(await messageByWid(id)).toMatchObject({ body: "sem foto" });
    expect((await contactsOf(hidden.pn, hidden.lid))[0].profile_pic_url).toBe("");
  });

  // ---------- retries ----------

  it("getMessage answers Baileys' retry requests from the database, for this connection only", async () => {
    const id = wid("GET");
    await inbound(waMessage(MARIA, { conversation: "guardada no banco" }, { id }));
    const getMessage = live().config.getMessage;
    expect(getMessage).toBeTypeOf("function");
    expect(await getMessage?.({ remoteJid: pnJid(MARIA.pn), fromMe: false, id })).toEqual({ conversation: "guardada no banco" });
    expect(await getMessage?.({ remoteJid: pnJid(MARIA.pn), fromMe: true, id: "NOPE0000" })).toBeUndefined();
    // the same id on another connection is not ours
    await h.built.ctx.db.execute(sql`update messages set whatsapp_id = null where wid = ${id}`);
    expect(await getMessage?.({ remoteJid: pnJid(MARIA.pn), fromMe: false, id })).toBeUndefined();
    await h.built.ctx.db.execute(sql`update messages set whatsapp_id = ${whatsappId} where wid = ${id}`);
  });

  // ---------- restart ----------

  it("restart: a new server on the same database connects with the stored auth, without a QR, and keeps receiving", async () => {
    const storedKeys = await rows<{ key: string }>(sql`select key from whatsapp_auth_keys where whatsapp_id = ${whatsappId}`);
    expect(storedKeys.map((r) => r.key)).toContain("creds");
    admin.close();
    await h.built.close();
    const previous = h.sockets[h.sockets.length - 1];
    expect(previous.ended).toBe(true);
    expect(previous.listenerTotal()).toBe(0);

    h = await boot(database, config);
    await settle();
    expect(h.sockets).toHaveLength(1);
    const auth = h.sockets[0].config.auth;
    expect(auth.creds.me?.id).toBe(ME_JID);
    expect(auth.creds.registered).toBe(true);
    h.sockets[0].open();
    await settle();
    const w = (await api("GET", `/whatsapp/${whatsappId}`)).body;
    expect(w).toMatchObject({ status: "CONNECTED", qrcode: "", number: "5511900001111" });

    const id = wid("AFT");
    await inbound(waMessage(MARIA, { conversation: "voltou!" }, { id }));
    const [maria] = await contactsOf(MARIA.pn, MARIA.lid);
    expect(await messageByWid(id)).toMatchObject({ contact_id: maria.id, body: "voltou!" });
  });
  it("DELETE /whatsappsession logs out: the stored auth is gone and the next start pairs by QR again", async () => {
    const sock = live();
    expect((await api("DELETE", `/whatsappsession/${whatsappId}`)).status).toBe(200);
    await settle();
    expect(sock.callsOf("logout")).toHaveLength(1);
    expect(sock.ended).toBe(true);
    expect(await rows(sql`select key from whatsapp_auth_keys where whatsapp_id = ${whatsappId}`)).toEqual([]);
    expect((await api("GET", `/whatsapp/${whatsappId}`)).body).toMatchObject({ status: "DISCONNECTED", qrcode: "" });

    expect((await api("POST", `/whatsappsession/${whatsappId}`)).status).toBe(200);
    await settle();
    expect(live()).not.toBe(sock);
    expect(live().config.auth.creds.me).toBeUndefined();
    live().qr("2@novo-qr");
    await settle();
    expect((await api("GET", `/whatsapp/${whatsappId}`)).body).toMatchObject({ status: "qrcode", qrcode: "2@novo-qr" });
  });
});
