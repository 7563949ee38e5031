import { randomBytes } from "node:crypto";
import type { MediaType } from "@balcao/contract";
import type { Ack, Address, ChannelDeps, ChannelFactory, ChannelSession, OutboundContent, QuotedRef, SentMessage } from "../channel.js";

/**
 * A WhatsApp stand-in for demos and tests. It pairs by "scanning" its QR code from the simulator
 * page, plays the customers' side (they write text, images, audio and read what agents send), and
 * emits the same normalized events as a real engine, so the rest of the server cannot tell.
 */

export interface SimMessage {
  id: string;
  fromMe: boolean;
  body: string;
  mediaType: MediaType;
  mimetype?: string;
  fileName?: string;
  /** kept in memory for the simulator page */
  data?: Buffer;
  ack: Ack;
  isDeleted: boolean;
  quotedId?: string;
  at: string;
}

export interface SimChat {
  number: string;
  name: string;
  messages: SimMessage[];
  /** the agent is typing to this customer */
  typing: boolean;
}

export interface SimulatorOptions {
  /** delay between the acks 1 (server) and 2 (delivered) of a sent message */
  ackDelayMs: number;
  /** messages kept per chat in memory */
  maxMessagesPerChat: number;
}

const CREDS = "creds";

export class SimulatorSession implements ChannelSession {
  readonly type = "simulator" as const;
  readonly whatsappId: number;
  status: "DISCONNECTED" | "qrcode" | "CONNECTED" = "DISCONNECTED";
  qrcode = "";
  number = "";
  readonly chats: Map<string, SimChat>;
  private timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly deps: ChannelDeps,
    private readonly opts: SimulatorOptions,
    /** the chats of the previous session of this connection, kept across restarts */
    chats?: Map<string, SimChat>,
  ) {
    this.whatsappId = deps.whatsappId;
    this.chats = chats ?? new Map();
  }

  async start(): Promise<void> {
    const stored = (await this.deps.authState.get([CREDS])).get(CREDS);
    if (stored) {
      this.number = (JSON.parse(stored) as { number: string }).number;
      this.setStatus("CONNECTED");
    } else this.newQr();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.status = "DISCONNECTED";
  }

  async logout(): Promise<void> {
    await this.stop();
    await this.deps.authState.clear();
    this.number = "";
    this.qrcode = "";
    this.deps.emit({ type: "status", status: "DISCONNECTED", qrcode: "", reason: "logged out" });
  }

  async requestNewQr(): Promise<void> {
    await this.deps.authState.clear();
    this.number = "";
    this.newQr();
  }

  /** The simulator page scans the QR code shown for this connection. */
  async scan(qrcode: string): Promise<boolean> {
    if (this.status !== "qrcode" || !qrcode || qrcode !== this.qrcode) return false;
    this.number = `5500000${String(this.whatsappId).padStart(6, "0")}`;
    await this.deps.authState.set(new Map([[CREDS, JSON.stringify({ number: this.number, pairedAt: new Date().toISOString() })]]));
    this.setStatus("CONNECTED");
    return true;
  }

  private newQr() {
    this.qrcode = `balcao-sim:${this.whatsappId}:${randomBytes(12).toString("base64url")}`;
    this.status = "qrcode";
    this.deps.emit({ type: "status", status: "qrcode", qrcode: this.qrcode });
  }

  private setStatus(status: "CONNECTED" | "DISCONNECTED") {
    this.status = status;
    this.qrcode = "";
    this.deps.emit({ type: "status", status, qrcode: "", number: this.number });
  }

  private chat(number: string, name?: string): SimChat {
    let chat = this.chats.get(number);
    if (!chat) {
      chat = { number, name: name || number, messages: [], typing: false };
      this.chats.set(number, chat);
    } else if (name) chat.name = name;
    return chat;
  }

  private push(chat: SimChat, msg: SimMessage) {
    chat.messages.push(msg);
    if (chat.messages.length > this.opts.maxMessagesPerChat) chat.messages.splice(0, chat.messages.length - this.opts.maxMessagesPerChat);
  }

  private later(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private assertConnected() {
    if (this.status !== "CONNECTED") throw new Error("simulator session is not connected");
  }

  // ---------- the customer's side ----------

  /** A customer writes; the message reaches the server like any inbound message. Answers its id. */
  customerSend(input: {
    number: string;
    name?: string;
    body?: string;
    media?: { data: Buffer; mimetype: string; fileName?: string };
    quotedId?: string;
    /** a fixed id (redelivery tests); a fresh one otherwise */
    id?: string;
    isGroup?: boolean;
    groupId?: string;
  }): string {
    this.assertConnected();
    const id = input.id ?? `SIMIN${randomBytes(8).toString("hex").toUpperCase()}`;
    const mediaType: MediaType = input.media ? simMediaType(input.media.mimetype) : "chat";
    const chat = this.chat(input.groupId ?? input.number, input.groupId ? undefined : input.name);
    this.push(chat, {
      id,
      fromMe: false,
      body: input.body ?? "",
      mediaType,
      mimetype: input.media?.mimetype,
      fileName: input.media?.fileName,
      data: input.media?.data,
      ack: 2,
      isDeleted: false,
      quotedId: input.quotedId,
      at: new Date().toISOString(),
    });
    this.deps.emit({
      type: "message",
      message: {
        id,
        fromMe: false,
        chat: input.groupId
          ? { groupId: input.groupId, isGroup: true, name: `Grupo ${input.groupId}` }
          : { number: input.number, isGroup: false, name: input.name },
        sender: input.groupId ? { number: input.number, name: input.name } : undefined,
        pushName: input.name,
        timestamp: new Date(),
        body: input.body ?? "",
        mediaType,
        media: input.media ? { mimetype: input.media.mimetype, fileName: input.media.fileName, data: input.media.data } : undefined,
        quotedId: input.quotedId,
      },
    });
    return id;
  }

  /** The customer opens the chat and reads what the agents sent: their messages turn to ack 3. */
  customerRead(number: string): number {
    const chat = this.chats.get(number);
    if (!chat) return 0;
    let n = 0;
    for (const m of chat.messages) {
      if (m.fromMe && m.ack < 3 && !m.isDeleted) {
        m.ack = 3;
        n++;
        this.deps.emit({ type: "ack", id: m.id, ack: 3 });
      }
    }
    return n;
  }

  // ---------- ChannelSession ----------

  async send(to: Address, content: OutboundContent, quoted?: QuotedRef): Promise<SentMessage> {
    this.assertConnected();
    const number = to.groupId ?? to.number ?? to.lid;
    if (!number) throw new Error("no address");
    const id = `SIMOUT${randomBytes(8).toString("hex").toUpperCase()}`;
    const chat = this.chat(number);
    const msg: SimMessage = {
      id,
      fromMe: true,
      body: "",
      mediaType: "chat",
      ack: 0,
      isDeleted: false,
      quotedId: quoted?.id,
      at: new Date().toISOString(),
    };
    if (content.kind === "text") msg.body = content.body;
    else if (content.kind === "media") {
      msg.body = content.caption ?? "";
      msg.mediaType = content.mediaType === "document" ? "document" : content.mediaType;
      msg.mimetype = content.mimetype;
      msg.fileName = content.fileName;
      msg.data = content.data;
    } else if (content.kind === "location") {
      msg.mediaType = "location";
      msg.body = `${content.latitude},${content.longitude}`;
    } else {
      msg.mediaType = "vcard";
      msg.body = content.displayName;
    }
    chat.typing = false;
    this.push(chat, msg);
    // acks advance like on a phone: server (1), then delivered (2); read (3) when the customer reads
    const advance = (ack: Ack) => {
      if (this.status !== "CONNECTED" || msg.ack >= ack) return;
      msg.ack = ack;
      this.deps.emit({ type: "ack", id, ack });
    };
    this.later(this.opts.ackDelayMs, () => advance(1));
    this.later(this.opts.ackDelayMs * 2, () => advance(2));
    return { id, timestamp: new Date() };
  }

  async deleteForEveryone(to: Address, id: string): Promise<void> {
    this.assertConnected();
    const chat = this.chats.get(to.groupId ?? to.number ?? to.lid ?? "");
    const msg = chat?.messages.find((m) => m.id === id);
    if (msg) {
      msg.isDeleted = true;
      msg.body = "";
      msg.data = undefined;
    }
  }

  async setTyping(to: Address, typing: boolean): Promise<void> {
    this.assertConnected();
    const number = to.number ?? to.lid;
    if (number) this.chat(number).typing = typing;
  }

  async markRead(to: Address, ids: { id: string; fromMe: boolean }[]): Promise<void> {
    const chat = this.chats.get(to.number ?? to.lid ?? "");
    if (!chat) return;
    const wanted = new Set(ids.map((i) => i.id));
    for (const m of chat.messages) if (!m.fromMe && wanted.has(m.id)) m.ack = 3;
  }

  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    const digits = number.replace(/\D/g, "");
    return { exists: digits.length >= 8 && digits.length <= 20, number: digits };
  }

  async profilePictureUrl(): Promise<string | undefined> {
    return undefined;
  }

  async rejectCall(): Promise<void> {}
}

function simMediaType(mimetype: string): MediaType {
  if (mimetype.startsWith("image/")) return "image";
  if (mimetype.startsWith("audio/")) return "audio";
  if (mimetype.startsWith("video/")) return "video";
  return "document";
}

/** The simulator sessions of this server, reachable by the simulator page and by tests. */
export class SimulatorHub {
  private readonly sessions = new Map<number, SimulatorSession>();
  readonly factory: ChannelFactory;

  constructor(opts: Partial<SimulatorOptions> = {}) {
    const options: SimulatorOptions = { ackDelayMs: opts.ackDelayMs ?? 150, maxMessagesPerChat: opts.maxMessagesPerChat ?? 500 };
    this.factory = (deps) => {
      const session = new SimulatorSession(deps, options, this.sessions.get(deps.whatsappId)?.chats);
      this.sessions.set(deps.whatsappId, session);
      return session;
    };
  }

  get(whatsappId: number): SimulatorSession | undefined {
    return this.sessions.get(whatsappId);
  }
}
