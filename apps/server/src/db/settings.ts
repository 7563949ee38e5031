import { SETTING_DEFAULTS, type SettingKey } from "@balcao/contract";
import { eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "./client.js";
import { settings } from "./schema/index.js";

/**
 * A setting's stored value, or its default (the contract's): the plain read every module may make
 * (the audit's retention, the tickets' auto-close, the bots' texts). Writing a setting, with its
 * checks, audit and event, is the settings module's (modules/settings/service.ts).
 */
export async function getSettingValue(db: DbOrTx, key: SettingKey): Promise<string> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value ?? SETTING_DEFAULTS[key];
}

/** Several settings at once, each with its default. */
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
