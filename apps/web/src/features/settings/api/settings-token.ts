import { SETTINGS_TOKEN_HEADER, type SettingsUnlockAnswer } from "@balcao/contract";
import { useSyncExternalStore } from "react";
import { http } from "../../../api/http";

/**
 * The settings token of 'Acesso restrito' (POST /settings/unlock): kept for this tab only
 * (sessionStorage), sent as X-Settings-Token with every settings change, dropped when it expires
 * or the server says the gate is closed.
 */
const KEY = "settingsToken";
const listeners = new Set<() => void>();
let current: Held | null = read();

interface Held {
  token: string;
  expiresAt: number;
  /** the admin it was given to (another admin signing in on this tab starts locked) */
  userId: number;
}

function read(): Held | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as Held | null;
    return v && typeof v.token === "string" && v.expiresAt > Date.now() ? v : null;
  } catch {
    return null;
  }
}

function set(value: typeof current) {
  current = value;
  if (value) sessionStorage.setItem(KEY, JSON.stringify(value));
  else sessionStorage.removeItem(KEY);
  for (const l of listeners) l();
}

function token(): string | null {
  if (current && current.expiresAt <= Date.now()) set(null);
  return current?.token ?? null;
}

// a token is this admin's: signing out drops it
http.onLogout(() => set(null));

export function lockSettings() {
  set(null);
}

/** The header of a settings change (empty while no token is held). */
export function gateHeaders(): Record<string, string> {
  const t = token();
  return t ? { [SETTINGS_TOKEN_HEADER]: t } : {};
}

/** Checks the settings password on the server; keeps the token it answers. */
export async function unlockSettings(password: string, userId: number): Promise<void> {
  const answer = await http.post<SettingsUnlockAnswer>("/settings/unlock", { password });
  set({ token: answer.settingsToken, expiresAt: Date.now() + answer.expiresInSeconds * 1000, userId });
  // back to the gate when it expires
  setTimeout(() => token(), answer.expiresInSeconds * 1000 + 50);
}

/** Whether this tab holds a valid settings token of this admin. */
export function useSettingsUnlocked(userId: number | undefined): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => token() !== null && current?.userId === userId,
  );
}
