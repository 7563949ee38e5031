import { readFileSync } from "node:fs";
import type { MessageUserReceiptUpdate, WACallEvent, WAMessage, WAMessageUpdate } from "baileys";
import { describe, expect, it } from "vitest";
import type { ChannelEvent, InboundMessage } from "../src/channels/channel.js";
import {
  acksFromReceipts,
  acksFromUpdates,
  lidsWithoutNumber,
  type NormalizeContext,
  normalizeCall,
  normalizeMessage,
  statusToAck,
  vcardNumber,
} from "../src/channels/baileys/normalize.js";
import { addressToJid, parseJid } from "../src/channels/baileys/address.js";

const fixture = <T = WAMessage>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/baileys/${name}.json`, import.meta.url), "utf8")) as T;

const PN = "5511987654321";
const LID = "210987654321098";
const GROUP = "120363025746812345";
const AT = new Date("2026-01-01T10:00:00.000Z");

function inbound(name: string, ctx?: NormalizeContext): InboundMessage {
  const event = normalizeMessage(fixture(name), ctx);
  expect(event?.type).toBe("message");
  return (event as Extract<ChannelEvent, { type: "message" }>).message;
}

describe("baileys normalizer: who wrote", () => {
  it("a phone-addressed chat keeps the number and the LID from remoteJidAlt", () => {
    const m = inbound("text-pn-with-lid-alt");
    expect(m).toEqual({
      id: "3EB0A1B2C3D4E5F60001",
      fromMe: false,
      chat: { number: PN, lid: LID, isGroup: false },
      pushName: "Maria Souza",
      timestamp: AT,
      body: "Boa tarde, minha internet caiu",
      mediaType: "chat",
    });
  });

  it("a LID-addressed chat takes the number from remoteJidAlt", () => {
    expect(inbound("text-lid-with-pn-alt").chat).toEqual({ number: PN, lid: LID, isGroup: false });
  });

  it("a LID-only sender is resolved through the LID mapping", () => {
    const msg = fixture("text-lid-only");
    expect(lidsWithoutNumber(msg)).toEqual([LID]);
    const m = inbound("text-lid-only", { pnForLid: (lid) => (lid === LID ? PN : undefined) });
    expect(m.chat).toEqual({ number: PN, lid: LID, isGroup: false });
  });

  it("a LID-only sender with no mapping keeps the LID alone", () => {
    expect(inbound("text-lid-only").chat).toEqual({ lid: LID, isGroup: false });
  });

  it("older key shapes carry the number as senderPn", () => {
    expect(inbound("text-legacy-sender-pn").chat).toEqual({ number: PN, lid: LID, isGroup: false });
  });

  it("groups are flagged and the participant is the sender, number and LID both", () => {
    const m = inbound("group-lid-participant-with-alt");
    expect(m.chat).toEqual({ groupId: GROUP, isGroup: true });
    expect(m.sender).toEqual({ number: PN, lid: LID, name: "Maria Souza" });
  });

  it("a LID-only group participant is resolved through the mapping", () => {
    const msg = fixture("group-lid-only-participant");
    expect(lidsWithoutNumber(msg)).toEqual([LID]);
    expect(inbound("group-lid-only-participant", { pnForLid: () => PN }).sender).toEqual({ number: PN, lid: LID, name: "Maria Souza" });
  });

  it("messages sent from the phone are kept as fromMe, without our own push name", () => {
    const m = inbound("from-me-phone");
    expect(m.fromMe).toBe(true);
    expect(m.chat).toEqual({ number: PN, lid: LID, isGroup: false });
    expect(m.pushName).toBeUndefined();
  });

  it("reads protobuf Long timestamps", () => {
    expect(inbound("text-long-timestamp").timestamp).toEqual(AT);
  });
});

describe("baileys normalizer: message types", () => {
  it("extended text keeps the quoted message id", () => {
    const m = inbound("extended-text-quote");
    expect(m.body).toBe("Isso mesmo, o plano de 300 mega");
    expect(m.mediaType).toBe("chat");
    expect(m.quotedId).toBe("BAE5F00D1234ABCD");
  });

  it("image with caption, media loaded lazily through the download function", async () => {
    let downloads = 0;
    const m = inbound("image-caption", {
      download: async (msg) => {
        downloads += 1;
        return Buffer.from(`bytes of ${msg.key.id}`);
      },
    });
    expect(m.mediaType).toBe("image");
    expect(m.body).toBe("Foto do roteador");
    expect(m.media?.mimetype).toBe("image/jpeg");
    expect(downloads).toBe(0);
    const data = m.media?.data as () => Promise<Buffer>;
    expect(typeof data).toBe("function");
    expect((await data()).toString()).toBe("bytes of 3EB0A1B2C3D4E5F60006");
    expect(downloads).toBe(1);
  });

  it("a media loader without a download function rejects", async () => {
    const m = inbound("video");
    const load = m.media!.data as () => Promise<Buffer>;
    await expect(load()).rejects.toThrow("media download unavailable");
  });

  it("video", () => {
    const m = inbound("video");
    expect([m.mediaType, m.body, m.media?.mimetype]).toEqual(["video", "Luz piscando", "video/mp4"]);
  });

  it("document uses its file name as body when there is no caption", () => {
    const m = inbound("document");
    expect([m.mediaType, m.body, m.media?.mimetype, m.media?.fileName]).toEqual([
      "document",
      "comprovante.pdf",
      "application/pdf",
      "comprovante.pdf",
    ]);
  });

  it("documentWithCaptionMessage is unwrapped and keeps the caption", () => {
    const m = inbound("document-with-caption");
    expect([m.mediaType, m.body, m.media?.fileName]).toEqual(["document", "Segue o contrato assinado", "contrato.pdf"]);
  });

  it("audio file and voice note are both audio", () => {
    expect(inbound("audio-file")).toMatchObject({ mediaType: "audio", body: "", media: { mimetype: "audio/mpeg" } });
    expect(inbound("voice-note")).toMatchObject({ mediaType: "audio", body: "", media: { mimetype: "audio/ogg; codecs=opus" } });
  });

  it("sticker", () => {
    expect(inbound("sticker")).toMatchObject({ mediaType: "sticker", media: { mimetype: "image/webp" } });
  });

  it("location", () => {
    const m = inbound("location");
    expect(m.mediaType).toBe("location");
    expect(m.location).toEqual({ latitude: -23.55052, longitude: -46.633308, name: "Casa", address: "Rua das Flores, 100 - São Paulo" });
    expect(m.body).toBe("Casa - Rua das Flores, 100 - São Paulo");
  });

  it("contact card with its WhatsApp number", () => {
    const m = inbound("contact");
    expect(m.mediaType).toBe("vcard");
    expect(m.body).toBe("João Técnico");
    expect(m.vcard?.displayName).toBe("João Técnico");
    expect(m.vcard?.number).toBe("5511912345678");
    expect(m.vcard?.vcard).toContain("BEGIN:VCARD");
  });

  it("contacts array joins the cards", () => {
    const m = inbound("contacts-array");
    expect(m.mediaType).toBe("vcard");
    expect(m.body).toBe("Ana, Bruno");
    expect(m.vcard?.number).toBe("5521988887777");
    expect(m.vcard?.vcard.match(/BEGIN:VCARD/g)).toHaveLength(2);
  });

  it("vcard numbers: waid first, else the TEL digits", () => {
    expect(vcardNumber("TEL;type=CELL:+55 31 97777-6666")).toBe("5531977776666");
    expect(vcardNumber("FN:Sem telefone")).toBeUndefined();
  });

  it("ephemeral and view-once wrappers are unwrapped", () => {
    expect(inbound("ephemeral-text")).toMatchObject({ mediaType: "chat", body: "Mensagem temporária" });
    expect(inbound("view-once-image")).toMatchObject({ mediaType: "image", media: { mimetype: "image/jpeg" } });
  });

  it("a button reply reads as the text tapped, quoting the menu", () => {
    expect(inbound("buttons-response")).toMatchObject({ mediaType: "chat", body: "Financeiro", quotedId: "BAE5BOTMENU0001" });
  });
});

describe("baileys normalizer: events about other messages", () => {
  it("a reaction names the target message, the emoji and who reacted", () => {
    expect(normalizeMessage(fixture("reaction"))).toEqual({
      type: "reaction",
      id: "BAE5F00D1234ABCD",
      emoji: "👍",
      from: { number: PN, lid: LID },
    });
  });

  it("a removed reaction has an empty emoji", () => {
    expect(normalizeMessage(fixture("reaction-removed"))).toMatchObject({ type: "reaction", emoji: "" });
  });

  it("REVOKE becomes a delete of the target message", () => {
    expect(normalizeMessage(fixture("revoke"))).toEqual({ type: "delete", id: "3EB0A1B2C3D4E5F60001" });
  });

  it("MESSAGE_EDIT becomes an edit with the new text and when", () => {
    expect(normalizeMessage(fixture("edit-protocol"))).toEqual({
      type: "edit",
      id: "3EB0A1B2C3D4E5F60001",
      body: "Boa tarde, minha internet está lenta",
      editedAt: new Date("2026-01-01T10:01:00.000Z"),
    });
  });

  it("an editedMessage wrapper is an edit too", () => {
    expect(normalizeMessage(fixture("edit-edited-message"))).toEqual({
      type: "edit",
      id: "3EB0A1B2C3D4E5F60005",
      body: "Isso mesmo, o plano de 500 mega",
      editedAt: new Date("2026-01-01T10:02:00.000Z"),
    });
  });
});

describe("baileys normalizer: ignored", () => {
  it.each(["status-broadcast", "newsletter", "ephemeral-setting", "stub-without-content"])("%s yields nothing", (name) => {
    expect(normalizeMessage(fixture(name))).toBeUndefined();
  });
});

describe("baileys acks, receipts and calls", () => {
  it("message status maps to ack 0–4", () => {
    expect([0, 1, 2, 3, 4, 5].map(statusToAck)).toEqual([0, 0, 1, 2, 3, 4]);
    expect(statusToAck(undefined)).toBeUndefined();
    expect(statusToAck(9)).toBeUndefined();
  });

  it("messages.update gives acks of our own messages only, and ignores revokes there", () => {
    expect(acksFromUpdates(fixture<WAMessageUpdate[]>("messages-update"))).toEqual([
      { type: "ack", id: "BAE5SENT00000001", ack: 1 },
      { type: "ack", id: "BAE5SENT00000001", ack: 2 },
      { type: "ack", id: "BAE5SENT00000001", ack: 3 },
      { type: "ack", id: "BAE5SENT00000002", ack: 4 },
      { type: "ack", id: "BAE5SENT00000003", ack: 0 },
    ]);
  });

  it("group receipts raise the ack of our message", () => {
    expect(acksFromReceipts(fixture<MessageUserReceiptUpdate[]>("message-receipts"))).toEqual([
      { type: "ack", id: "BAE5GROUP0000001", ack: 2 },
      { type: "ack", id: "BAE5GROUP0000001", ack: 3 },
    ]);
  });

  it("a call offer becomes a call event with number and LID; other call states say nothing", () => {
    const calls = fixture<(WACallEvent & { date: string })[]>("calls").map((c) => ({ ...c, date: new Date(c.date) }));
    expect(calls.map((c) => normalizeCall(c))).toEqual([
      {
        type: "call",
        callId: "CALL0A1B2C3D4E5F",
        from: { number: PN, lid: LID },
        isVideo: false,
        at: new Date("2026-01-01T10:05:00.000Z"),
      },
      undefined,
      {
        type: "call",
        callId: "CALLVIDEO0000001",
        from: { number: "5521988887777" },
        isVideo: true,
        at: new Date("2026-01-01T10:06:00.000Z"),
      },
      { type: "call", callId: "CALLLIDONLY00001", from: { lid: LID }, isVideo: false, at: new Date("2026-01-01T10:07:00.000Z") },
    ]);
    expect(normalizeCall(calls[3], { pnForLid: () => PN })).toMatchObject({ from: { number: PN, lid: LID } });
  });
});

describe("baileys addresses", () => {
  it("parses jids without their device suffix", () => {
    expect(parseJid("5511900001111:7@s.whatsapp.net")).toEqual({ kind: "pn", user: "5511900001111" });
    expect(parseJid("210987654321098@lid")).toEqual({ kind: "lid", user: "210987654321098" });
    expect(parseJid(`${GROUP}@g.us`)).toEqual({ kind: "group", user: GROUP });
    expect(parseJid("nonsense")).toBeUndefined();
  });

  it("sends to the group, else the number, else the LID", () => {
    expect(addressToJid({ groupId: GROUP, number: PN })).toBe(`${GROUP}@g.us`);
    expect(addressToJid({ number: "+55 (11) 98765-4321", lid: LID })).toBe(`${PN}@s.whatsapp.net`);
    expect(addressToJid({ lid: LID })).toBe(`${LID}@lid`);
    expect(() => addressToJid({})).toThrow();
  });
});
