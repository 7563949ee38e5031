import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppContext, SessionUser } from "../../context.js";
import { AppError } from "../../lib/errors.js";
import type { Clock } from "../../lib/pace.js";
import { getSettingValue } from "./service.js";

/** How long a settings token opens the screen after the password was given. */
export const SETTINGS_TOKEN_TTL_S = 15 * 60;

/**
 * The 'Acesso restrito' gate, checked by the server. While a settings password is set, settings
 * writes need a token the unlock answered: `<userId>.<expiresAt>.<mac>`, signed with a key derived
 * from the server's secret and bound to the admin and to the stored password's hash (changing the
 * password closes every open token). Stateless, so any server process can check it.
 */
export class SettingsGate {
  private readonly key: Buffer;

  constructor(
    private readonly ctx: AppContext,
    private readonly clock: Clock,
  ) {
    this.key = createHmac("sha256", ctx.config.jwtSecret).update("balcao:settings-token").digest();
  }

  private mac(userId: number, expiresAt: number, passwordHash: string): Buffer {
    return createHmac("sha256", this.key).update(`${userId}.${expiresAt}.${passwordHash}`).digest();
  }

  /** A fresh token for this admin (called after the password was verified). */
  async issue(user: SessionUser): Promise<{ settingsToken: string; expiresInSeconds: number }> {
    const stored = await getSettingValue(this.ctx.db, "settingsPassword");
    const expiresAt = Math.floor(this.clock.now() / 1000) + SETTINGS_TOKEN_TTL_S;
    const settingsToken = `${user.id}.${expiresAt}.${this.mac(user.id, expiresAt, stored).toString("base64url")}`;
    return { settingsToken, expiresInSeconds: SETTINGS_TOKEN_TTL_S };
  }

  /** Whether a settings password is set (the gate is closed without a token). */
  async isLocked(): Promise<boolean> {
    return (await getSettingValue(this.ctx.db, "settingsPassword")) !== "";
  }

  /** Throws ERR_SETTINGS_LOCKED unless no settings password is set or the token is this admin's and still valid. */
  async check(user: SessionUser, header: string | string[] | undefined): Promise<void> {
    const stored = await getSettingValue(this.ctx.db, "settingsPassword");
    if (stored === "") return;
    const token = Array.isArray(header) ? header[0] : header;
    if (!token || !this.valid(user, token, stored)) throw new AppError("ERR_SETTINGS_LOCKED");
  }

  private valid(user: SessionUser, token: string, stored: string): boolean {
    const m = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return false;
    const userId = Number(m[1]);
    const expiresAt = Number(m[2]);
    if (userId !== user.id || expiresAt * 1000 <= this.clock.now()) return false;
    const given = Buffer.from(m[3], "base64url");
    const want = this.mac(userId, expiresAt, stored);
    return given.length === want.length && timingSafeEqual(given, want);
  }
}
