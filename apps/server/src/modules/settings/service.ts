import { type AuditActor, recordAudit } from "../audit/service.js";
import { createHash, randomBytes } from "node:crypto";
import {
  AGENT_SETTING_KEYS,
  AUDIT_RETENTION_MIN_DAYS,
  BRANDING_UPLOAD_KEYS,
  type BrandingUploadKey,
  CNPJ_SETTING_KEYS,
  COLOR_SETTING_KEYS,
  COMPANY_TEXT_MAX,
  CPF_SETTING_KEYS,
  cnpjSettingValue,
  isValidCpf,
  normalizePublicUrl,
  PUBLIC_URL_INVALID,
  READ_ONLY_SETTING_KEYS,
  SECRET_ADDRESS_GROUPS,
  SECRET_SETTING_KEYS,
  SETTING_CHOICES,
  SETTING_DEFAULTS,
  SETTING_INTEGERS,
  type ColorsAnswer,
  type Setting,
  type SettingKey,
  URL_SETTING_KEYS,
} from "@balcao/contract";
import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { settings } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { hashPassword, needsRehash, verifyPassword } from "../../lib/password.js";
import { pixKeyProblem } from "../../lib/pix-brcode.js";
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

// the plain reads live beside the table (every module may read a setting); here for the modules that import them from settings
export { getSettingValue, getSettingValues } from "../../db/settings.js";
import { getSettingValue, getSettingValues } from "../../db/settings.js";

/** Whether a non-admin may read a setting (what an agent's screens use). */
export function agentMayRead(key: string): boolean {
  return (AGENT_SETTING_KEYS as readonly string[]).includes(key);
}

/** GET /settings: every key for admins (secrets masked); for agents and supervisors only what their screens read. */
export async function listSettings(db: DbOrTx, isAdmin: boolean): Promise<PublicSetting[]> {
  const rows = await db.select().from(settings).orderBy(settings.key);
  return rows.filter((r) => isAdmin || agentMayRead(r.key)).map((r) => present(r.key, r.value));
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
  if (URL_SETTING_KEYS.includes(key) && value !== "" && !isHttpUrl(value)) throw bad("Must be an address like https://example.com");
  if (key === "publicUrl" && value !== "") {
    // kept as links start with it: no query, no credentials, no trailing slash
    const url = normalizePublicUrl(value);
    if (!url) throw bad(PUBLIC_URL_INVALID);
    return url;
  }
  if (CPF_SETTING_KEYS.includes(key) && value !== "") {
    const digits = value.replace(/[.\-\s]/g, "");
    if (!/^\d{1,11}$/.test(digits)) throw bad("CPF: digits only, at most 11");
    if (!isValidCpf(digits)) throw bad("CPF inválido");
    return digits;
  }
  if (CNPJ_SETTING_KEYS.includes(key)) {
    // the contract's schema, as the settings screen checks it: kept without the mask
    const cnpj = cnpjSettingValue.safeParse(value);
    if (!cnpj.success) throw bad(cnpj.error.issues[0]?.message ?? "CNPJ inválido");
    return cnpj.data;
  }
  const max = COMPANY_TEXT_MAX[key];
  if (max !== undefined && value.length > max) throw bad(`At most ${max} characters`);
  const imageKeys: readonly string[] = [...Object.values(BRANDING_UPLOAD_KEYS), "mail_logo", "mail_fundo_contrato", "mail_marca_agua"];
  if (imageKeys.includes(key) && value !== "" && !/^\/branding\/[a-f0-9]{32}\.[a-z]{3,4}$/.test(value) && !isHttpUrl(value))
    throw bad("Must be an uploaded image or an https address");
  if (key === "settingsPassword" && value !== "" && value.length < 6) throw bad("At least 6 characters");
  if (key === "pixKey" && pixKeyProblem(value)) throw bad(pixKeyProblem(value) as string);
  return value;
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && u.host !== "";
  } catch {
    return false;
  }
}

/** Whether a key exists (unknown keys answer ERR_NO_SETTING_FOUND). */
export function assertKey(key: string): asserts key is SettingKey {
  if (!isKey(key)) throw new AppError("ERR_NO_SETTING_FOUND");
}

export async function updateSetting(
  ctx: AppContext,
  key: string,
  rawValue: string,
  actor?: AuditActor,
  typedSecret?: string,
): Promise<PublicSetting> {
  assertKey(key);
  if (READ_ONLY_SETTING_KEYS.includes(key)) throw new AppError("ERR_NO_PERMISSION");
  let value = validate(key, rawValue.trim());
  if (key === "settingsPassword" && value !== "") value = await hashPassword(value);
  if (key === "auditRetentionDays" && value !== "0" && Number(value) < AUDIT_RETENTION_MIN_DAYS)
    throw new AppError("ERR_VALIDATION", 400, { value: [`0 (para sempre) ou pelo menos ${AUDIT_RETENTION_MIN_DAYS} dias`] });
  const group = SECRET_ADDRESS_GROUPS.find((g) => g.address.includes(key));
  if (!group) return storeSetting(ctx, key, value, actor);
  return storeSetting(ctx, key, value, actor, async (tx) => {
    // a saved secret goes only to its saved address: a new address needs it typed again, here
    const keys = [...group.address, group.secret];
    const rows = await tx.select().from(settings).where(inArray(settings.key, keys)).for("update");
    const saved = (k: SettingKey) => rows.find((r) => r.key === k)?.value ?? SETTING_DEFAULTS[k];
    const address = (v: (k: SettingKey) => string) => group.address.map((k) => normalAddress(v(k))).join("|");
    const moved = address(saved) !== address((k) => (k === key ? value : saved(k)));
    const secret = typedSecret?.trim() ?? "";
    if (secret) return [[group.secret, validate(group.secret, secret)]];
    if (!moved || saved(group.secret) === "") return [];
    // no address any more: the secret has nowhere to go and is dropped
    const primary = group.address[0];
    if ((primary === key ? value : saved(primary)) === "") return [[group.secret, ""]];
    throw new AppError("ERR_VALIDATION", 400, { value: [group.retype], secret: [group.retype] });
  });
}

/** An address as compared for its secret: a URL without case, trailing slashes or default form; anything else trimmed, lowercase. */
function normalAddress(v: string): string {
  const t = v.trim();
  try {
    const u = new URL(t);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}${u.search}`;
  } catch {
    return t.toLowerCase().replace(/\.$/, "");
  }
}

/**
 * Writes a checked value (audited with the value before, in one transaction; a secret's values
 * are never recorded, only that it changed) and tells every open browser (the `settings` event, secrets masked).
 * `alongside`, in the same transaction before the write, may refuse it or answer other keys written with it.
 */
async function storeSetting(
  ctx: AppContext,
  key: SettingKey,
  value: string,
  actor?: AuditActor,
  alongside?: (tx: DbOrTx) => Promise<[SettingKey, string][]>,
): Promise<PublicSetting> {
  const written = await ctx.db.transaction(async (tx) => {
    const writes: [SettingKey, string][] = [...((await alongside?.(tx)) ?? []), [key, value]];
    for (const [k, v] of writes) await writeSetting(tx, k, v, actor);
    return writes;
  });
  let setting = present(key, value);
  for (const [k, v] of written) {
    const p = present(k, v);
    ctx.events.publish("setting.updated", { setting: p });
    if (k === key) setting = p;
  }
  return setting;
}

async function writeSetting(tx: DbOrTx, key: SettingKey, value: string, actor?: AuditActor): Promise<void> {
  const [old] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).for("update");
  await tx
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  const before = old?.value ?? SETTING_DEFAULTS[key];
  if (actor !== undefined && before !== value) {
    // recordAudit redacts a secret setting's value ({ key, value }) to "[redacted]"
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      target: `setting:${key}`,
      before: { key, value: before },
      after: { key, value },
    });
  }
}

/**
 * The settings screen's 'Acesso restrito' check, done here, never in the browser. Before a
 * settings password exists there is nothing to check (the screen asks the admin to create one).
 */
export async function verifySettingsPassword(ctx: AppContext, password: string, actor?: AuditActor): Promise<boolean> {
  const stored = await getSettingValue(ctx.db, "settingsPassword");
  if (!stored) throw new AppError("ERR_SETTINGS_PASSWORD_NOT_SET");
  const ok = await verifyPassword(password, stored);
  if (ok && needsRehash(stored)) {
    // a hash of older parameters: today's, as at sign-in (only if nobody changed the password meanwhile; a failure keeps the old one)
    const value = await hashPassword(password);
    await ctx.db
      .update(settings)
      .set({ value })
      .where(and(eq(settings.key, "settingsPassword"), eq(settings.value, stored)))
      .catch((err) => ctx.log.warn({ err }, "re-hashing the settings password failed"));
  }
  if (actor !== undefined) await recordAudit(ctx.db, { actor, action: "settings.unlock", target: "settings", after: { ok } });
  return ok;
}

/** The SHA-256 of an API token, as kept (the token itself is shown once). */
export function apiTokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** 'Gerar novo': a new userApiToken, answered once; only its hash is kept, the old one stops working. */
export async function regenerateApiToken(ctx: AppContext, actor?: AuditActor): Promise<{ token: string }> {
  const token = randomBytes(32).toString("base64url");
  await storeSetting(ctx, "userApiToken", `sha256:${apiTokenHash(token)}`, actor);
  return { token };
}

/** Whether a token is the current userApiToken (for the API that takes it). */
export async function isUserApiToken(db: DbOrTx, token: string): Promise<boolean> {
  const stored = await getSettingValue(db, "userApiToken");
  return stored !== "" && stored === `sha256:${apiTokenHash(token)}`;
}

/** Points a branding setting (logoLogin, logoDashboard, logoMensagem, favicon) at a stored image; answers the replaced URL. */
export async function setBrandingImage(ctx: AppContext, upload: BrandingUploadKey, url: string): Promise<{ previous: string }> {
  const key = BRANDING_UPLOAD_KEYS[upload];
  const previous = await getSettingValue(ctx.db, key);
  await storeSetting(ctx, key, url);
  return { previous };
}

export async function getColors(db: DbOrTx): Promise<ColorsAnswer> {
  return getSettingValues(db, [
    "loginPagePrimaryColor",
    "loginPageSecondaryColor",
    "topbarColor",
    "secondaryColor",
    "darkMode",
    "logoLogin",
    "logoDashboard",
    "favicon",
    "userCreation",
  ]);
}

/** The product's time zone (setting `timezone`, default America/Sao_Paulo). */
export async function timeZoneOf(db: DbOrTx): Promise<string> {
  const tz = await getSettingValue(db, "timezone");
  return isTimeZone(tz) ? tz : SETTING_DEFAULTS.timezone;
}
