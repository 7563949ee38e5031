import { BufferJSON, initAuthCreds, proto } from "baileys";
import type { AuthenticationCreds, AuthenticationState, SignalDataSet, SignalDataTypeMap } from "baileys";
import type { AuthStateStore } from "../channel.js";

/**
 * Baileys' AuthenticationState over the database-backed AuthStateStore, so a session survives a
 * restart and can move to another process. Keys: "creds" for the credentials, "<type>:<id>" for
 * each signal key (e.g. "pre-key:12", "session:5511999990000.0", "app-state-sync-key:AAAA").
 * Values are JSON with Baileys' BufferJSON (buffers as base64). Nothing here logs a value.
 */

export const CREDS_KEY = "creds";

export function signalKey(type: string, id: string): string {
  return `${type}:${id}`;
}

export function encodeValue(value: unknown): string {
  return JSON.stringify(value, BufferJSON.replacer);
}

export function decodeValue<T = unknown>(text: string): T {
  return JSON.parse(text, BufferJSON.reviver) as T;
}

export interface StoredAuthState {
  /** Hand this to makeWASocket; Baileys mutates `state.creds` in place. */
  state: AuthenticationState;
  /** Whether credentials were found in the store (false: the next socket pairs by QR). */
  restored: boolean;
  /** Writes the current creds (call on every `creds.update`). */
  saveCreds(): Promise<void>;
  /** Writes other entries of the session (its contact book) in the same order as the keys. */
  save(entries: Map<string, string | null>): Promise<void>;
  /** Resolves when every write queued so far has landed (or failed). */
  flushed(): Promise<void>;
  /** Drops every later write: the store was cleared and this state must not bring it back. */
  discard(): void;
}

export async function loadAuthState(store: AuthStateStore): Promise<StoredAuthState> {
  const found = await store.get([CREDS_KEY]);
  const text = found.get(CREDS_KEY);
  const creds: AuthenticationCreds = text ? decodeValue<AuthenticationCreds>(text) : initAuthCreds();

  // one write at a time, in call order, so an older snapshot never lands after a newer one
  let writes: Promise<unknown> = Promise.resolve();
  let discarded = false;
  const write = (entries: Map<string, string | null>): Promise<void> => {
    const next = writes.then(() => (discarded ? undefined : store.set(entries)));
    writes = next.catch(() => undefined);
    return next;
  };

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const rows = await store.get(ids.map((id) => signalKey(type, id)));
        const out: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          const raw = rows.get(signalKey(type, id));
          if (raw == null) continue;
          let value: unknown = decodeValue(raw);
          if (type === "app-state-sync-key" && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
          out[id] = value as SignalDataTypeMap[T];
        }
        return out;
      },
      async set(data: SignalDataSet) {
        const entries = new Map<string, string | null>();
        for (const [type, byId] of Object.entries(data)) {
          for (const [id, value] of Object.entries(byId ?? {})) {
            entries.set(signalKey(type, id), value == null ? null : encodeValue(value));
          }
        }
        if (entries.size > 0) await write(entries);
      },
      async clear() {
        await store.clear();
      },
    },
  };

  return {
    state,
    restored: Boolean(text),
    saveCreds: () => write(new Map([[CREDS_KEY, encodeValue(creds)]])),
    save: (entries) => write(entries),
    flushed: () => writes.then(() => undefined),
    discard: () => {
      discarded = true;
    },
  };
}
