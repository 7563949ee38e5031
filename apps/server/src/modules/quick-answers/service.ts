import type { QuickAnswer, QuickAnswerBody } from "@balcao/contract";
import { asc, count, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { quickAnswers } from "../../db/schema/index.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";
import { containsPattern, iso, likeEscape, pageWindow } from "../../lib/sql.js";

function toQuickAnswer(r: typeof quickAnswers.$inferSelect): QuickAnswer {
  return { id: r.id, shortcut: r.shortcut, message: r.message, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}

function mapDuplicate(err: unknown): never {
  if (isUniqueViolation(err, "quick_answers_shortcut_key")) throw new AppError("ERR_QUICK_ANSWER_ALREADY_EXISTS");
  throw err;
}

/** Search by shortcut; a leading "/" (as typed in the message input) is ignored. Prefix matches first. */
export async function listQuickAnswers(db: DbOrTx, q: { searchParam: string; pageNumber: number; rowsPerPage: number }) {
  const term = q.searchParam.replace(/^\//, "").trim().toLowerCase();
  const where = term ? sql`lower(${quickAnswers.shortcut}) like ${containsPattern(term)}` : undefined;
  const { offset, limit } = pageWindow(q.pageNumber, q.rowsPerPage);
  // prefix matches first when searching (the "/" lookup), then alphabetical
  const order = term
    ? [
        sql`case when lower(${quickAnswers.shortcut}) like ${`${likeEscape(term)}%`} then 0 else 1 end`,
        asc(sql`lower(${quickAnswers.shortcut})`),
      ]
    : [asc(sql`lower(${quickAnswers.shortcut})`)];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(quickAnswers)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(quickAnswers).where(where),
  ]);
  return { quickAnswers: rows.map(toQuickAnswer), count: total, hasMore: offset + rows.length < total };
}

export async function getQuickAnswer(db: DbOrTx, id: number): Promise<QuickAnswer> {
  const [row] = await db.select().from(quickAnswers).where(eq(quickAnswers.id, id));
  if (!row) throw new AppError("ERR_NO_QUICK_ANSWER_FOUND");
  return toQuickAnswer(row);
}

export async function createQuickAnswer(ctx: AppContext, input: QuickAnswerBody): Promise<QuickAnswer> {
  const [row] = await ctx.db.insert(quickAnswers).values(input).returning().catch(mapDuplicate);
  const quickAnswer = toQuickAnswer(row);
  ctx.events.publish("quickAnswer.saved", { action: "create", quickAnswer });
  return quickAnswer;
}

export async function updateQuickAnswer(ctx: AppContext, id: number, input: Partial<QuickAnswerBody>): Promise<QuickAnswer> {
  const [row] = await ctx.db
    .update(quickAnswers)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(quickAnswers.id, id))
    .returning()
    .catch(mapDuplicate);
  if (!row) throw new AppError("ERR_NO_QUICK_ANSWER_FOUND");
  const quickAnswer = toQuickAnswer(row);
  ctx.events.publish("quickAnswer.saved", { action: "update", quickAnswer });
  return quickAnswer;
}

export async function deleteQuickAnswer(ctx: AppContext, id: number): Promise<void> {
  const deleted = await ctx.db.delete(quickAnswers).where(eq(quickAnswers.id, id)).returning({ id: quickAnswers.id });
  if (!deleted.length) throw new AppError("ERR_NO_QUICK_ANSWER_FOUND");
  ctx.events.publish("quickAnswer.deleted", { quickAnswerId: id });
}
