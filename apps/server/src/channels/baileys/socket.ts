import type {
  AnyMessageContent,
  BaileysEventMap,
  MiscMessageGenerationOptions,
  UserFacingSocketConfig,
  WAMessage,
  WAMessageKey,
  WAPresence,
} from "baileys";

/**
 * The part of a Baileys socket the driver uses. `makeWASocket` satisfies it; tests pass an
 * EventEmitter-based fake with the same events and methods.
 */
export interface WASocketLike {
  ev: {
    on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
    off<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
  };
  user?: { id: string; lid?: string; name?: string } | undefined;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  sendPresenceUpdate(type: WAPresence, toJid?: string): Promise<void>;
  /** asks WhatsApp for the chat's presence updates (typing) */
  presenceSubscribe?(toJid: string): Promise<void>;
  onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  profilePictureUrl(jid: string, type?: "preview" | "image", timeoutMs?: number): Promise<string | undefined>;
  rejectCall(callId: string, callFrom: string): Promise<void>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): unknown;
  /** asks the phone to re-upload media whose link expired (used by the media download) */
  updateMediaMessage?: (msg: WAMessage) => Promise<WAMessage>;
  signalRepository?: {
    lidMapping?: {
      getPNForLID(lid: string): Promise<string | null>;
      getLIDForPN?(pn: string): Promise<string | null>;
    };
  };
}

/** What the driver hands to the factory: Baileys' socket config (auth always set). */
export type BaileysSocketConfig = UserFacingSocketConfig;

export type SocketFactory = (config: BaileysSocketConfig) => WASocketLike;
