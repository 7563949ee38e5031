import {
  COLOR_SETTING_KEYS,
  READ_ONLY_SETTING_KEYS,
  SECRET_SETTING_KEYS,
  SETTING_CHOICES,
  SETTING_DEFAULTS,
  SETTING_INTEGERS,
  type ColorsAnswer,
  type Setting,
  type SettingKey,
} from "@balcao/contract";
import { eq, inArray } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { settings, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { hashPassword, verifyPassword } from "../../lib/password.js";
import { isTimeZone } from "../../lib/zoned-time.js";

export interface PublicSetting extends Setting {
  /** For write-only secrets: whether a value is set (the value itself is never sent). */
  hasValue?: boolean;
}

function isKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFAULTS, key);
}

function present(key: string, value: string): PublicSetting {
  if ((SECRET_SETTING_KEYS as readonly string[]).includes(key)) return { key, value: "", hasValue: value !== "" };
  return { key, value };
}

export async function getSettingValue(db: DbOrTx, key: SettingKey): Promise<string> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value ?? SETTING_DEFAULTS[key];
}

export async function getSettingValues<K extends SettingKey>(db: DbOrTx, keys: readonly K[]): Promise<Record<K, string>> {
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, keys as unknown as string[]));
  const out = {} as Record<K, string>;
  for (const k of keys) out[k] = SETTING_DEFAULTS[k];
  for (const r of rows) out[r.key as K] = r.value;
  return out;
}

export async function listSettings(db: DbOrTx): Promise<PublicSetting[]> {
  const rows = await db.select().from(settings).orderBy(settings.key);
  return rows.map((r) => present(r.key, r.value));
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

function validate(key: SettingKey, value: string): string {
  const choices = SETTING_CHOICES[key];
  const bad = (msg: string) => new AppError("ERR_VALIDATION", 400, { value: [msg] });
  if (choices && !choices.includes(value)) throw bad(`Must be one of: ${choices.join(", ")}`);
  if (SETTING_INTEGERS.includes(key) && !/^\d{1,9}$/.test(value)) throw bad("Must be a whole number");
  if (COLOR_SETTING_KEYS.includes(key) && !HEX_COLOR.test(value)) throw bad("Must be a colour like #001f3f");
  if (key === "mail_port" && (Number(value) < 1 || Number(value) > 65535)) throw bad("Must be a port between 1 and 65535");
  if (key === "timezone" && !isTimeZone(value)) throw bad("Must be a time zone like America/Sao_Paulo");
  return value;
}

export async function updateSetting(ctx: AppContext, key: string, rawValue: string): Promise<PublicSetting> {
  if (!isKey(key)) throw new AppError("ERR_NO_SETTING_FOUND");
  if (READ_ONLY_SETTING_KEYS.includes(key)) throw new AppError("ERR_NO_PERMISSION");
  let value = validate(key, rawValue.trim());
  if (key === "settingsPassword" && value !== "") value = await hashPassword(value);
  await ctx.db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  const setting = present(key, value);
  ctx.events.publish("setting.updated", { setting });
  return setting;
}

/**
 * The settings screen's 'Acesso restrito' check, done here, never in the browser. With no
 * settings password set, the admin's own login password opens it.
 */
export async function verifySettingsPassword(ctx: AppContext, actor: SessionUser, password: string): Promise<boolean> {
  const stored = await getSettingValue(ctx.db, "settingsPassword");
  if (stored) return verifyPassword(password, stored);
  const [row] = await ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, actor.id));
  return verifyPassword(password, row?.hash);
}

export async function getColors(db: DbOrTx): Promise<ColorsAnswer> {
  return getSettingValues(db, [
    "loginPagePrimaryColor",
    "loginPageSecondaryColor",
    "topbarColor",
    "secondaryColor",
    "darkMode",
    "logoLogin",
    "favicon",
    "userCreation",
  ]);
}

/** The product's time zone (setting `timezone`, default America/Sao_Paulo). */
export async function timeZoneOf(db: DbOrTx): Promise<string> {
  const tz = await getSettingValue(db, "timezone");
  return isTimeZone(tz) ? tz : SETTING_DEFAULTS.timezone;
}
