import type { Tag } from "@balcao/contract";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { tags } from "../../db/schema/index.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";

const toTag = (r: typeof tags.$inferSelect): Tag => ({ id: r.id, name: r.name, color: r.color });

function mapDuplicate(err: unknown): never {
  if (isUniqueViolation(err, "tags_name_key")) throw new AppError("ERR_TAG_ALREADY_EXISTS");
  throw err;
}

export async function listTags(db: DbOrTx): Promise<Tag[]> {
  return (await db.select().from(tags).orderBy(asc(tags.name))).map(toTag);
}

export async function createTag(db: DbOrTx, input: { name: string; color: string }): Promise<Tag> {
  const [row] = await db.insert(tags).values(input).returning().catch(mapDuplicate);
  return toTag(row);
}

export async function updateTag(db: DbOrTx, id: number, input: Partial<{ name: string; color: string }>): Promise<Tag> {
  const [row] = await db
    .update(tags)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(tags.id, id))
    .returning()
    .catch(mapDuplicate);
  if (!row) throw new AppError("ERR_NO_TAG_FOUND");
  return toTag(row);
}

export async function deleteTag(db: DbOrTx, id: number): Promise<void> {
  const deleted = await db.delete(tags).where(eq(tags.id, id)).returning({ id: tags.id });
  if (!deleted.length) throw new AppError("ERR_NO_TAG_FOUND");
}
