import { randomBytes } from "node:crypto";
import { cleanDeep, type MediaType } from "@balcao/contract";
import {
  type Ack,
  type Address,
  type ChannelDeps,
  type ChannelFactory,
  ChannelSendError,
  type ChannelContact,
  type ChannelSession,
  type OutboundContent,
  type QuotedRef,
  type SendOptions,
  type SentMessage,
} from "../channel.js";

/**
 * A WhatsApp stand-in for demos and tests. It pairs by "scanning" its QR code from the simulator
 * page, plays the customers' side (they write text, images, audio and read what agents send), and
 * emits the same normalized events as a real engine, so the rest of the server cannot tell.
 *
 * Like WhatsApp's servers and a real phone, it keeps its own state (its store, in the database):
 * a customer's message stays "undelivered" until the product's channel layer has journaled it and
 * is delivered again when the session reconnects; a message sent to a customer is kept once per
 * id, so a re-send with the same id is not a second message.
 */

export interface SimMessage {
  id: string;
  /** the customer's number, or the group id */
  chat: string;
  fromMe: boolean;
  body: string;
  mediaType: MediaType;
  mimetype?: string | null;
  fileName?: string | null;
  /** the media file in the simulator's own folder */
  mediaFile?: string | null;
  ack: Ack;
  isDeleted: boolean;
  quotedId?: string | null;
  /** a customer's message the product has journaled */
  delivered: boolean;
  groupId?: string | null;
  /** in a group: the customer who wrote; else the customer's name when they wrote */
  senderNumber?: string | null;
  senderName?: string | null;
  at: string;
}

export interface SimChat {
  number: string;
  name: string;
  /** this customer's phone refuses messages (like a number without WhatsApp) */
  refused: boolean;
  last?: SimMessage;
}

/** The simulator's memory: its customers' chats and messages, and media files (database + disk). */
export interface SimulatorStore {
  saveChat(whatsappId: number, number: string, name?: string): Promise<void>;
  chats(whatsappId: number): Promise<SimChat[]>;
  chat(whatsappId: number, number: string): Promise<SimChat | undefined>;
  setRefused(whatsappId: number, number: string, refused: boolean): Promise<void>;
  /** Adds a message; false when one with this id is already kept. */
  addMessage(whatsappId: number, message: SimMessage): Promise<boolean>;
  /**
   * A customer writes: its chat saved (`saveChat`: created, or its name and time updated) and the
   * message added, in one write; false when the id is already kept (the chat is saved all the same).
   */
  addCustomerMessage(whatsappId: number, message: SimMessage, chatName?: string): Promise<boolean>;
  message(whatsappId: number, id: string): Promise<SimMessage | undefined>;
  /** The chat's messages, oldest first (the last `limit`). */
  messages(whatsappId: number, chat: string, limit?: number): Promise<SimMessage[]>;
  setDelivered(whatsappId: number, id: string): Promise<void>;
  /** Customer messages the product has not journaled yet, oldest first. */
  undelivered(whatsappId: number): Promise<SimMessage[]>;
  /** Raises a sent message's ack; answers whether it changed. */
  raiseAck(whatsappId: number, id: string, ack: Ack): Promise<boolean>;
  /** Marks the chat's sent messages read (ack 3); answers their ids. */
  readAll(whatsappId: number, chat: string): Promise<string[]>;
  markDeleted(whatsappId: number, id: string): Promise<void>;
  saveMedia(data: Buffer): Promise<string>;
  readMedia(file: string): Promise<Buffer | undefined>;
}

export interface SimulatorOptions {
  /** delay between the acks 1 (server) and 2 (delivered) of a sent message */
  ackDelayMs: number;
}

const CREDS = "creds";

export class SimulatorSession implements ChannelSession {
  readonly type = "simulator" as const;
  readonly whatsappId: number;
  status: "DISCONNECTED" | "qrcode" | "CONNECTED" = "DISCONNECTED";
  qrcode = "";
  number = "";
  /** customers the agent is typing to (presence is not kept) */
  readonly typing = new Set<string>();
  private timers = new Set<NodeJS.Timeout>();
  private redelivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: ChannelDeps,
    private readonly store: SimulatorStore,
    private readonly opts: SimulatorOptions,
  ) {
    this.whatsappId = deps.whatsappId;
  }

  get connected(): boolean {
    return this.status === "CONNECTED";
  }

  async start(): Promise<void> {
    const stored = (await this.deps.authState.get([CREDS])).get(CREDS);
    if (stored) {
      this.number = (JSON.parse(stored) as { number: string }).number;
      await this.setStatus("CONNECTED");
    } else await this.newQr();
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
    await this.deps.emit({ type: "status", status: "DISCONNECTED", qrcode: "", reason: "logged out" });
  }

  /**
   * The phone or WhatsApp drops this device, as Baileys reports it: "loggedOut" (401: unlinked on
   * the phone, the auth is gone) or "forbidden" (403: the number is refused).
   */
  async unlinked(reason: "loggedOut" | "forbidden" = "loggedOut"): Promise<void> {
    await this.stop();
    if (reason === "loggedOut") {
      await this.deps.authState.clear();
      this.number = "";
    }
    await this.deps.emit({ type: "status", status: "DISCONNECTED", qrcode: "", reason });
  }

  async requestNewQr(): Promise<void> {
    await this.deps.authState.clear();
    this.number = "";
    await this.newQr();
  }

  /** The simulator page scans the QR code shown for this connection. */
  async scan(qrcode: string, phoneNumber?: string): Promise<boolean> {
    if (this.status !== "qrcode" || !qrcode || qrcode !== this.qrcode) return false;
    this.number = phoneNumber || `5500000${String(this.whatsappId).padStart(6, "0")}`;
    await this.deps.authState.set(new Map([[CREDS, JSON.stringify({ number: this.number, pairedAt: new Date().toISOString() })]]));
    await this.setStatus("CONNECTED");
    return true;
  }

  /** Resolves when the redelivery of what the product had not journaled is done (tests). */
  redelivered(): Promise<void> {
    return this.redelivering;
  }

  private async newQr() {
    this.qrcode = `balcao-sim:${this.whatsappId}:${randomBytes(12).toString("base64url")}`;
    this.status = "qrcode";
    await this.deps.emit({ type: "status", status: "qrcode", qrcode: this.qrcode });
  }

  private async setStatus(status: "CONNECTED" | "DISCONNECTED") {
    this.status = status;
    this.qrcode = "";
    await this.deps.emit({ type: "status", status, qrcode: "", number: this.number });
    if (status === "CONNECTED") this.redelivering = this.redeliver();
  }

  /** Like WhatsApp's server on reconnect: customer messages the product did not take are sent again. */
  private async redeliver() {
    try {
      for (const m of await this.store.undelivered(this.whatsappId)) {
        if (this.status !== "CONNECTED") return;
        await this.deliver(m);
      }
    } catch (err) {
      this.deps.log.warn({ err, whatsappId: this.whatsappId }, "simulator redelivery failed");
    }
  }

  private later(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private assertConnected() {
    if (this.status !== "CONNECTED") throw new ChannelSendError("simulator session is not connected", false);
  }

  // ---------- the customer's side ----------

  /**
   * A customer writes. Answers its id once the product's channel layer has journaled it; if the
   * product goes down before that, the message is delivered again on the next connection. The
   * same id twice is one message (a client retrying its request).
   */
  async customerSend(input: {
    number: string;
    name?: string;
    body?: string;
    media?: { data: Buffer; mimetype: string; fileName?: string };
    quotedId?: string;
    /** a client-chosen id (retries, redelivery tests); a fresh one otherwise */
    id?: string;
    groupId?: string;
  }): Promise<string> {
    this.assertConnected();
    input = cleanDeep(input);
    const id = input.id ?? `SIMIN${randomBytes(8).toString("hex").toUpperCase()}`;
    // a known id: with media, looked up first (its file is not stored twice); a text finds out at its
    // insert below, which keeps the first (one statement less per message of a load test)
    if (input.media) {
      const existing = await this.store.message(this.whatsappId, id);
      if (existing) {
        if (!existing.delivered) await this.deliver(existing);
        return id;
      }
    }
    const chat = input.groupId ?? input.number;
    const message: SimMessage = {
      id,
      chat,
      fromMe: false,
      body: input.body ?? "",
      mediaType: input.media ? simMediaType(input.media.mimetype) : "chat",
      mimetype: input.media?.mimetype,
      fileName: input.media?.fileName,
      mediaFile: input.media ? await this.store.saveMedia(input.media.data) : null,
      ack: 2,
      isDeleted: false,
      quotedId: input.quotedId,
      delivered: false,
      groupId: input.groupId,
      senderNumber: input.number,
      senderName: input.name,
      at: new Date().toISOString(),
    };
    if (!(await this.store.addCustomerMessage(this.whatsappId, message, input.groupId ? undefined : input.name))) {
      // the id is known (sent before, or raced in): deliver whatever is kept, if it was not
      const kept = await this.store.message(this.whatsappId, id);
      if (kept && !kept.delivered) await this.deliver(kept);
      return id;
    }
    await this.deliver(message, input.media?.data);
    return id;
  }

  /** Hands a customer message to the product and, once journaled, marks it delivered. */
  private async deliver(m: SimMessage, data?: Buffer) {
    const file = m.mediaFile;
    await this.deps.emit({
      type: "message",
      message: {
        id: m.id,
        fromMe: false,
        chat: m.groupId
          ? { groupId: m.groupId, isGroup: true, name: `Grupo ${m.groupId}` }
          : { number: m.chat, isGroup: false, name: m.senderName ?? undefined },
        sender: m.groupId ? { number: m.senderNumber ?? undefined, name: m.senderName ?? undefined } : undefined,
        pushName: m.senderName ?? undefined,
        timestamp: new Date(m.at),
        body: m.body,
        mediaType: m.mediaType,
        media: file
          ? {
              mimetype: m.mimetype ?? "application/octet-stream",
              fileName: m.fileName ?? undefined,
              data: data ?? (() => this.downloadMedia({ file })),
              ref: { file },
            }
          : undefined,
        quotedId: m.quotedId ?? undefined,
      },
    });
    await this.store.setDelivered(this.whatsappId, m.id);
  }

  /** The customer types (or stops), as WhatsApp's presence tells it. */
  async customerTyping(number: string, typing: boolean): Promise<void> {
    this.assertConnected();
    await this.deps.emit({ type: "typing", from: { number }, typing });
  }

  /** The customer opens the chat and reads what the agents sent: their messages turn to ack 3. */
  async customerRead(number: string): Promise<number> {
    const ids = await this.store.readAll(this.whatsappId, number);
    for (const id of ids) await this.deps.emit({ type: "ack", id, ack: 3 });
    return ids.length;
  }

  /** The customer's phone refuses (or accepts again) what is sent to it. */
  async setRefused(number: string, refused: boolean): Promise<void> {
    await this.store.saveChat(this.whatsappId, number);
    await this.store.setRefused(this.whatsappId, number, refused);
  }

  chats(): Promise<SimChat[]> {
    return this.store.chats(this.whatsappId);
  }

  /** The simulated phone knows the customers who have a chat on it (groups are not people). */
  async contacts(): Promise<ChannelContact[]> {
    return (await this.chats()).filter((c) => !c.last?.groupId).map((c) => ({ number: c.number, ...(c.name && { name: c.name }) }));
  }

  /** What the customer's phone shows of a chat (the agent's and bot's messages are fromMe). */
  messages(number: string, limit?: number): Promise<SimMessage[]> {
    return this.store.messages(this.whatsappId, number, limit);
  }

  // ---------- ChannelSession ----------

  async send(to: Address, content: OutboundContent, quoted: QuotedRef | undefined, opts: SendOptions): Promise<SentMessage> {
    this.assertConnected();
    const number = to.groupId ?? to.number ?? to.lid;
    if (!number) throw new ChannelSendError("no address", true);
    const chat = await this.store.chat(this.whatsappId, number);
    if (chat?.refused) throw new ChannelSendError("the number does not receive messages", true);
    const msg: SimMessage = {
      id: opts.id,
      chat: number,
      fromMe: true,
      body: "",
      mediaType: "chat",
      ack: 0,
      isDeleted: false,
      quotedId: quoted?.id,
      delivered: true,
      at: new Date().toISOString(),
    };
    if (content.kind === "text") msg.body = content.body;
    else if (content.kind === "media") {
      msg.body = content.caption ?? "";
      msg.mediaType = content.mediaType === "document" ? "document" : content.mediaType;
      msg.mimetype = content.mimetype;
      msg.fileName = content.fileName;
      msg.mediaFile = await this.store.saveMedia(content.data);
    } else if (content.kind === "location") {
      msg.mediaType = "location";
      msg.body = `${content.latitude},${content.longitude}`;
    } else {
      msg.mediaType = "vcard";
      msg.body = content.displayName;
    }
    this.typing.delete(number);
    if (!chat) await this.store.saveChat(this.whatsappId, number);
    // one message per id: a re-send after a crash is the message the phone already has
    if (await this.store.addMessage(this.whatsappId, msg)) {
      // acks advance like on a phone: server (1), then delivered (2); read (3) when the customer reads
      const advance = (ack: Ack) => {
        if (this.status !== "CONNECTED") return;
        void this.store
          .raiseAck(this.whatsappId, opts.id, ack)
          .then((changed) => (changed ? this.deps.emit({ type: "ack", id: opts.id, ack }) : undefined))
          .catch((err) => this.deps.log.debug({ err }, "simulator ack not sent"));
      };
      this.later(this.opts.ackDelayMs, () => advance(1));
      this.later(this.opts.ackDelayMs * 2, () => advance(2));
    }
    return { id: opts.id, timestamp: new Date() };
  }

  async downloadMedia(ref: unknown): Promise<Buffer> {
    const file = (ref as { file?: unknown } | undefined)?.file;
    const data = typeof file === "string" ? await this.store.readMedia(file) : undefined;
    if (!data) throw new Error("simulator media not found");
    return data;
  }

  async deleteForEveryone(_to: Address, id: string): Promise<void> {
    this.assertConnected();
    await this.store.markDeleted(this.whatsappId, id);
  }

  async setTyping(to: Address, typing: boolean): Promise<void> {
    this.assertConnected();
    const number = to.number ?? to.lid;
    if (!number) return;
    if (typing) this.typing.add(number);
    else this.typing.delete(number);
  }

  async markRead(): Promise<void> {
    // what the customer sent is already "delivered" on this phone; blue ticks are not shown to customers here
  }

  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    const digits = number.replace(/\D/g, "");
    if (digits.length < 8 || digits.length > 20) return { exists: false };
    const chat = await this.store.chat(this.whatsappId, digits);
    return chat?.refused ? { exists: false } : { exists: true, number: digits };
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

  constructor(store: SimulatorStore, opts: Partial<SimulatorOptions> = {}) {
    const options: SimulatorOptions = { ackDelayMs: opts.ackDelayMs ?? 150 };
    this.factory = (deps) => {
      const session = new SimulatorSession(deps, store, options);
      this.sessions.set(deps.whatsappId, session);
      return session;
    };
  }

  get(whatsappId: number): SimulatorSession | undefined {
    return this.sessions.get(whatsappId);
  }
}
