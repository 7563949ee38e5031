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

/**
 * The default template's text as shipped before the provider's identity was a setting (issue 53):
 * its CONTRATADA was "o provedor identificado no cabeçalho", and the PDF had no such header.
 */
export const PREVIOUS_DEFAULT_CORPO = `CONTRATO DE PRESTAÇÃO DE SERVIÇOS DE ACESSO À INTERNET

CONTRATANTE: {nome}, inscrito(a) no CPF sob o nº {cpf}, e-mail {email}, telefone {telefone}, residente em {endereco}.

CONTRATADA: o provedor identificado no cabeçalho deste documento, doravante CONTRATADA.

1. OBJETO. A CONTRATADA prestará ao CONTRATANTE o serviço de acesso à internet no plano {plano}, no endereço acima.

2. PREÇO. O CONTRATANTE pagará mensalmente o valor de {valor}, com vencimento no dia escolhido na instalação.

3. PRAZO. Este contrato vigora por prazo indeterminado a partir da data de sua assinatura, podendo ser rescindido por qualquer das partes mediante aviso prévio de 30 (trinta) dias.

4. OBRIGAÇÕES. A CONTRATADA manterá o serviço disponível conforme a regulamentação da Anatel; o CONTRATANTE zelará pelos equipamentos cedidos em comodato e os devolverá ao fim do contrato.

5. ASSINATURA ELETRÔNICA. As partes reconhecem como válida a assinatura eletrônica deste instrumento, nos termos do art. 10, § 2º, da MP 2.200-2/2001, por meio de link pessoal enviado ao WhatsApp do CONTRATANTE, com conferência de CPF e aceite expresso.

{data}

Testemunhas:
{testemunha1_nome} — CPF {testemunha1_cpf}
{testemunha2_nome} — CPF {testemunha2_cpf}`;

/**
 * At start: the default template ships when there is none; a template still word for word the
 * previous default text gets today's (a new version: contracts already made keep their text),
 * one an admin edited stays as written.
 */
export async function ensureDefaultTemplate(db: DbOrTx) {
  const [{ n }] = await db.select({ n: count() }).from(contractTemplates);
  // several processes starting together: the one default (a unique index) is inserted once
  if (Number(n) === 0)
    await db
      .insert(contractTemplates)
      .values({ ...DEFAULT_CONTRACT_TEMPLATE, padrao: true })
      .onConflictDoNothing();
  await db
    .update(contractTemplates)
    .set({ corpo: DEFAULT_CONTRACT_TEMPLATE.corpo, version: sql`${contractTemplates.version} + 1`, updatedAt: sql`now()` })
    .where(eq(contractTemplates.corpo, PREVIOUS_DEFAULT_CORPO));
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
