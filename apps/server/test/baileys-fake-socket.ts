import { EventEmitter } from "node:events";
import type { BaileysEventMap, WAMessage } from "baileys";
import type { AuthStateStore, ChannelDeps, ChannelEvent } from "../src/channels/channel.js";
import type { BaileysSocketConfig, WASocketLike } from "../src/channels/baileys/socket.js";
import type { Timer } from "../src/channels/baileys/driver.js";

/** Test doubles for the Baileys driver: a fake socket, an in-memory auth store, a manual timer. */

export const ME_JID = "5511900001111:7@s.whatsapp.net";
export const ME_LID = "99887766554433:7@lid";

export class MemoryAuthStore implements AuthStateStore {
  readonly data = new Map<string, string>();
  clears = 0;
  transactions = 0;
  async get(keys: string[]) {
    const out = new Map<string, string>();
    for (const k of keys) {
      const v = this.data.get(k);
      if (v !== undefined) out.set(k, v);
    }
    return out;
  }
  async set(entries: Map<string, string | null>) {
    this.transactions += 1;
    for (const [k, v] of entries) {
      if (v === null) this.data.delete(k);
      else this.data.set(k, v);
    }
  }
  async clear() {
    this.clears += 1;
    this.data.clear();
  }
}

type Call = { method: string; args: unknown[] };

export class FakeSocket implements WASocketLike {
  readonly emitter = new EventEmitter();
  readonly calls: Call[] = [];
  ended = false;
  user: WASocketLike["user"] = { id: ME_JID, lid: ME_LID, name: "Provedor Net" };
  pnForLid = new Map<string, string>();
  lidForPn = new Map<string, string>();
  onWhatsAppAnswer: { jid: string; exists: boolean }[] = [];
  private sent = 0;

  constructor(readonly config: BaileysSocketConfig) {}

  ev = {
    on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.on(event, listener);
    },
    off: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.off(event, listener);
    },
  };

  signalRepository = {
    lidMapping: {
      getPNForLID: async (lid: string) => this.pnForLid.get(lid) ?? null,
      getLIDForPN: async (pn: string) => this.lidForPn.get(pn) ?? null,
    },
  };

  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]) {
    this.emitter.emit(event, arg);
  }
  listenerTotal(): number {
    return this.emitter.eventNames().reduce((n, e) => n + this.emitter.listenerCount(e), 0);
  }
  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  qr(code: string) {
    this.emit("connection.update", { qr: code });
  }
  open() {
    this.emit("connection.update", { connection: "open" });
  }
  close(statusCode: number | undefined) {
    const error = statusCode === undefined ? undefined : Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } });
    this.emit("connection.update", { connection: "close", lastDisconnect: { error, date: new Date() } });
  }

  async sendMessage(...args: unknown[]) {
    this.calls.push({ method: "sendMessage", args });
    this.sent += 1;
    return { key: { remoteJid: args[0] as string, fromMe: true, id: `BAE5OUT${this.sent}` }, messageTimestamp: 1767261600 } as WAMessage;
  }
  async readMessages(...args: unknown[]) {
    this.calls.push({ method: "readMessages", args });
  }
  async sendPresenceUpdate(...args: unknown[]) {
    this.calls.push({ method: "sendPresenceUpdate", args });
  }
  async onWhatsApp(...args: string[]) {
    this.calls.push({ method: "onWhatsApp", args });
    return this.onWhatsAppAnswer;
  }
  async profilePictureUrl(...args: unknown[]) {
    this.calls.push({ method: "profilePictureUrl", args });
    if (args[0] === "5511000000000@s.whatsapp.net") throw Object.assign(new Error("item-not-found"), { output: { statusCode: 404 } });
    return "https://pps.whatsapp.net/v/t61/photo.jpg";
  }
  async rejectCall(...args: unknown[]) {
    this.calls.push({ method: "rejectCall", args });
  }
  async logout(...args: unknown[]) {
    this.calls.push({ method: "logout", args });
    // like Baileys: logging out ends the socket with loggedOut
    this.close(401);
  }
  end(error: Error | undefined) {
    this.calls.push({ method: "end", args: [error] });
    if (this.ended) return;
    this.ended = true;
    // like Baileys: ending announces the close (nobody should be listening any more)
    this.close(428);
  }
}

export class ManualTimer implements Timer {
  readonly pending: { fn: () => void; ms: number; id: number }[] = [];
  private next = 1;
  set(fn: () => void, ms: number) {
    const id = this.next++;
    this.pending.push({ fn, ms, id });
    return id;
  }
  clear(handle: unknown) {
    const i = this.pending.findIndex((p) => p.id === handle);
    if (i >= 0) this.pending.splice(i, 1);
  }
  fire() {
    const p = this.pending.shift();
    if (!p) throw new Error("no timer pending");
    p.fn();
    return p.ms;
  }
}

export function makeDeps(store: AuthStateStore, overrides: Partial<ChannelDeps> = {}) {
  const events: ChannelEvent[] = [];
  const logs: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => logs.push({ level, obj, msg });
  const deps: ChannelDeps = {
    whatsappId: 7,
    name: "Suporte",
    emit: async (e) => {
      events.push(e);
    },
    authState: store,
    getMessage: async (id) => (id === "BAE5KNOWN" ? { body: "texto guardado" } : undefined),
    log: { info: at("info"), warn: at("warn"), error: at("error"), debug: at("debug") },
    ...overrides,
  };
  const statuses = () => events.filter((e): e is Extract<ChannelEvent, { type: "status" }> => e.type === "status");
  return { deps, events, logs, statuses };
}

/** Lets queued promise chains (lifecycle, inbound) run. */
export async function flush(rounds = 5) {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}
