import type { proto, WACallEvent, WAMessage, WAMessageKey, WAMessageUpdate, MessageUserReceiptUpdate } from "baileys";
import type { MediaType } from "@balcao/contract";
import type { Ack, Address, ChannelEvent, InboundMessage } from "../channel.js";
import { parseJid, personFromJids, STATUS_BROADCAST } from "./address.js";

/**
 * Pure functions from Baileys' shapes to the channel's events. Nothing here touches a socket:
 * the LID → phone lookups and the media download come in through `NormalizeContext`.
 */

/** proto.Message.ProtocolMessage.Type, kept here so this file needs no Baileys runtime. */
export const PROTOCOL_REVOKE = 0;
export const PROTOCOL_MESSAGE_EDIT = 14;

export interface NormalizeContext {
  /** Phone digits for a LID (digits, no "@lid"), from a mapping looked up beforehand. */
  pnForLid?: (lid: string) => string | undefined;
  /** Downloads the media of a message; wrapped in a loader, never called while normalizing. */
  download?: (msg: WAMessage) => Promise<Buffer>;
  /** This session's own address, used as the author of our own reactions. */
  self?: Address;
}

type Content = proto.IMessage;

/** The wrappers WhatsApp puts around a message (disappearing, view once, captioned document, edit). */
export function unwrapContent(content: Content | null | undefined): Content | undefined {
  let c = content ?? undefined;
  for (let i = 0; i < 6 && c; i++) {
    const inner =
      c.ephemeralMessage?.message ??
      c.viewOnceMessage?.message ??
      c.viewOnceMessageV2?.message ??
      c.viewOnceMessageV2Extension?.message ??
      c.documentWithCaptionMessage?.message ??
      c.editedMessage?.message;
    if (!inner) break;
    c = inner;
  }
  return c;
}

/** Fields that come beside the real content and say nothing by themselves. */
const NOISE_KEYS = new Set(["messageContextInfo", "senderKeyDistributionMessage"]);

/** Housekeeping that arrives as a message but is no conversation (pins, keep-in-chat, album headers, votes). */
const SILENT_TYPES = new Set([
  "albumMessage",
  "keepInChatMessage",
  "pinInChatMessage",
  "pollUpdateMessage",
  "encReactionMessage",
  "encEventResponseMessage",
  "secretEncryptedMessage",
]);

function contentType(c: Content): string | undefined {
  for (const [k, v] of Object.entries(c)) {
    if (v != null && !NOISE_KEYS.has(k)) return k;
  }
  return undefined;
}

export function toDate(ts: unknown): Date | undefined {
  if (ts == null) return undefined;
  let seconds: number;
  if (typeof ts === "number") seconds = ts;
  else if (typeof ts === "string") seconds = Number(ts);
  else if (typeof ts === "object" && ts !== null && "low" in ts) {
    // protobuf Long
    const l = ts as { low: number; high: number };
    seconds = l.high * 2 ** 32 + (l.low >>> 0);
  } else return undefined;
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : undefined;
}

function msToDate(ms: unknown): Date | undefined {
  const d = toDate(ms);
  return d ? new Date(d.getTime() / 1000) : undefined;
}

/** The older key shapes carried the alternate ids under these names. */
type AnyKey = WAMessageKey & { senderPn?: string; senderLid?: string; participantPn?: string; participantLid?: string };

function withLid(a: Address, ctx: NormalizeContext): Address {
  if (!a.number && a.lid) {
    const pn = ctx.pnForLid?.(a.lid);
    if (pn) return { ...a, number: pn };
  }
  return a;
}

function isGroupJid(jid: string | null | undefined): boolean {
  return parseJid(jid)?.kind === "group";
}

/** Chat and sender of a message key: phone number and LID both, whichever fields carry them. */
export function keyAddresses(key: WAMessageKey, ctx: NormalizeContext = {}): { chat: InboundMessage["chat"]; sender?: Address } {
  const k = key as AnyKey;
  if (isGroupJid(k.remoteJid)) {
    const groupId = parseJid(k.remoteJid)!.user;
    const sender = withLid(personFromJids([k.participant, k.participantAlt, k.participantPn, k.participantLid]), ctx);
    return { chat: { groupId, isGroup: true }, sender: sender.number || sender.lid ? sender : undefined };
  }
  const person = withLid(personFromJids([k.remoteJid, k.remoteJidAlt, k.senderPn, k.senderLid]), ctx);
  return { chat: { ...person, isGroup: false } };
}

/** LIDs in a message key that have no phone number beside them: the driver looks these up first. */
export function lidsWithoutNumber(msg: WAMessage): string[] {
  const { chat, sender } = keyAddresses(msg.key);
  const out: string[] = [];
  for (const a of [chat, sender]) if (a?.lid && !a.number) out.push(a.lid);
  return out;
}

/** Messages nobody in the inbox should see. */
export function isIgnoredChat(jid: string | null | undefined): boolean {
  if (!jid) return true;
  if (jid === STATUS_BROADCAST) return true;
  const kind = parseJid(jid)?.kind;
  return kind === undefined || kind === "broadcast" || kind === "other";
}

function textOf(c: Content | null | undefined): string | undefined {
  if (!c) return undefined;
  const u = unwrapContent(c);
  if (!u) return undefined;
  return (
    u.conversation ??
    u.extendedTextMessage?.text ??
    u.imageMessage?.caption ??
    u.videoMessage?.caption ??
    u.documentMessage?.caption ??
    undefined
  );
}

/** WhatsApp puts the "wa id" of a vcard's number as `waid=5511...`; else the first TEL digits. */
export function vcardNumber(vcard: string | null | undefined): string | undefined {
  if (!vcard) return undefined;
  const waid = /waid=(\d+)/i.exec(vcard);
  if (waid) return waid[1];
  const tel = /^TEL[^:]*:(.+)$/im.exec(vcard);
  const digits = tel?.[1].replace(/\D/g, "");
  return digits || undefined;
}

function mediaLoader(msg: WAMessage, ctx: NormalizeContext): () => Promise<Buffer> {
  return () => {
    if (!ctx.download) return Promise.reject(new Error("media download unavailable"));
    return ctx.download(msg);
  };
}

interface Body {
  body: string;
  mediaType: MediaType;
  media?: InboundMessage["media"];
  location?: InboundMessage["location"];
  vcard?: InboundMessage["vcard"];
  contextInfo?: proto.IContextInfo | null;
}

function bodyOf(c: Content, type: string, msg: WAMessage, ctx: NormalizeContext): Body | undefined {
  switch (type) {
    case "conversation":
      return { body: c.conversation ?? "", mediaType: "chat" };
    case "extendedTextMessage":
      return { body: c.extendedTextMessage?.text ?? "", mediaType: "chat", contextInfo: c.extendedTextMessage?.contextInfo };
    case "imageMessage": {
      const m = c.imageMessage!;
      return {
        body: m.caption ?? "",
        mediaType: "image",
        media: { mimetype: m.mimetype ?? "image/jpeg", data: mediaLoader(msg, ctx) },
        contextInfo: m.contextInfo,
      };
    }
    case "videoMessage": {
      const m = c.videoMessage!;
      return {
        body: m.caption ?? "",
        mediaType: "video",
        media: { mimetype: m.mimetype ?? "video/mp4", data: mediaLoader(msg, ctx) },
        contextInfo: m.contextInfo,
      };
    }
    case "audioMessage": {
      const m = c.audioMessage!;
      return {
        body: "",
        mediaType: "audio",
        media: { mimetype: m.mimetype ?? (m.ptt ? "audio/ogg; codecs=opus" : "audio/mpeg"), data: mediaLoader(msg, ctx) },
        contextInfo: m.contextInfo,
      };
    }
    case "documentMessage": {
      const m = c.documentMessage!;
      const fileName = m.fileName ?? m.title ?? undefined;
      return {
        body: m.caption ?? fileName ?? "",
        mediaType: "document",
        media: { mimetype: m.mimetype ?? "application/octet-stream", fileName, data: mediaLoader(msg, ctx) },
        contextInfo: m.contextInfo,
      };
    }
    case "stickerMessage": {
      const m = c.stickerMessage!;
      return {
        body: "",
        mediaType: "sticker",
        media: { mimetype: m.mimetype ?? "image/webp", data: mediaLoader(msg, ctx) },
        contextInfo: m.contextInfo,
      };
    }
    case "locationMessage":
    case "liveLocationMessage": {
      const m = (c.locationMessage ?? c.liveLocationMessage)!;
      const name = "name" in m ? (m.name ?? undefined) : undefined;
      const address = "address" in m ? (m.address ?? undefined) : undefined;
      return {
        body: [name, address].filter(Boolean).join(" - "),
        mediaType: "location",
        location: { latitude: m.degreesLatitude ?? 0, longitude: m.degreesLongitude ?? 0, name, address },
        contextInfo: m.contextInfo,
      };
    }
    case "contactMessage": {
      const m = c.contactMessage!;
      const vcard = m.vcard ?? "";
      const displayName = m.displayName ?? "";
      return {
        body: displayName,
        mediaType: "vcard",
        vcard: { displayName, vcard, number: vcardNumber(vcard) },
        contextInfo: m.contextInfo,
      };
    }
    case "contactsArrayMessage": {
      const m = c.contactsArrayMessage!;
      const contacts = m.contacts ?? [];
      const names = contacts.map((x) => x.displayName ?? "").filter(Boolean);
      const displayName = m.displayName ?? names.join(", ");
      return {
        body: names.join(", ") || displayName,
        mediaType: "vcard",
        vcard: { displayName, vcard: contacts.map((x) => x.vcard ?? "").join("\n"), number: vcardNumber(contacts[0]?.vcard) },
        contextInfo: m.contextInfo,
      };
    }
    // replies to buttons and lists (what ISP bots send) read as the text the customer tapped
    case "buttonsResponseMessage":
      return {
        body: c.buttonsResponseMessage?.selectedDisplayText ?? "",
        mediaType: "chat",
        contextInfo: c.buttonsResponseMessage?.contextInfo,
      };
    case "templateButtonReplyMessage":
      return {
        body: c.templateButtonReplyMessage?.selectedDisplayText ?? "",
        mediaType: "chat",
        contextInfo: c.templateButtonReplyMessage?.contextInfo,
      };
    case "listResponseMessage":
      return {
        body: c.listResponseMessage?.title ?? c.listResponseMessage?.singleSelectReply?.selectedRowId ?? "",
        mediaType: "chat",
        contextInfo: c.listResponseMessage?.contextInfo,
      };
    case "interactiveResponseMessage":
      return {
        body: c.interactiveResponseMessage?.body?.text ?? "",
        mediaType: "chat",
        contextInfo: c.interactiveResponseMessage?.contextInfo,
      };
    default:
      return { body: "", mediaType: "other" };
  }
}

/**
 * One WAMessage from `messages.upsert` → one channel event: a message, or a reaction, revoke or
 * edit that refers to another message; undefined for what the inbox ignores (status broadcasts,
 * newsletters, stubs without content, protocol housekeeping).
 */
export function normalizeMessage(msg: WAMessage, ctx: NormalizeContext = {}): ChannelEvent | undefined {
  const key = msg.key;
  if (!key?.id || isIgnoredChat(key.remoteJid)) return undefined;
  const content = unwrapContent(msg.message);
  if (!content) return undefined;
  const type = contentType(content);
  if (!type || SILENT_TYPES.has(type)) return undefined;
  const fromMe = key.fromMe === true;
  const { chat, sender } = keyAddresses(key, ctx);

  if (type === "protocolMessage") {
    const p = content.protocolMessage!;
    const target = p.key?.id;
    if (!target) return undefined;
    if ((p.type ?? PROTOCOL_REVOKE) === PROTOCOL_REVOKE) return { type: "delete", id: target };
    if (p.type === PROTOCOL_MESSAGE_EDIT) {
      return {
        type: "edit",
        id: target,
        body: textOf(p.editedMessage) ?? "",
        editedAt: msToDate(p.timestampMs) ?? toDate(msg.messageTimestamp),
      };
    }
    return undefined;
  }

  if (type === "reactionMessage") {
    const r = content.reactionMessage!;
    if (!r.key?.id) return undefined;
    const from = fromMe ? (ctx.self ?? {}) : chat.isGroup ? (sender ?? {}) : { number: chat.number, lid: chat.lid };
    // an empty text is WhatsApp's "reaction removed"
    return { type: "reaction", id: r.key.id, emoji: r.text ?? "", from: stripUndefined(from) };
  }

  const b = bodyOf(content, type, msg, ctx);
  if (!b) return undefined;
  const message: InboundMessage = {
    id: key.id,
    fromMe,
    chat: stripUndefined(chat),
    timestamp: toDate(msg.messageTimestamp) ?? new Date(0),
    body: b.body,
    mediaType: b.mediaType,
  };
  if (sender) message.sender = stripUndefined({ ...sender, name: fromMe ? undefined : (msg.pushName ?? undefined) });
  if (!fromMe && msg.pushName) message.pushName = msg.pushName;
  if (b.media) message.media = stripUndefined(b.media);
  if (b.location) message.location = stripUndefined(b.location);
  if (b.vcard) message.vcard = stripUndefined(b.vcard);
  const quotedId = b.contextInfo?.stanzaId;
  if (quotedId) message.quotedId = quotedId;
  return { type: "message", message };
}

function stripUndefined<T extends object>(o: T): T {
  const out = { ...o };
  for (const k of Object.keys(out) as (keyof T)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/** proto.WebMessageInfo.Status (ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5) → ack 0–4. */
export function statusToAck(status: number | null | undefined): Ack | undefined {
  if (status == null || !Number.isInteger(status) || status < 0 || status > 5) return undefined;
  return Math.max(0, status - 1) as Ack;
}

/** Acks of our own messages from `messages.update`; edits and revokes there are taken from the upsert instead. */
export function acksFromUpdates(updates: WAMessageUpdate[]): ChannelEvent[] {
  const out: ChannelEvent[] = [];
  for (const u of updates) {
    if (!u.key?.id || !u.key.fromMe || isIgnoredChat(u.key.remoteJid)) continue;
    const ack = statusToAck(u.update?.status);
    if (ack !== undefined) out.push({ type: "ack", id: u.key.id, ack });
  }
  return out;
}

/** Group receipts, one per participant: the first one that delivers, reads or plays raises the ack. */
export function acksFromReceipts(receipts: MessageUserReceiptUpdate[]): ChannelEvent[] {
  const out: ChannelEvent[] = [];
  for (const r of receipts) {
    if (!r.key?.id || !r.key.fromMe || isIgnoredChat(r.key.remoteJid)) continue;
    const ack: Ack | undefined = r.receipt.playedTimestamp ? 4 : r.receipt.readTimestamp ? 3 : r.receipt.receiptTimestamp ? 2 : undefined;
    if (ack !== undefined) out.push({ type: "ack", id: r.key.id, ack });
  }
  return out;
}

/** An incoming call offer → a call event; the other call states (ringing, timeout, …) say nothing new. */
export function normalizeCall(call: WACallEvent, ctx: NormalizeContext = {}): ChannelEvent | undefined {
  if (call.status !== "offer" || call.isGroup) return undefined;
  const from = withLid(personFromJids([call.from, call.callerPn, call.chatId]), ctx);
  if (!from.number && !from.lid) return undefined;
  const at = call.date instanceof Date ? call.date : new Date(call.date ?? 0);
  return { type: "call", callId: call.id, from: stripUndefined(from), isVideo: call.isVideo === true, at };
}
