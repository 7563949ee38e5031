import { readFileSync } from "node:fs";
import type { WACallEvent, WAMessage, WAMessageUpdate } from "baileys";
import { describe, expect, it } from "vitest";
import type { ChannelEvent } from "../src/channels/channel.js";
import { type BaileysChannelOptions, createBaileysChannel } from "../src/channels/baileys/driver.js";
import { decodeValue, loadAuthState } from "../src/channels/baileys/auth-state.js";
import { redact } from "../src/channels/baileys/logger.js";
import type { BaileysSocketConfig } from "../src/channels/baileys/socket.js";
import { FakeSocket, flush, MemoryAuthStore, ManualTimer, makeDeps, ME_JID } from "./baileys-fake-socket.js";

const fixture = <T = WAMessage>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/baileys/${name}.json`, import.meta.url), "utf8")) as T;

const PN = "5511987654321";
const LID = "210987654321098";

function setup(opts: { store?: MemoryAuthStore; options?: Partial<BaileysChannelOptions>; onSocket?: (s: FakeSocket) => void } = {}) {
  const store = opts.store ?? new MemoryAuthStore();
  const timer = new ManualTimer();
  const sockets: FakeSocket[] = [];
  const { deps, events, logs, statuses } = makeDeps(store);
  const session = createBaileysChannel(deps, {
    socketFactory: (config: BaileysSocketConfig) => {
      const s = new FakeSocket(config);
      sockets.push(s);
      opts.onSocket?.(s);
      return s;
    },
    timer,
    random: () => 0.5,
    ...opts.options,
  });
  const last = () => sockets[sockets.length - 1];
  return { store, timer, sockets, last, session, events, logs, statuses };
}

async function connected(t: ReturnType<typeof setup>) {
  await t.session.start();
  t.last().open();
  await flush();
  return t.last();
}

const of = <T extends ChannelEvent["type"]>(events: ChannelEvent[], type: T) =>
  events.filter((e): e is Extract<ChannelEvent, { type: T }> => e.type === type);

describe("baileys driver: pairing and lifecycle", () => {
  it("pairs by QR: OPENING → qrcode → (restart) → CONNECTED with the number", async () => {
    const t = setup();
    await t.session.start();
    expect(t.sockets).toHaveLength(1);
    expect(t.sockets[0].config.auth.creds.me).toBeUndefined();
    // the phone keeps its notifications; our own sends are not echoed back as inbound
    expect(t.sockets[0].config).toMatchObject({ markOnlineOnConnect: false, emitOwnEvents: false });

    t.sockets[0].qr("2@first-qr");
    t.sockets[0].qr("2@second-qr");
    // the phone scanned: Baileys saves the new identity and asks for a restart
    t.sockets[0].emit("creds.update", { me: { id: ME_JID, name: "Provedor Net" }, registered: true });
    t.sockets[0].close(515);
    await flush();

    expect(t.sockets).toHaveLength(2);
    expect(t.sockets[0].ended).toBe(true);
    expect(t.sockets[1].config.auth.creds.me?.id).toBe(ME_JID);
    t.sockets[1].open();
    await flush();

    expect(t.statuses().map((s) => [s.status, s.qrcode, s.reason ?? null])).toEqual([
      ["OPENING", "", null],
      ["qrcode", "2@first-qr", null],
      ["qrcode", "2@second-qr", null],
      ["OPENING", "", "restartRequired"],
      ["CONNECTED", "", null],
    ]);
    expect(t.statuses().at(-1)).toMatchObject({ number: "5511900001111", retries: 0 });
    expect(decodeValue<{ me: { id: string } }>(t.store.data.get("creds")!).me.id).toBe(ME_JID);
  });

  it("start() while connected does nothing", async () => {
    const t = setup();
    await connected(t);
    await t.session.start();
    expect(t.sockets).toHaveLength(1);
  });

  it("a lost connection ends the old socket, removes its listeners and reconnects with growing backoff", async () => {
    const t = setup();
    const first = await connected(t);
    expect(first.listenerTotal()).toBeGreaterThan(0);

    first.close(428);
    await flush();
    expect(first.ended).toBe(true);
    expect(first.listenerTotal()).toBe(0);
    expect(t.sockets).toHaveLength(1);
    expect(t.statuses().at(-1)).toMatchObject({ status: "OPENING", reason: "connectionClosed", retries: 1 });
    expect(t.timer.pending.map((p) => p.ms)).toEqual([1500]);

    // the old socket's late events reach nobody
    first.emit("messages.upsert", { messages: [fixture("text-pn-with-lid-alt")], type: "notify" });
    await flush();
    expect(of(t.events, "message")).toHaveLength(0);

    t.timer.fire();
    await flush();
    expect(t.sockets).toHaveLength(2);
    t.sockets[1].close(408);
    await flush();
    expect(t.statuses().at(-1)).toMatchObject({ status: "OPENING", reason: "timedOut", retries: 2 });
    expect(t.timer.pending.map((p) => p.ms)).toEqual([3000]);
    expect(t.sockets[1].listenerTotal()).toBe(0);

    t.timer.fire();
    await flush();
    t.sockets[2].open();
    await flush();
    expect(t.statuses().at(-1)).toMatchObject({ status: "CONNECTED", retries: 0 });
    // every socket but the live one is ended and silent
    expect(t.sockets.slice(0, 2).every((s) => s.ended && s.listenerTotal() === 0)).toBe(true);
  });

  it("start() during a backoff wait connects at once and cancels the timer", async () => {
    const t = setup();
    const first = await connected(t);
    first.close(503);
    await flush();
    expect(t.timer.pending).toHaveLength(1);
    await t.session.start();
    expect(t.timer.pending).toHaveLength(0);
    expect(t.sockets).toHaveLength(2);
  });

  it("a failing auth store backs off instead of hanging in OPENING", async () => {
    const store = new MemoryAuthStore();
    let failures = 1;
    const get = store.get.bind(store);
    store.get = async (keys) => {
      if (failures-- > 0) throw new Error("database unavailable");
      return get(keys);
    };
    const t = setup({ store });
    await t.session.start();
    await flush();
    expect(t.sockets).toHaveLength(0);
    expect(t.statuses().at(-1)).toMatchObject({ status: "OPENING", retries: 1 });
    expect(t.logs.some((l) => l.level === "error" && l.msg === "loading WhatsApp auth state failed")).toBe(true);
    t.timer.fire();
    await flush();
    expect(t.sockets).toHaveLength(1);
  });

  it("logged out on the phone: clears the auth store and waits for a new QR", async () => {
    const t = setup();
    const s = await connected(t);
    s.emit("creds.update", { me: { id: ME_JID }, registered: true });
    await s.config.auth.keys.set({ "pre-key": { "1": { public: Buffer.alloc(32, 1), private: Buffer.alloc(32, 2) } } });
    await flush();
    expect(t.store.data.size).toBeGreaterThan(0);

    s.close(401);
    await flush();
    expect(t.store.data.size).toBe(0);
    expect(t.store.clears).toBe(1);
    expect(t.statuses().at(-1)).toMatchObject({ status: "DISCONNECTED", reason: "loggedOut", qrcode: "" });
    expect(t.sockets).toHaveLength(1);
    expect(t.timer.pending).toHaveLength(0);

    await t.session.requestNewQr();
    expect(t.sockets).toHaveLength(2);
    expect(t.sockets[1].config.auth.creds.me).toBeUndefined();
    t.sockets[1].qr("2@fresh");
    expect(t.statuses().at(-1)).toMatchObject({ status: "qrcode", qrcode: "2@fresh" });
  });

  it.each([
    [440, "connectionReplaced"],
    [403, "forbidden"],
  ])("%s stops, shows why and keeps the auth", async (code, reason) => {
    const t = setup();
    const s = await connected(t);
    s.emit("creds.update", { me: { id: ME_JID }, registered: true });
    await flush();
    s.close(code);
    await flush();
    expect(t.statuses().at(-1)).toMatchObject({ status: "DISCONNECTED", reason });
    expect(t.store.data.has("creds")).toBe(true);
    expect(t.sockets).toHaveLength(1);
    expect(t.timer.pending).toHaveLength(0);
    expect(s.listenerTotal()).toBe(0);
  });

  it("QR codes that run out stop with TIMEOUT until a new QR is asked for", async () => {
    const t = setup({ options: { policy: { maxQrCodes: 3 } } });
    await t.session.start();
    t.last().qr("q1");
    t.last().qr("q2");
    // this socket's QR refs ended (Baileys closes with timedOut): a fresh batch without flashing the dialog
    t.last().close(408);
    await flush();
    expect(t.sockets).toHaveLength(2);
    expect(t.statuses().at(-1)).toMatchObject({ status: "qrcode", qrcode: "q2" });
    t.last().qr("q3");
    t.last().qr("q4");
    await flush();
    expect(t.statuses().at(-1)).toMatchObject({ status: "TIMEOUT", reason: "qrAttemptsExhausted" });
    expect(t.sockets[1].ended).toBe(true);
    expect(t.sockets[1].listenerTotal()).toBe(0);

    await t.session.requestNewQr();
    expect(t.sockets).toHaveLength(3);
    t.last().qr("q5");
    expect(t.statuses().at(-1)).toMatchObject({ status: "qrcode", qrcode: "q5" });
  });

  it("logout() unlinks the device, clears the auth and does not reconnect", async () => {
    const t = setup();
    const s = await connected(t);
    s.emit("creds.update", { me: { id: ME_JID }, registered: true });
    await flush();
    await t.session.logout();
    await flush();
    expect(s.callsOf("logout")).toHaveLength(1);
    expect(s.ended).toBe(true);
    expect(t.store.data.size).toBe(0);
    expect(t.statuses().at(-1)).toMatchObject({ status: "DISCONNECTED", reason: "loggedOut" });
    expect(t.statuses().filter((x) => x.status === "DISCONNECTED")).toHaveLength(1);
    expect(t.sockets).toHaveLength(1);
  });

  it("keeps the phone's contacts from contacts.upsert/update and history sync, across a restart; a logout forgets them", async () => {
    const t = setup();
    const s = await connected(t);
    s.emit("messaging-history.set", {
      chats: [],
      messages: [],
      contacts: [
        { id: "5511911112222@s.whatsapp.net", notify: "Carla (perfil)" },
        { id: `${LID}@lid`, notify: "Só LID" },
        { id: "120363000000000000@g.us", name: "Um grupo" },
      ],
    });
    s.emit("contacts.upsert", [{ id: "5511911112222@s.whatsapp.net", name: "Carla Souza" }]);
    // the LID-only person's number becomes known: one entry, with both
    s.emit("contacts.update", [{ id: `${LID}@lid`, phoneNumber: `${PN}@s.whatsapp.net` }]);
    await flush();
    const byNumber = (list: { number?: string }[]) => [...list].sort((a, b) => (a.number ?? "").localeCompare(b.number ?? ""));
    const expected = [
      { number: "5511911112222", name: "Carla Souza" },
      { number: PN, lid: LID, name: "Só LID" },
    ];
    expect(byNumber(await t.session.contacts!())).toEqual(expected);

    // another process (or a restart) reads them back from the store
    await t.session.stop();
    const again = setup({ store: t.store });
    expect(byNumber(await again.session.contacts!())).toEqual(expected);

    await again.session.start();
    again.last().open();
    await flush();
    await again.session.logout();
    expect(await again.session.contacts!()).toEqual([]);
    expect(again.store.data.size).toBe(0);
  });

  it("stop() ends the socket, keeps the auth and says nothing", async () => {
    const t = setup();
    const s = await connected(t);
    s.emit("creds.update", { me: { id: ME_JID }, registered: true });
    await flush();
    const before = t.statuses().length;
    await t.session.stop();
    expect(s.ended).toBe(true);
    expect(s.listenerTotal()).toBe(0);
    expect(t.store.data.has("creds")).toBe(true);
    expect(t.statuses()).toHaveLength(before);
  });

  it("restarting with the stored auth connects without a QR, in another process too", async () => {
    const store = new MemoryAuthStore();
    // a socket that behaves like WhatsApp: QR when unpaired, open when the creds know who we are
    const behave = (s: FakeSocket) => {
      queueMicrotask(() => (s.config.auth.creds.registered ? s.open() : s.qr("2@pair-me")));
    };
    const first = setup({ store, onSocket: behave });
    await first.session.start();
    await flush();
    expect(first.statuses().at(-1)).toMatchObject({ status: "qrcode" });
    const keyPair = { public: Buffer.alloc(32, 7), private: Buffer.alloc(32, 9) };
    await first.last().config.auth.keys.set({ "pre-key": { "5": keyPair }, session: { [`${PN}.0`]: Buffer.from("signal session") } });
    first.last().emit("creds.update", { me: { id: ME_JID }, registered: true });
    first.last().close(515);
    await flush();
    expect(first.statuses().at(-1)).toMatchObject({ status: "CONNECTED" });
    const noiseKey = Buffer.from(first.last().config.auth.creds.noiseKey.private);
    await first.session.stop();

    const second = setup({ store, onSocket: behave });
    await second.session.start();
    await flush();
    expect(second.statuses().map((s) => s.status)).toEqual(["OPENING", "CONNECTED"]);
    const auth = second.sockets[0].config.auth;
    expect(Buffer.from(auth.creds.noiseKey.private).equals(noiseKey)).toBe(true);
    const keys = await auth.keys.get("pre-key", ["5", "6"]);
    expect(Object.keys(keys)).toEqual(["5"]);
    expect(Buffer.from(keys["5"].private).equals(keyPair.private)).toBe(true);
    const sessions = await auth.keys.get("session", [`${PN}.0`]);
    expect(Buffer.from(sessions[`${PN}.0`]).toString()).toBe("signal session");
  });
});

describe("baileys driver: auth state over the store", () => {
  it("stores creds under 'creds' and keys under '<type>:<id>', deletes with null, one transaction per write", async () => {
    const store = new MemoryAuthStore();
    const auth = await loadAuthState(store);
    expect(auth.restored).toBe(false);
    await auth.saveCreds();
    await auth.state.keys.set({
      "pre-key": { "1": { public: Buffer.alloc(1), private: Buffer.alloc(1) }, "2": { public: Buffer.alloc(1), private: Buffer.alloc(1) } },
    });
    expect([...store.data.keys()].sort()).toEqual(["creds", "pre-key:1", "pre-key:2"]);
    const before = store.transactions;
    await auth.state.keys.set({ "pre-key": { "1": null }, "sender-key": { "g1::a::0": Buffer.from("x") } });
    expect(store.transactions).toBe(before + 1);
    expect([...store.data.keys()].sort()).toEqual(["creds", "pre-key:2", "sender-key:g1::a::0"]);
    expect((await loadAuthState(store)).restored).toBe(true);
  });

  it("app-state sync keys come back as protobuf objects", async () => {
    const store = new MemoryAuthStore();
    const auth = await loadAuthState(store);
    await auth.state.keys.set({ "app-state-sync-key": { AAAA: { keyData: Buffer.from("k"), timestamp: 5 } } });
    const got = await (await loadAuthState(store)).state.keys.get("app-state-sync-key", ["AAAA"]);
    expect(Buffer.from(got.AAAA.keyData!).toString()).toBe("k");
    expect(Number(got.AAAA.timestamp)).toBe(5);
  });
});

describe("baileys driver: inbound", () => {
  it("journals normalized messages from messages.upsert first; a LID-only sender gets its number from the mapping store before it is handled", async () => {
    const t = setup();
    const s = await connected(t);
    s.pnForLid.set(`${LID}@lid`, `${PN}@s.whatsapp.net`);
    s.emit("messages.upsert", { messages: [fixture("text-lid-only"), fixture("status-broadcast"), fixture("revoke")], type: "notify" });
    await flush();
    const [journaled] = of(t.events, "message");
    // emitted (journaled) with what was known at once, no lookup awaited before it
    expect(journaled.message.chat).toEqual({ lid: LID, isGroup: false });
    expect(of(t.events, "delete")).toEqual([{ type: "delete", id: "3EB0A1B2C3D4E5F60001" }]);
    const resolved = (await t.session.resolve?.(journaled)) as typeof journaled;
    expect(resolved.message.chat).toEqual({ number: PN, lid: LID, isGroup: false });
  });

  it("a batch received just before a reconnect is still journaled whole, in order", async () => {
    const t = setup();
    const s = await connected(t);
    s.emit("messages.upsert", { messages: [fixture("text-lid-only"), fixture("text-pn-with-lid-alt")], type: "notify" });
    s.close(515);
    await flush();
    expect(t.sockets).toHaveLength(2);
    expect(of(t.events, "message").map((e) => e.message.id)).toEqual(["3EB0A1B2C3D4E5F60003", "3EB0A1B2C3D4E5F60001"]);
  });

  it("learns LID mappings from lid-mapping.update", async () => {
    const t = setup();
    const s = await connected(t);
    s.emit("lid-mapping.update", { lid: `${LID}@lid`, pn: `${PN}@s.whatsapp.net` });
    s.emit("messages.upsert", { messages: [fixture("group-lid-only-participant")], type: "append" });
    await flush();
    expect(of(t.events, "message")[0].message.sender).toMatchObject({ number: PN, lid: LID });
  });

  it("reactions from our own phone name us as the author", async () => {
    const t = setup();
    const s = await connected(t);
    const reaction = fixture("reaction");
    reaction.key.fromMe = true;
    s.emit("messages.upsert", { messages: [reaction], type: "notify" });
    await flush();
    expect(of(t.events, "reaction")[0].from).toEqual({ number: "5511900001111", lid: "99887766554433" });
  });

  it("media loaders download through the injected downloader", async () => {
    const t = setup({ options: { downloadMedia: async (msg) => Buffer.from(`media ${msg.key.id}`) } });
    const s = await connected(t);
    s.emit("messages.upsert", { messages: [fixture("voice-note")], type: "notify" });
    await flush();
    const media = of(t.events, "message")[0].message.media!;
    expect((await (media.data as () => Promise<Buffer>)()).toString()).toBe("media 3EB0A1B2C3D4E5F60011");
  });

  it("acks come from messages.update", async () => {
    const t = setup();
    const s = await connected(t);
    s.emit("messages.update", fixture<WAMessageUpdate[]>("messages-update"));
    expect(of(t.events, "ack").map((e) => [e.id, e.ack])).toEqual([
      ["BAE5SENT00000001", 1],
      ["BAE5SENT00000001", 2],
      ["BAE5SENT00000001", 3],
      ["BAE5SENT00000002", 4],
      ["BAE5SENT00000003", 0],
    ]);
  });

  it("a call offer is emitted; rejecting it answers the caller's own jid and sends nothing else", async () => {
    const t = setup();
    const s = await connected(t);
    const calls = fixture<(WACallEvent & { date: string })[]>("calls").map((c) => ({ ...c, date: new Date(c.date) }));
    s.emit("call", calls.slice(0, 2));
    const call = of(t.events, "call");
    expect(call).toEqual([
      {
        type: "call",
        callId: "CALL0A1B2C3D4E5F",
        from: { number: PN, lid: LID },
        isVideo: false,
        at: new Date("2026-01-01T10:05:00.000Z"),
      },
    ]);
    await t.session.rejectCall(call[0].callId, call[0].from);
    expect(s.callsOf("rejectCall")).toEqual([["CALL0A1B2C3D4E5F", `${LID}@lid`]]);
    expect(s.callsOf("sendMessage")).toEqual([]);
  });

  it("getMessage for retries answers from deps.getMessage", async () => {
    const t = setup();
    const s = await connected(t);
    const getMessage = s.config.getMessage!;
    expect(await getMessage({ id: "BAE5KNOWN", remoteJid: `${PN}@s.whatsapp.net` })).toEqual({ conversation: "texto guardado" });
    expect(await getMessage({ id: "BAE5UNKNOWN", remoteJid: `${PN}@s.whatsapp.net` })).toBeUndefined();
  });
});

describe("baileys driver: outbound", () => {
  it("a reply is sent with the id it was stored with, and a quote passes the quoted key and text", async () => {
    const t = setup();
    const s = await connected(t);
    const sent = await t.session.send(
      { number: PN, lid: LID },
      { kind: "text", body: "Pode reiniciar o roteador?" },
      { id: "3EB0A1B2C3D4E5F60001", fromMe: false, body: "Boa tarde, minha internet caiu" },
      { id: "3EB0STOREDFIRST000001" },
    );
    expect(sent).toEqual({ id: "BAE5OUT1", timestamp: new Date("2026-01-01T10:00:00.000Z") });
    expect(s.callsOf("sendMessage")).toEqual([
      [
        `${PN}@s.whatsapp.net`,
        { text: "Pode reiniciar o roteador?" },
        {
          messageId: "3EB0STOREDFIRST000001",
          quoted: {
            key: { remoteJid: `${PN}@s.whatsapp.net`, fromMe: false, id: "3EB0A1B2C3D4E5F60001" },
            message: { conversation: "Boa tarde, minha internet caiu" },
          },
        },
      ],
    ]);
  });

  it("in a group the quoted author is the participant", async () => {
    const t = setup();
    const s = await connected(t);
    await t.session.send(
      { groupId: "120363025746812345" },
      { kind: "text", body: "Verificando" },
      { id: "Q1", fromMe: false, body: "caiu", author: { lid: LID } },
      { id: "3EB0GROUP" },
    );
    expect(s.callsOf("sendMessage")[0][2]).toEqual({
      messageId: "3EB0GROUP",
      quoted: {
        key: { remoteJid: "120363025746812345@g.us", fromMe: false, id: "Q1", participant: `${LID}@lid` },
        message: { conversation: "caiu" },
      },
    });
  });

  it("builds every kind of content", async () => {
    const t = setup();
    const s = await connected(t);
    const to = { number: PN };
    const data = Buffer.from("bytes");
    await t.session.send(to, { kind: "media", mediaType: "image", data, mimetype: "image/png", caption: "Planos" }, undefined, {
      id: "3EB0X",
    });
    await t.session.send(to, { kind: "media", mediaType: "audio", data, mimetype: "audio/ogg; codecs=opus" }, undefined, { id: "3EB0X" });
    await t.session.send(to, { kind: "media", mediaType: "audio", data, mimetype: "audio/mpeg", ptt: true }, undefined, { id: "3EB0X" });
    await t.session.send(to, { kind: "media", mediaType: "video", data, mimetype: "video/mp4" }, undefined, { id: "3EB0X" });
    await t.session.send(
      to,
      {
        kind: "media",
        mediaType: "document",
        data,
        mimetype: "application/pdf",
        fileName: "boleto.pdf",
        caption: "Seu boleto",
      },
      undefined,
      { id: "3EB0X" },
    );
    await t.session.send(to, { kind: "location", latitude: -23.5, longitude: -46.6, name: "Loja" }, undefined, { id: "3EB0X" });
    await t.session.send(to, { kind: "contact", displayName: "Suporte", vcard: "BEGIN:VCARD\nEND:VCARD" }, undefined, { id: "3EB0X" });
    expect(s.callsOf("sendMessage").map((c) => c[1])).toEqual([
      { image: data, mimetype: "image/png", caption: "Planos" },
      { audio: data, ptt: true, mimetype: "audio/ogg; codecs=opus" },
      { audio: data, ptt: false, mimetype: "audio/mpeg" },
      { video: data, mimetype: "video/mp4" },
      { document: data, mimetype: "application/pdf", fileName: "boleto.pdf", caption: "Seu boleto" },
      { location: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: "Loja" } },
      { contacts: { displayName: "Suporte", contacts: [{ displayName: "Suporte", vcard: "BEGIN:VCARD\nEND:VCARD" }] } },
    ]);
  });

  it("delete for everyone, typing, read receipts", async () => {
    const t = setup();
    const s = await connected(t);
    const jid = `${PN}@s.whatsapp.net`;
    await t.session.deleteForEveryone({ number: PN }, "BAE5OUT9", true);
    await t.session.setTyping({ number: PN }, true);
    await t.session.setTyping({ number: PN }, false);
    await t.session.markRead({ number: PN }, [
      { id: "IN1", fromMe: false },
      { id: "OUT1", fromMe: true },
    ]);
    expect(s.callsOf("sendMessage")).toEqual([[jid, { delete: { remoteJid: jid, fromMe: true, id: "BAE5OUT9" } }]]);
    expect(s.callsOf("sendPresenceUpdate")).toEqual([
      ["composing", jid],
      ["paused", jid],
    ]);
    expect(s.callsOf("readMessages")).toEqual([[[{ remoteJid: jid, id: "IN1", fromMe: false }]]]);
  });

  it("checks numbers on WhatsApp, answering the canonical number and LID", async () => {
    const t = setup();
    const s = await connected(t);
    s.onWhatsAppAnswer = [{ jid: "551187654321@s.whatsapp.net", exists: true }];
    s.lidForPn.set("551187654321@s.whatsapp.net", `${LID}@lid`);
    expect(await t.session.checkNumber("+55 (11) 98765-4321")).toEqual({ exists: true, number: "551187654321", lid: LID });
    expect(s.callsOf("onWhatsApp")).toEqual([[`${PN}@s.whatsapp.net`]]);
    s.onWhatsAppAnswer = [];
    expect(await t.session.checkNumber("5511000000000")).toEqual({ exists: false });
  });

  it("profile pictures, undefined when hidden or missing", async () => {
    const t = setup();
    await connected(t);
    expect(await t.session.profilePictureUrl({ number: PN })).toBe("https://pps.whatsapp.net/v/t61/photo.jpg");
    expect(await t.session.profilePictureUrl({ number: "5511000000000" })).toBeUndefined();
  });

  it("refuses to send while not connected", async () => {
    const t = setup();
    await t.session.start();
    // a send while disconnected is a transient failure: the outbox keeps the message for the reconnect
    await expect(t.session.send({ number: PN }, { kind: "text", body: "oi" }, undefined, { id: "3EB0X" })).rejects.toMatchObject({
      reason: "ERR_WAPP_NOT_INITIALIZED",
      permanent: false,
    });
    await expect(t.session.checkNumber(PN)).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    // presence and read receipts are best effort
    await expect(t.session.setTyping({ number: PN }, true)).resolves.toBeUndefined();
  });

  it("a failed send is ERR_SENDING_WAPP_MSG", async () => {
    const t = setup();
    const s = await connected(t);
    s.sendMessage = async () => {
      throw new Error("socket hiccup");
    };
    await expect(t.session.send({ number: PN }, { kind: "text", body: "oi" }, undefined, { id: "3EB0X" })).rejects.toMatchObject({
      reason: "ERR_SENDING_WAPP_MSG",
      permanent: false,
    });
  });
});

describe("baileys driver: logs", () => {
  it("Baileys' log objects lose key material and message contents", () => {
    expect(
      redact({
        err: new Error("bad mac"),
        jid: "x@s.whatsapp.net",
        privKey: "secret",
        creds: { a: 1 },
        noiseKey: "n",
        attempt: 2,
        node: { tag: "iq" },
      }),
    ).toEqual({ err: "bad mac", jid: "x@s.whatsapp.net", attempt: 2 });
  });

  it("pairing and reconnecting never log credentials", async () => {
    const t = setup();
    await t.session.start();
    t.last().emit("creds.update", { me: { id: ME_JID }, registered: true });
    t.last().close(515);
    await flush();
    t.last().open();
    t.last().close(428);
    await flush();
    const creds = t.store.data.get("creds")!;
    const secrets = [decodeValue<{ noiseKey: { private: Buffer } }>(creds).noiseKey.private.toString("base64")];
    const logged = JSON.stringify(t.logs);
    for (const secret of secrets) expect(logged).not.toContain(secret);
    expect(logged).not.toContain("noiseKey");
  });
});
