import type { ChannelType, ConnectionStatus, MediaType } from "@balcao/contract";
import type { RateLimitOptions } from "../lib/pace.js";

/**
 * The boundary between WhatsApp engines (Baileys, the simulator, later the Cloud API) and the
 * rest of the server. A channel turns what it receives into `ChannelEvent`s and sends what
 * `ChannelSession` is asked to. Channels never import modules or http.
 */

/** Who a message comes from or goes to. At least one of number or lid is set for a person. */
export interface Address {
  /** digits with country code, e.g. 5511999990000 */
  number?: string;
  /** WhatsApp LID digits (without "@lid") */
  lid?: string;
  /** group id (without "@g.us") when the chat is a group */
  groupId?: string;
}

export interface InboundMedia {
  mimetype: string;
  fileName?: string;
  /** The bytes, or a loader for engines that download on demand (absent in an event read back from the journal). */
  data?: Buffer | (() => Promise<Buffer>);
  /** Plain JSON from which the session downloads the bytes again (`downloadMedia`), kept in the journal. */
  ref?: unknown;
}

/** One normalized message, whatever the engine. */
export interface InboundMessage {
  /** The channel's message id; with the connection it makes delivery idempotent. */
  id: string;
  fromMe: boolean;
  /** The chat: the customer, or the group. */
  chat: Address & { isGroup: boolean; name?: string };
  /** In groups, the participant who wrote. */
  sender?: Address & { name?: string };
  /** The contact's WhatsApp display name, when the engine knows it. */
  pushName?: string;
  timestamp: Date;
  body: string;
  mediaType: MediaType;
  media?: InboundMedia;
  /** id of the quoted message, when this one replies to another */
  quotedId?: string;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  vcard?: { displayName: string; vcard: string; number?: string };
}

export type Ack = 0 | 1 | 2 | 3 | 4;

export type ChannelEvent =
  | {
      type: "status";
      status: ConnectionStatus;
      qrcode?: string;
      reason?: string;
      number?: string;
      /** automatic reconnect attempts since the last successful connection (whatsappSession `retries`) */
      retries?: number;
    }
  | { type: "message"; message: InboundMessage }
  | { type: "ack"; id: string; ack: Ack }
  /** WhatsApp refused a message after taking it (the Cloud API's `failed` status): the reason is shown with it */
  | { type: "failed"; id: string; reason: string }
  | { type: "edit"; id: string; body: string; editedAt?: Date }
  | { type: "delete"; id: string }
  | { type: "reaction"; id: string; emoji: string; from: Address }
  | { type: "call"; callId: string; from: Address; isVideo: boolean; at: Date }
  /** the customer is typing (or stopped) in their chat */
  | { type: "typing"; from: Address; typing: boolean };

export type OutboundContent =
  | {
      kind: "text";
      body: string;
      /**
       * A Cloud API message template (outside the customer's 24 h window); `body` is its rendered
       * text, which engines without templates send as is.
       */
      template?: { name: string; language: string; variables: string[] };
    }
  | {
      kind: "media";
      mediaType: "image" | "audio" | "video" | "document" | "sticker";
      data: Buffer;
      mimetype: string;
      fileName?: string;
      caption?: string;
      /** send audio as a voice note */
      ptt?: boolean;
    }
  | { kind: "location"; latitude: number; longitude: number; name?: string; address?: string }
  | { kind: "contact"; displayName: string; vcard: string };

export interface QuotedRef {
  id: string;
  fromMe: boolean;
  body: string;
  /** the author of the quoted message when not fromMe */
  author?: Address;
}

export interface SentMessage {
  id: string;
  timestamp: Date;
}

export interface SendOptions {
  /**
   * The channel message id, chosen when the message was stored. Every attempt of one message uses
   * it, so a re-send after a crash is the same message to WhatsApp (and to the simulator).
   */
  id: string;
  /**
   * The customer wrote in the last 24 h (the Cloud API's customer-service window is open), as the
   * outbox saw it when it took the message. Engines without a window ignore it.
   */
  live?: boolean;
  /** sent by the product on its own (bot, schedule, API, disparo), not typed by an agent */
  automatic?: boolean;
}

/**
 * A send the channel refused. `permanent` failures (a number without WhatsApp, a logged-out
 * session) are not retried; the others are, with backoff.
 */
export class ChannelSendError extends Error {
  /** not before this time (ms since the epoch): the channel knows when to try again, and it does not count as an attempt */
  readonly retryAt?: number;
  constructor(
    readonly reason: string,
    readonly permanent: boolean,
    options?: { cause?: unknown; retryAt?: number },
  ) {
    super(reason, options);
    this.name = "ChannelSendError";
    this.retryAt = options?.retryAt;
  }
}

export interface ChannelSession {
  readonly whatsappId: number;
  readonly type: ChannelType;
  /** Connects (or reconnects with the stored auth); status events follow. */
  start(): Promise<void>;
  /** Ends the connection without logging out; the auth stays for the next start. */
  stop(): Promise<void>;
  /** Logs out of WhatsApp and clears the stored auth. */
  logout(): Promise<void>;
  /** Asks for a fresh QR code (clears the auth and starts over). */
  requestNewQr(): Promise<void>;
  /** Whether the session can send now (connected). */
  readonly connected: boolean;
  send(to: Address, content: OutboundContent, quoted: QuotedRef | undefined, opts: SendOptions): Promise<SentMessage>;
  /** The bytes of an inbound media from its `ref` (journal replay). */
  downloadMedia(ref: unknown): Promise<Buffer>;
  /**
   * Completes a journaled event with what the engine could not know at once (the phone number
   * behind a LID, asked to WhatsApp), just before it is handled. Optional.
   */
  resolve?(event: ChannelEvent): Promise<ChannelEvent>;
  deleteForEveryone(to: Address, id: string, fromMe: boolean): Promise<void>;
  setTyping(to: Address, typing: boolean): Promise<void>;
  markRead(to: Address, ids: { id: string; fromMe: boolean }[]): Promise<void>;
  /** Whether a number has WhatsApp; resolves its canonical number and LID when known. */
  checkNumber(number: string): Promise<{ exists: boolean; number?: string; lid?: string }>;
  profilePictureUrl(to: Address): Promise<string | undefined>;
  rejectCall(callId: string, from: Address): Promise<void>;
  /**
   * The people the connected phone knows (its address book and chats), as the engine learned them;
   * kept across restarts, forgotten on logout. Optional.
   */
  contacts?(): Promise<ChannelContact[]>;
  /**
   * What the platform pushed for this number (a Cloud API webhook's change), taken in: its events
   * journaled before this resolves. Only engines whose platform pushes have it.
   */
  receivePush?(value: unknown): Promise<void>;
}

/**
 * What an engine declares of itself when it is registered: its own pace (a Cloud API number has
 * Meta's throughput, not a WhatsApp Web pace), used instead of the connection's pace settings.
 */
export interface EngineTraits {
  pace?: Partial<RateLimitOptions>;
}

/** A person the phone knows: a number and/or a LID, and the name saved on the phone (or their own). */
export interface ChannelContact {
  number?: string;
  lid?: string;
  name?: string;
}

/** Key-value store for an engine's auth state, backed by the database (transactional writes). */
export interface AuthStateStore {
  get(keys: string[]): Promise<Map<string, string>>;
  /** Writes all entries in one transaction; a null value deletes the key. */
  set(entries: Map<string, string | null>): Promise<void>;
  clear(): Promise<void>;
}

export interface ChannelDeps {
  whatsappId: number;
  name: string;
  /**
   * Called for every event. Resolves once the event is journaled (messages, acks, edits, deletes,
   * calls): from then on it is the product's, even if the process dies before handling it.
   */
  emit: (event: ChannelEvent) => Promise<void>;
  authState: AuthStateStore;
  /** Answers the engine's "give me this message again" (retries), from the database. */
  getMessage: (id: string) => Promise<{ body: string } | undefined>;
  log: {
    info: (o: object, m?: string) => void;
    warn: (o: object, m?: string) => void;
    error: (o: object, m?: string) => void;
    debug: (o: object, m?: string) => void;
  };
}

export type ChannelFactory = (deps: ChannelDeps) => ChannelSession;
