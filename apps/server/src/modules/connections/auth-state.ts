import { and, eq, inArray, sql } from "drizzle-orm";
import type { AuthStateStore } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { whatsappAuthKeys } from "../../db/schema/index.js";

const CHUNK = 500;

/** An engine's auth state in whatsapp_auth_keys: one row per key, all writes of a call in one transaction. */
export function createAuthStateStore(db: Db, whatsappId: number): AuthStateStore {
  return {
    async get(keys) {
      const out = new Map<string, string>();
      for (let i = 0; i < keys.length; i += CHUNK) {
        const rows = await db
          .select({ key: whatsappAuthKeys.key, value: whatsappAuthKeys.value })
          .from(whatsappAuthKeys)
          .where(and(eq(whatsappAuthKeys.whatsappId, whatsappId), inArray(whatsappAuthKeys.key, keys.slice(i, i + CHUNK))));
        for (const r of rows) out.set(r.key, r.value);
      }
      return out;
    },
    async set(entries) {
      const upserts: { whatsappId: number; key: string; value: string; updatedAt: Date }[] = [];
      const deletes: string[] = [];
      const now = new Date();
      for (const [key, value] of entries) {
        if (value === null) deletes.push(key);
        else upserts.push({ whatsappId, key, value, updatedAt: now });
      }
      if (!upserts.length && !deletes.length) return;
      await db.transaction(async (tx) => {
        for (let i = 0; i < upserts.length; i += CHUNK) {
          await tx
            .insert(whatsappAuthKeys)
            .values(upserts.slice(i, i + CHUNK))
            .onConflictDoUpdate({
              target: [whatsappAuthKeys.whatsappId, whatsappAuthKeys.key],
              set: { value: sqlExcluded("value"), updatedAt: now },
            });
        }
        for (let i = 0; i < deletes.length; i += CHUNK) {
          await tx
            .delete(whatsappAuthKeys)
            .where(and(eq(whatsappAuthKeys.whatsappId, whatsappId), inArray(whatsappAuthKeys.key, deletes.slice(i, i + CHUNK))));
        }
      });
    },
    async clear() {
      await db.delete(whatsappAuthKeys).where(eq(whatsappAuthKeys.whatsappId, whatsappId));
    },
  };
}

const sqlExcluded = (col: string) => sql.raw(`excluded."${col}"`);
