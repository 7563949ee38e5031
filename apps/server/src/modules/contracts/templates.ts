import { type ContractTemplate, type ContractTemplateBody, DEFAULT_CONTRACT_TEMPLATE } from "@balcao/contract";
import { asc, count, desc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { contractTemplates } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";

/** Contract templates: the default that ships, the admins' list, and one default at a time. */

function templateOf(r: typeof contractTemplates.$inferSelect): ContractTemplate {
  return { id: r.id, titulo: r.titulo, corpo: r.corpo, padrao: r.padrao, updatedAt: new Date(r.updatedAt).toISOString() };
}

/** At start: the default template ships when there is none. */
export async function ensureDefaultTemplate(db: DbOrTx) {
  const [{ n }] = await db.select({ n: count() }).from(contractTemplates);
  // several processes starting together: the one default (a unique index) is inserted once
  if (Number(n) === 0)
    await db
      .insert(contractTemplates)
      .values({ ...DEFAULT_CONTRACT_TEMPLATE, padrao: true })
      .onConflictDoNothing();
}

export async function listTemplates(db: DbOrTx): Promise<ContractTemplate[]> {
  const rows = await db
    .select()
    .from(contractTemplates)
    .orderBy(desc(contractTemplates.padrao), asc(contractTemplates.titulo), asc(contractTemplates.id));
  return rows.map(templateOf);
}

export async function getTemplate(db: DbOrTx, id: number): Promise<ContractTemplate> {
  const [r] = await db.select().from(contractTemplates).where(eq(contractTemplates.id, id));
  if (!r) throw new AppError("ERR_NO_TEMPLATE_FOUND");
  return templateOf(r);
}

export async function createTemplate(ctx: AppContext, body: ContractTemplateBody): Promise<ContractTemplate> {
  return ctx.db.transaction(async (tx) => {
    if (body.padrao) await tx.update(contractTemplates).set({ padrao: false }).where(eq(contractTemplates.padrao, true));
    const [r] = await tx
      .insert(contractTemplates)
      .values({ titulo: body.titulo, corpo: body.corpo, padrao: body.padrao ?? false })
      .returning();
    return templateOf(r);
  });
}

export async function updateTemplate(ctx: AppContext, id: number, body: ContractTemplateBody): Promise<ContractTemplate> {
  return ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(contractTemplates).where(eq(contractTemplates.id, id)).for("update");
    if (!cur) throw new AppError("ERR_NO_TEMPLATE_FOUND");
    // the default stays a default until another takes its place
    const padrao = body.padrao === undefined ? cur.padrao : body.padrao || cur.padrao;
    if (body.padrao && !cur.padrao) await tx.update(contractTemplates).set({ padrao: false }).where(eq(contractTemplates.padrao, true));
    const [r] = await tx
      .update(contractTemplates)
      .set({ titulo: body.titulo, corpo: body.corpo, padrao, version: sql`${contractTemplates.version} + 1`, updatedAt: sql`now()` })
      .where(eq(contractTemplates.id, id))
      .returning();
    return templateOf(r);
  });
}

export async function deleteTemplate(ctx: AppContext, id: number): Promise<void> {
  const [cur] = await ctx.db.select().from(contractTemplates).where(eq(contractTemplates.id, id));
  if (!cur) throw new AppError("ERR_NO_TEMPLATE_FOUND");
  if (cur.padrao) throw new AppError("ERR_VALIDATION", 400, { padrao: ["O modelo padrão não pode ser excluído"] });
  await ctx.db.delete(contractTemplates).where(eq(contractTemplates.id, id));
}
