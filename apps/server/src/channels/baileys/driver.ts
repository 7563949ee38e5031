import { BufferJSON, downloadMediaMessage, makeWASocket } from "baileys";
import type { BaileysEventMap, Contact, WAMessage } from "baileys";
import type { ConnectionStatus } from "@balcao/contract";
import {
  type Address,
  type ChannelDeps,
  type ChannelEvent,
  ChannelSendError,
  type ChannelSession,
  type OutboundContent,
  type QuotedRef,
  type SendOptions,
  type SentMessage,
  type ChannelContact,
} from "../channel.js";
import { addressToJid, digitsOnly, parseJid, personFromJids, personJid, PN_SERVER, STATUS_BROADCAST } from "./address.js";
import { loadAuthState, type StoredAuthState } from "./auth-state.js";
import { CONTACTS_KEY, ContactBook } from "./contacts.js";
import { baileysLogger } from "./logger.js";
import { acksFromReceipts, acksFromUpdates, normalizeCall, normalizeMessage, toDate } from "./normalize.js";
import { toBaileysContent, toQuotedMessage } from "./outbound.js";
import { DEFAULT_RECONNECT_POLICY, decideOnDisconnect, DisconnectCode, type ReconnectPolicyOptions } from "./policy.js";
import type { BaileysSocketConfig, SocketFactory, WASocketLike } from "./socket.js";

export interface Timer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: Timer = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface BaileysChannelOptions {
  /** Builds the socket; defaults to Baileys' makeWASocket. Tests inject a fake. */
  socketFactory?: SocketFactory;
  policy?: Partial<ReconnectPolicyOptions>;
  /** schedules delayed reconnects */
  timer?: Timer;
  /** jitter source for reconnects */
  random?: () => number;
  /** downloads a message's media; defaults to Baileys' downloadMediaMessage */
  downloadMedia?: (msg: WAMessage, sock: WASocketLike) => Promise<Buffer>;
}

/** Error codes of the spec's catalogue (core §8) the driver can raise; the caller maps them to HTTP. */
export type BaileysErrorCode = "ERR_WAPP_NOT_INITIALIZED" | "ERR_SENDING_WAPP_MSG" | "ERR_DELETE_WAPP_MSG" | "ERR_WAPP_CHECK_CONTACT";

export class BaileysChannelError extends Error {
  constructor(
    readonly code: BaileysErrorCode,
    options?: { cause?: unknown },
  ) {
    super(code, options);
    this.name = "BaileysChannelError";
  }
}

type Phase = "idle" | "connecting" | "pairing" | "open" | "waiting" | "stopped";

const LID_CACHE_LIMIT = 5_000;
const CALL_CACHE_LIMIT = 200;

function statusCodeOf(error: unknown): number | undefined {
  const e = error as { output?: { statusCode?: unknown }; statusCode?: unknown } | undefined;
  const code = e?.output?.statusCode ?? e?.statusCode;
  return typeof code === "number" ? code : undefined;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
}

const defaultDownload = (msg: WAMessage, sock: WASocketLike, logger: ReturnType<typeof baileysLogger>): Promise<Buffer> =>
  downloadMediaMessage(
    msg,
    "buffer",
    {},
    sock.updateMediaMessage ? { reuploadRequest: sock.updateMediaMessage, logger } : undefined,
  ) as Promise<Buffer>;

/**
 * A WhatsApp session over Baileys. Emits status events through its lifecycle (OPENING → qrcode →
 * CONNECTED; DISCONNECTED/TIMEOUT with a reason when it stops), inbound messages, acks, edits,
 * deletes, reactions and calls. Sends carry the id the message was stored with; their pace is the
 * outbox sender's (one pace per number, every source together).
 */
export function createBaileysChannel(deps: ChannelDeps, opts: BaileysChannelOptions = {}): ChannelSession {
  const factory: SocketFactory = opts.socketFactory ?? ((config) => makeWASocket(config));
  const policy: ReconnectPolicyOptions = { ...DEFAULT_RECONNECT_POLICY, ...opts.policy };
  const random = opts.random ?? Math.random;
  const timer = opts.timer ?? realTimer;
  const log = deps.log;
  const bLogger = baileysLogger(log, { whatsappId: deps.whatsappId });
  const download = opts.downloadMedia ?? ((msg: WAMessage, sock: WASocketLike) => defaultDownload(msg, sock, bLogger));

  let sock: WASocketLike | undefined;
  let detach: (() => void) | undefined;
  let phase: Phase = "idle";
  /** bumps on every socket change; events of an older socket are ignored */
  let generation = 0;
  let retries = 0;
  let qrCodesShown = 0;
  let badSessionStreak = 0;
  let reconnectHandle: unknown;
  /** the auth state of the current (or last) socket; its writes land before the next load or a clear */
  let currentAuth: StoredAuthState | undefined;

  const lidToPn = new Map<string, string>();
  /** the phone's contacts, read from the auth-state store on first use */
  let book: ContactBook | undefined;
  let bookWrites: Promise<unknown> = Promise.resolve();
  const callJids = new Map<string, string>();

  // lifecycle steps (start, stop, closes, timers) run one at a time
  let lifecycle: Promise<unknown> = Promise.resolve();
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const next = lifecycle.then(step);
    lifecycle = next.catch((err) =>
      log.error({ whatsappId: deps.whatsappId, err: (err as Error)?.message }, "baileys lifecycle step failed"),
    );
    return next;
  };

  // inbound batches keep their order
  let inbound: Promise<unknown> = Promise.resolve();

  /** Hands an event to the channel layer; resolves once it is journaled. */
  const emit = (event: ChannelEvent): Promise<void> =>
    deps.emit(event).catch((err) => {
      log.error({ whatsappId: deps.whatsappId, type: event.type, err: (err as Error)?.message }, "channel event not journaled");
    });

  const emitStatus = (status: ConnectionStatus, extra: { qrcode?: string; reason?: string; number?: string } = {}) => {
    void emit({
      type: "status",
      status,
      qrcode: extra.qrcode ?? "",
      retries,
      ...(extra.reason ? { reason: extra.reason } : {}),
      ...(extra.number ? { number: extra.number } : {}),
    });
  };

  /** Ends the current socket after removing our listeners, and cancels a pending reconnect. */
  const teardown = () => {
    generation += 1;
    if (reconnectHandle !== undefined) {
      timer.clear(reconnectHandle);
      reconnectHandle = undefined;
    }
    const old = sock;
    sock = undefined;
    detach?.();
    detach = undefined;
    if (old) {
      try {
        const ended = old.end(undefined);
        if (ended instanceof Promise) ended.catch(() => undefined);
      } catch {
        // already closed
      }
    }
  };

  const selfAddress = (s: WASocketLike): Address | undefined => {
    const a = personFromJids([s.user?.id, s.user?.lid]);
    return a.number || a.lid ? a : undefined;
  };

  const lookupPn = async (s: WASocketLike, lid: string): Promise<string | undefined> => {
    const cached = lidToPn.get(lid);
    if (cached) return cached;
    try {
      const pnJid = await s.signalRepository?.lidMapping?.getPNForLID(`${lid}@lid`);
      const pn = parseJid(pnJid)?.kind === "pn" ? parseJid(pnJid)!.user : undefined;
      if (pn) remember(lidToPn, lid, pn, LID_CACHE_LIMIT);
      return pn;
    } catch (err) {
      log.debug({ whatsappId: deps.whatsappId, err: (err as Error)?.message }, "lid lookup failed");
      return undefined;
    }
  };

  /**
   * A batch of messages. WhatsApp has been sent its delivery receipt already (Baileys does that
   * before it emits), so each message is journaled as the first await: normalized with what is
   * known at once (the key's alternate ids and the LID mappings seen so far) and written. A batch
   * received before a reconnect is finished even if the socket is gone by then.
   */
  const handleUpsert = async (s: WASocketLike, messages: WAMessage[]) => {
    const events: ChannelEvent[] = [];
    for (const msg of messages) {
      const event = normalizeMessage(msg, {
        pnForLid: (lid) => lidToPn.get(lid),
        download: (m) => download(m, s),
        self: selfAddress(s),
      });
      if (!event) continue;
      if (event.type === "message" && event.message.media) event.message.media.ref = JSON.parse(JSON.stringify(msg, BufferJSON.replacer));
      events.push(event);
    }
    for (const event of events) await emit(event);
  };

  const loadBook = async (): Promise<ContactBook> => {
    if (!book) {
      const found = await deps.authState.get([CONTACTS_KEY]);
      book ??= ContactBook.decode(found.get(CONTACTS_KEY));
    }
    return book;
  };

  /** Keeps what the phone tells of its contacts; written with the socket's auth state, so a logout drops it. */
  const learnContacts = (gen: number, incoming: Partial<Contact>[] | undefined) => {
    if (!incoming?.length) return;
    bookWrites = bookWrites
      .then(async () => {
        const b = await loadBook();
        if (gen !== generation || !b.learn(incoming)) return;
        await currentAuth?.save(new Map([[CONTACTS_KEY, b.encode()]]));
      })
      .catch((err) => log.error({ whatsappId: deps.whatsappId, err: (err as Error)?.message }, "saving the phone's contacts failed"));
  };

  /** A LID-only address gets its phone number from WhatsApp's mapping store, when it knows it. */
  const withNumber = async <A extends Address>(a: A | undefined): Promise<A | undefined> => {
    if (!a?.lid || a.number || !sock) return a;
    const pn = await lookupPn(sock, a.lid);
    return pn ? { ...a, number: pn } : a;
  };

  const attach = (s: WASocketLike, gen: number, saveCreds: () => Promise<void>, creds: object) => {
    const handlers: { [K in keyof BaileysEventMap]?: (arg: BaileysEventMap[K]) => void } = {
      "connection.update": (update) => {
        if (gen !== generation) return;
        if (typeof update.qr === "string" && update.qr) {
          qrCodesShown += 1;
          phase = "pairing";
          if (qrCodesShown > policy.maxQrCodes) {
            void serial(async () => {
              if (gen !== generation) return;
              teardown();
              phase = "stopped";
              emitStatus("TIMEOUT", { reason: "qrAttemptsExhausted" });
            });
            return;
          }
          emitStatus("qrcode", { qrcode: update.qr });
        }
        if (update.connection === "open") {
          phase = "open";
          retries = 0;
          qrCodesShown = 0;
          badSessionStreak = 0;
          emitStatus("CONNECTED", { number: parseJid(s.user?.id)?.user });
        } else if (update.connection === "close") {
          const code = statusCodeOf(update.lastDisconnect?.error);
          void serial(() => handleClose(gen, code));
        }
      },
      "creds.update": (update) => {
        if (gen !== generation) return;
        Object.assign(creds, update);
        saveCreds().catch((err) =>
          log.error({ whatsappId: deps.whatsappId, err: (err as Error)?.message }, "saving WhatsApp credentials failed"),
        );
      },
      "messages.upsert": ({ messages, type }) => {
        if (gen !== generation || (type !== "notify" && type !== "append")) return;
        inbound = inbound
          .then(() => handleUpsert(s, messages))
          .catch((err) => log.error({ whatsappId: deps.whatsappId, err: (err as Error)?.message }, "inbound message failed"));
      },
      "messages.update": (updates) => {
        if (gen !== generation) return;
        for (const e of acksFromUpdates(updates)) void emit(e);
      },
      "message-receipt.update": (receipts) => {
        if (gen !== generation) return;
        for (const e of acksFromReceipts(receipts)) void emit(e);
      },
      call: (calls) => {
        if (gen !== generation) return;
        for (const call of calls) {
          const event = normalizeCall(call, { pnForLid: (lid) => lidToPn.get(lid) });
          if (!event) continue;
          remember(callJids, call.id, call.from, CALL_CACHE_LIMIT);
          void emit(event);
        }
      },
      "presence.update": ({ id, presences }) => {
        if (gen !== generation) return;
        const from = personFromJids([id]);
        if (!from.number && !from.lid) return;
        const states = Object.values(presences ?? {}).map((p) => p?.lastKnownPresence);
        if (!states.length) return;
        void emit({ type: "typing", from, typing: states.some((p) => p === "composing" || p === "recording") });
      },
      "contacts.upsert": (list) => learnContacts(gen, list),
      "contacts.update": (list) => learnContacts(gen, list),
      "messaging-history.set": ({ contacts }) => learnContacts(gen, contacts),
      "lid-mapping.update": ({ lid, pn }) => {
        const l = parseJid(lid);
        const p = parseJid(pn);
        if (l?.kind === "lid" && p?.kind === "pn") remember(lidToPn, l.user, p.user, LID_CACHE_LIMIT);
      },
    };
    const entries = Object.entries(handlers) as [keyof BaileysEventMap, (arg: unknown) => void][];
    for (const [event, handler] of entries) s.ev.on(event, handler);
    detach = () => {
      for (const [event, handler] of entries) s.ev.off(event, handler);
    };
  };

  /** Deletes the stored auth; writes the old socket still had queued are dropped, not replayed over the clear. */
  const clearAuth = async () => {
    const old = currentAuth;
    currentAuth = undefined;
    old?.discard();
    await old?.flushed();
    await deps.authState.clear();
    // another phone may pair next: its contacts are its own
    await bookWrites;
    book = new ContactBook();
  };

  const connect = async () => {
    teardown();
    phase = "connecting";
    const gen = generation;
    let auth: StoredAuthState;
    try {
      // Baileys saves the new identity right before it asks for a restart (515 after the QR scan):
      // the next socket must read it back, not the creds from before the scan
      await currentAuth?.flushed();
      auth = await loadAuthState(deps.authState);
    } catch (err) {
      // the database may be down for a moment: back off like a lost connection
      log.error({ whatsappId: deps.whatsappId, err: (err as Error)?.message }, "loading WhatsApp auth state failed");
      if (gen === generation) await handleClose(gen, undefined);
      return;
    }
    if (gen !== generation) return;
    currentAuth = auth;
    const config: BaileysSocketConfig = {
      auth: auth.state,
      logger: bLogger,
      // the phone keeps its notifications; attendants often use both
      markOnlineOnConnect: false,
      // our own sends are recorded by whoever called send(); only what the phone sends comes back as fromMe
      emitOwnEvents: false,
      syncFullHistory: false,
      shouldIgnoreJid: (jid) => jid === STATUS_BROADCAST || jid.endsWith("@newsletter"),
      getMessage: async (key) => {
        if (!key.id) return undefined;
        const found = await deps.getMessage(key.id);
        return found ? { conversation: found.body } : undefined;
      },
    };
    const s = factory(config);
    sock = s;
    attach(s, gen, auth.saveCreds, auth.state.creds);
  };

  const handleClose = async (gen: number, statusCode: number | undefined) => {
    if (gen !== generation) return;
    const decision = decideOnDisconnect(
      { statusCode, retries, pairing: phase === "pairing", qrCodesShown, badSessionStreak },
      policy,
      random,
    );
    badSessionStreak = statusCode === DisconnectCode.badSession ? badSessionStreak + 1 : 0;
    log.info({ whatsappId: deps.whatsappId, statusCode, decision: decision.action, reason: decision.reason }, "WhatsApp connection closed");
    teardown();
    if (decision.clearAuth) {
      await clearAuth();
      badSessionStreak = 0;
    }
    if (decision.action === "stop") {
      phase = "stopped";
      emitStatus(decision.status, { reason: decision.reason });
      return;
    }
    if (decision.countRetry) retries += 1;
    // a new batch of QR codes replaces the old one without flashing the dialog shut
    if (decision.reason !== "qrExpired") emitStatus("OPENING", { reason: decision.reason });
    if (decision.delayMs <= 0) {
      await connect();
      return;
    }
    phase = "waiting";
    const waitGen = generation;
    reconnectHandle = timer.set(() => {
      reconnectHandle = undefined;
      void serial(async () => {
        if (waitGen !== generation) return;
        await connect();
      });
    }, decision.delayMs);
  };

  const connected = (): WASocketLike => {
    if (!sock || phase !== "open") throw new BaileysChannelError("ERR_WAPP_NOT_INITIALIZED");
    return sock;
  };
  /** For sends: a closed session is a transient failure (the outbox holds the message until it reconnects). */
  const connectedOrRetry = (): WASocketLike => {
    if (!sock || phase !== "open") throw new ChannelSendError("ERR_WAPP_NOT_INITIALIZED", false);
    return sock;
  };

  const session: ChannelSession = {
    whatsappId: deps.whatsappId,
    type: "baileys",

    start: () =>
      serial(async () => {
        if (sock && (phase === "open" || phase === "connecting" || phase === "pairing")) return;
        retries = 0;
        qrCodesShown = 0;
        emitStatus("OPENING");
        await connect();
      }),

    stop: () =>
      serial(async () => {
        teardown();
        phase = "stopped";
        // a shutdown closes the database next: the last key and creds writes land first
        await currentAuth?.flushed();
      }),

    logout: () =>
      serial(async () => {
        const s = sock;
        const wasOpen = phase === "open";
        detach?.();
        detach = undefined;
        if (s && wasOpen) {
          try {
            await s.logout();
          } catch (err) {
            log.warn({ whatsappId: deps.whatsappId, err: (err as Error)?.message }, "WhatsApp logout failed; clearing the session anyway");
          }
        }
        teardown();
        await clearAuth();
        phase = "stopped";
        retries = 0;
        qrCodesShown = 0;
        emitStatus("DISCONNECTED", { reason: "loggedOut" });
      }),

    requestNewQr: () =>
      serial(async () => {
        const s = sock;
        if (s && phase === "open") {
          detach?.();
          detach = undefined;
          // unlink the old device from the phone before pairing a new one
          await s.logout().catch(() => undefined);
        }
        teardown();
        await clearAuth();
        retries = 0;
        qrCodesShown = 0;
        badSessionStreak = 0;
        emitStatus("OPENING");
        await connect();
      }),

    get connected() {
      return sock !== undefined && phase === "open";
    },

    async resolve(event: ChannelEvent): Promise<ChannelEvent> {
      if (event.type === "call") return { ...event, from: (await withNumber(event.from)) ?? event.from };
      if (event.type !== "message") return event;
      const m = event.message;
      const chat = m.chat.isGroup ? m.chat : ((await withNumber(m.chat)) ?? m.chat);
      const sender = await withNumber(m.sender);
      if (chat === m.chat && sender === m.sender) return event;
      return { ...event, message: { ...m, chat, ...(sender && { sender }) } };
    },

    async send(to: Address, content: OutboundContent, quoted: QuotedRef | undefined, opts: SendOptions): Promise<SentMessage> {
      const s = connectedOrRetry();
      const jid = addressToJid(to);
      const payload = toBaileysContent(content);
      let sent: WAMessage | undefined;
      try {
        sent = await s.sendMessage(jid, payload, { messageId: opts.id, ...(quoted ? { quoted: toQuotedMessage(jid, to, quoted) } : {}) });
      } catch (err) {
        throw new ChannelSendError("ERR_SENDING_WAPP_MSG", false, { cause: err });
      }
      return { id: sent?.key?.id ?? opts.id, timestamp: toDate(sent?.messageTimestamp) ?? new Date() };
    },

    async downloadMedia(ref: unknown): Promise<Buffer> {
      const msg = JSON.parse(JSON.stringify(ref), BufferJSON.reviver) as WAMessage;
      const s = sock;
      if (s) return download(msg, s);
      return downloadMediaMessage(msg, "buffer", {}) as Promise<Buffer>;
    },

    async deleteForEveryone(to: Address, id: string, fromMe: boolean): Promise<void> {
      connected();
      const jid = addressToJid(to);
      try {
        await connected().sendMessage(jid, { delete: { remoteJid: jid, fromMe, id } });
      } catch (err) {
        throw new BaileysChannelError("ERR_DELETE_WAPP_MSG", { cause: err });
      }
    },

    async setTyping(to: Address, typing: boolean): Promise<void> {
      // presence is best effort: nothing to say when the session is down
      if (!sock || phase !== "open") return;
      await sock.sendPresenceUpdate(typing ? "composing" : "paused", addressToJid(to));
    },

    async markRead(to: Address, ids: { id: string; fromMe: boolean }[]): Promise<void> {
      if (!sock || phase !== "open") return;
      const jid = addressToJid(to);
      const keys = ids.filter((m) => !m.fromMe).map((m) => ({ remoteJid: jid, id: m.id, fromMe: false }));
      if (keys.length > 0) await sock.readMessages(keys);
      // an agent has the chat open: WhatsApp tells us when the customer types
      await sock.presenceSubscribe?.(jid).catch(() => undefined);
    },

    async checkNumber(number: string) {
      const s = connected();
      const digits = digitsOnly(number);
      if (!digits) return { exists: false };
      let found: { jid: string; exists: boolean } | undefined;
      try {
        found = (await s.onWhatsApp(`${digits}@${PN_SERVER}`))?.[0];
      } catch (err) {
        throw new BaileysChannelError("ERR_WAPP_CHECK_CONTACT", { cause: err });
      }
      if (!found?.exists) return { exists: false };
      // WhatsApp answers with the canonical number (e.g. with or without Brazil's ninth digit)
      const canonical = parseJid(found.jid)?.user ?? digits;
      let lid: string | undefined;
      try {
        const lidJid = await s.signalRepository?.lidMapping?.getLIDForPN?.(found.jid);
        lid = parseJid(lidJid)?.kind === "lid" ? parseJid(lidJid)!.user : undefined;
      } catch {
        lid = undefined;
      }
      if (lid) remember(lidToPn, lid, canonical, LID_CACHE_LIMIT);
      return lid ? { exists: true, number: canonical, lid } : { exists: true, number: canonical };
    },

    async profilePictureUrl(to: Address): Promise<string | undefined> {
      const s = connected();
      try {
        return await s.profilePictureUrl(addressToJid(to), "image");
      } catch {
        // no picture, or hidden by the contact's privacy settings
        return undefined;
      }
    },

    async contacts(): Promise<ChannelContact[]> {
      await bookWrites;
      return (await loadBook()).list();
    },

    async rejectCall(callId: string, from: Address): Promise<void> {
      const s = connected();
      const jid = callJids.get(callId) ?? personJid(from);
      if (!jid) throw new Error("call has no caller address");
      await s.rejectCall(callId, jid);
      callJids.delete(callId);
    },
  };

  return session;
}
