import { and, isNotNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { messages } from "../../db/schema/index.js";
import type { FileStore } from "../../lib/media.js";
import { recordAudit } from "../audit/service.js";
import { unreferencedKeys } from "./service.js";

/** How many message rows one run takes at a time (a large backlog goes in several transactions). */
const BATCH = 500;

/**
 * The media retention (setting `mediaRetentionDays`, 0 = kept): files of messages older than the
 * cutoff are deleted and those messages lose their file (the row, its kind and time stay: the
 * chat shows the media as no longer available). A file still used by a newer message, a disparo
 * still to send or a bot entry stays. Answers how many files went.
 */
export async function purgeOldMedia(
  db: DbOrTx,
  media: Pick<FileStore, "remove">,
  days: number,
  now: Date,
  log?: { warn(o: object, m: string): void },
): Promise<number> {
  if (!(days > 0)) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let removed = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: messages.id, key: messages.mediaKey })
        .from(messages)
        .where(and(isNotNull(messages.mediaKey), lt(messages.createdAt, cutoff)))
        .orderBy(messages.id)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      if (!rows.length) return undefined;
      const ids = rows.map((r) => r.id);
      const keys = [...new Set(rows.map((r) => r.key).filter((k): k is string => !!k))];
      // a key another message (newer, or beyond this batch) still uses stays until that one goes
      const free = await unreferencedKeys(tx, keys, { messageIds: ids });
      await tx.execute(
        sql`update messages set media_key = null, updated_at = now() where id in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`,
      );
      return { keys: free, count: rows.length };
    });
    if (!batch) break;
    for (const key of batch.keys) {
      await media.remove(key).catch((err) => log?.warn({ err, key }, "old media file not removed"));
      removed++;
    }
    if (batch.count < BATCH) break;
  }
  if (removed) await recordAudit(db, { actor: null, action: "media.purge", target: "media", after: { files: removed, days } });
  return removed;
}
