import { recordAudit } from "../audit/service.js";
import { createHash, randomBytes } from "node:crypto";
import {
  type ContractCreateBody,
  type ContractItem,
  type ContractsQuery,
  contractCreateBody,
  contractsQuery,
  companyFromSettings,
  cpfDigits,
  type ContractValues,
  contractDate,
  fillContract,
  witnessesFromSettings,
  formatCpf,
  SIGNING_LINK_DAYS,
} from "@balcao/contract";
import { and, asc, count, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { contractEvidence, contracts, contractTemplates, contractTokens, tickets } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { erpAddress, MAIL_SETTING_KEYS, mailConfigured, sendMail } from "../../lib/mail.js";
import { FileStore } from "../../lib/media.js";
import type { Storage } from "../../lib/storage.js";
import type { Clock } from "../../lib/pace.js";
import { addLocalDays, parseLocalDateTime } from "../../lib/zoned-time.js";
import { enqueueJob } from "../../jobs/runner.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import type { ConvDeps, Queued } from "../outbox/deps.js";
import { getSettingValue, getSettingValues, timeZoneOf } from "../settings/service.js";
import { canSee, loadTicket, visibleTo } from "../tickets/queries.js";
import type { PdfImages } from "./pdf.js";
import { getTemplate, listTemplates } from "./templates.js";

/**
 * Contracts (issue 20): sending a contract from a ticket (the PDF is generated on the job runner,
 * then the customer gets the signing link through the outbox), the lists, files and deletion, and
 * the e-mail of the signed copy. Templates live in templates.ts, the public signing in signing.ts.
 */

export const GENERATE_JOB = "contracts.generate";
export const MAIL_JOB = "contracts.mail";

export interface ContractDeps {
  conv: ConvDeps;
  clock: Clock;
  /** the job runner looks for due jobs now (something was queued) */
  wakeRunner: () => void;
  files: FileStore;
  /** the e-mail images (logo, background, watermark) uploaded on the settings screen */
  branding: { read(name: string): Promise<Buffer | undefined> };
}

/** Contract PDFs in the storage's `contracts` area (DATA_DIR/contracts or S3): served only through the checked routes, never at /media. */
export function contractFiles(storage: Storage): FileStore {
  return new FileStore(storage, "contracts");
}

export const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

export const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export type ContractRow = typeof contracts.$inferSelect;

export function itemOf(r: ContractRow): ContractItem {
  return {
    id: r.id,
    titulo: r.titulo,
    nome: r.nome,
    email: r.email,
    status: r.status,
    data_envio: iso(r.sentAt),
    atendente: r.atendente,
    caminho: r.fileKey ? `/api/contratos/${r.id}/arquivo` : null,
    ticketId: r.ticketId,
    cpf: formatCpf(r.cpf),
    assinado_em: iso(r.signedAt),
  };
}

async function requireEnabled(db: DbOrTx) {
  if ((await getSettingValue(db, "enableContract")) !== "enabled") throw new AppError("ERR_CONTRACTS_DISABLED");
}

/** Who a contract's events reach: its ticket's routing (null: admins only). */
async function routingOf(db: DbOrTx, ticketId: number | null) {
  if (ticketId === null) return null;
  const [t] = await db.select({ queueId: tickets.queueId, userId: tickets.userId }).from(tickets).where(eq(tickets.id, ticketId));
  return t ?? null;
}

export async function publish(ctx: AppContext, row: ContractRow) {
  ctx.events.publish("contract.changed", { contract: itemOf(row), routing: await routingOf(ctx.db, row.ticketId) });
}

// ---------------------------------------------------------------- sending

export const WITNESS_KEYS = ["contrato_nome1", "contrato_cpf1", "contrato_nome2", "contrato_cpf2"] as const;

export const witnessesOf = witnessesFromSettings;

/** The provider's identity (the PDF's header and CONTRATADA, `{empresa}`, `{cnpj_empresa}`, `{endereco_empresa}`). */
export const COMPANY_KEYS = ["empresa_nome", "empresa_cnpj", "empresa_endereco"] as const;

export const companyOf = companyFromSettings;

/** The values a stored contract's variables take (its date: the day it was created, in the product's time zone). */
export function valuesOf(
  c: ContractRow,
  s: Record<(typeof WITNESS_KEYS)[number] | (typeof COMPANY_KEYS)[number] | "timezone", string>,
  extra: { titulo?: string; link?: string } = {},
): ContractValues {
  let campos: Record<string, string> = {};
  try {
    campos = JSON.parse(c.campos ?? "{}");
  } catch {
    // an unreadable row keeps its blanks
  }
  return {
    nome: c.nome,
    cpf: c.cpf,
    email: c.email,
    telefone: c.telefone,
    campos,
    witnesses: witnessesOf(s),
    empresa: companyOf(s),
    data: contractDate(new Date(c.createdAt), s.timezone || "America/Sao_Paulo"),
    ...extra,
  };
}

/**
 * POST /api/contratos: the ticket's owner (open ticket), a supervisor or an admin who sees it.
 * Stores the contract 'Nao assinado' and queues its generation (PDF, link, message) in the same
 * transaction.
 */
export async function createContract(
  deps: ContractDeps,
  user: SessionUser,
  input: ContractCreateBody,
  linkBase: string,
): Promise<ContractItem> {
  const { ctx } = deps.conv;
  const body = contractCreateBody.parse(input);
  await requireEnabled(ctx.db);
  const ticket = await loadTicket(ctx.db, body.ticketId);
  if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  if (user.profile === "user" && ticket.userId !== user.id) throw new AppError("ERR_NO_PERMISSION");
  if (ticket.status !== "open" && user.profile === "user") throw new AppError("ERR_TICKET_NOT_OPEN");
  if (ticket.isGroup) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  if (ticket.whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
  const template = body.modeloId
    ? await getTemplate(ctx.db, body.modeloId)
    : ((await listTemplates(ctx.db)).find((t) => t.padrao) ?? (await listTemplates(ctx.db))[0]);
  if (!template) throw new AppError("ERR_NO_TEMPLATE_FOUND");
  const [tpl] = await ctx.db
    .select({ version: contractTemplates.version })
    .from(contractTemplates)
    .where(eq(contractTemplates.id, template.id));
  const settings = await getSettingValues(ctx.db, [...WITNESS_KEYS, ...COMPANY_KEYS, "timezone"]);
  const timeZone = settings.timezone || "America/Sao_Paulo";
  const now = new Date(deps.clock.now());
  const telefone = ticket.contact.number ?? ticket.contact.lid ?? "";
  const campos = Object.fromEntries(Object.entries(body.campos ?? {}).map(([k, v]) => [k.trim(), v.trim()]));
  const texto = fillContract(template.corpo, {
    nome: body.nome,
    cpf: body.cpf,
    email: body.email ?? "",
    telefone,
    campos,
    witnesses: witnessesOf(settings),
    empresa: companyOf(settings),
    data: contractDate(now, timeZone),
  });
  const row = await ctx.db.transaction(async (tx) => {
    const [r] = await tx
      .insert(contracts)
      .values({
        ticketId: ticket.id,
        userId: user.id,
        atendente: user.name,
        templateId: template.id,
        templateVersion: tpl?.version ?? 1,
        titulo: body.titulo?.trim() || template.titulo,
        texto,
        nome: body.nome,
        email: body.email ?? "",
        cpf: cpfDigits(body.cpf),
        linkBase,
        campos: JSON.stringify(campos),
        telefone,
      })
      .returning();
    await enqueueJob(
      tx,
      GENERATE_JOB,
      { contractId: r.id },
      {
        singletonKey: `${GENERATE_JOB}:${r.id}`,
        maxAttempts: 8,
        runAt: new Date(deps.clock.now()),
      },
    );
    await recordAudit(tx, {
      actor: user,
      action: "contract.send",
      target: `contract:${r.id}`,
      contactId: ticket.contactId,
      after: { ticketId: ticket.id, titulo: r.titulo, templateId: template.id },
    });
    return r;
  });
  deps.wakeRunner();
  await publish(ctx, row);
  return itemOf(row);
}

/** A setting holding a URL of a file in the media store ("/media/<key>" or absolute): its bytes. */
/** An e-mail image setting's file: an upload of the settings screen (/branding/<name>); outside addresses are not fetched. */
async function imageOfSetting(deps: ContractDeps, value: string): Promise<Buffer | undefined> {
  const m = /\/branding\/([a-f0-9]{32}\.[a-z]{2,4})(?:[?#].*)?$/.exec(value.trim());
  if (!m) return undefined;
  return deps.branding.read(m[1]);
}

const DEFAULT_SEND_MESSAGE =
  "Olá, {nome}! Segue o seu contrato ({titulo}) para assinatura eletrônica: {link}\nO link é pessoal e vale por 7 dias.";
const DEFAULT_CONFIRMATION = "Contrato assinado com sucesso, {nome}! Obrigado. A sua cópia assinada: {link}";

/** The message with the link: `{link}` (or `{url}`) where the template says, otherwise at the end. */
export function sendMessageText(template: string, v: ContractValues & { link: string }): string {
  const t = template.trim() || DEFAULT_SEND_MESSAGE;
  const filled = fillContract(t, v);
  return /\{(link|url)\}/i.test(t) ? filled : `${filled}\n${v.link}`;
}

/** The confirmation after signing; `{link}` is the signing link, where the signed copy stays available while it lives. */
export function confirmationText(template: string, v: ContractValues & { link: string }): string {
  return fillContract(template.trim() || DEFAULT_CONFIRMATION, v);
}

export function newSigningToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: sha256(token) };
}

/**
 * The generate job: the PDF (logo, background, watermark, the provider's header, witnesses), then in one transaction the
 * file on the row, a signing link (only its hash stored) and the message with it in the outbox.
 * A retried run finds the row done and does nothing; a run that crashed after writing its file
 * leaves that file unreferenced (the next run writes its own).
 */
export async function runGenerate(deps: ContractDeps, contractId: number): Promise<void> {
  const { ctx } = deps.conv;
  const [c] = await ctx.db.select().from(contracts).where(eq(contracts.id, contractId));
  if (!c || c.sentMessageId !== null || c.sentAt !== null) return;
  if (c.ticketId === null) throw new Error("the contract's ticket was deleted");
  const s = await getSettingValues(ctx.db, [
    ...WITNESS_KEYS,
    ...COMPANY_KEYS,
    "timezone",
    "mail_logo",
    "mail_fundo_contrato",
    "mail_marca_agua",
    "msgEnvioContrato",
  ]);
  const images: PdfImages = {
    logo: await imageOfSetting(deps, s.mail_logo),
    fundo: await imageOfSetting(deps, s.mail_fundo_contrato),
    marcaAgua: await imageOfSetting(deps, s.mail_marca_agua),
  };
  // pdf-lib (about 30 MiB) is loaded with the first contract, not at boot
  const { buildContractPdf } = await import("./pdf.js");
  const pdf = await buildContractPdf({
    id: c.id,
    titulo: c.titulo,
    texto: c.texto,
    nome: c.nome,
    cpf: formatCpf(c.cpf),
    witnesses: witnessesOf(s),
    empresa: companyOf(s),
    images,
    createdAt: new Date(c.createdAt),
  });
  const key = await deps.files.put(pdf, "pdf");
  const ticket = await loadTicket(ctx.db, c.ticketId);
  const { token, hash } = newSigningToken();
  const link = `${c.linkBase.replace(/\/+$/, "")}/assinar/${token}`;
  const now = new Date(deps.clock.now());
  let queued: Queued | undefined;
  const row = await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(contracts).where(eq(contracts.id, contractId)).for("update");
    if (!cur || cur.sentAt !== null) return undefined;
    await tx
      .insert(contractTokens)
      .values({ tokenHash: hash, contractId, expiresAt: new Date(now.getTime() + SIGNING_LINK_DAYS * 86_400_000) });
    const body = sendMessageText(s.msgEnvioContrato, { ...valuesOf(cur, s), titulo: cur.titulo, link });
    const q = await enqueueMessage(tx, {
      ticket: { id: ticket.id, whatsappId: ticket.whatsappId, contact: ticket.contact },
      source: "bot",
      userId: cur.userId,
      body,
      content: { kind: "text", body },
    });
    queued = { id: q.id, whatsappId: q.whatsappId };
    await tx.insert(contractEvidence).values({
      contractId,
      event: "sent",
      at: now,
      data: JSON.stringify({ fileSha256: sha256(pdf), telefone: cur.telefone, messageId: q.id, agent: cur.atendente }),
    });
    const [r] = await tx
      .update(contracts)
      .set({ fileKey: key, fileSha256: sha256(pdf), sentMessageId: q.id, sentAt: now, updatedAt: sql`now()` })
      .where(eq(contracts.id, contractId))
      .returning();
    return r;
  });
  if (!row) {
    await deps.files.remove(key);
    return;
  }
  if (queued) await deps.conv.outbox.committed([queued]);
  await publish(ctx, row);
}

// ---------------------------------------------------------------- lists, files, delete

export async function listContracts(ctx: AppContext, user: SessionUser, input: ContractsQuery) {
  const q = contractsQuery.parse(input);
  const timeZone = await timeZoneOf(ctx.db);
  const when = sql`coalesce(${contracts.sentAt}, ${contracts.createdAt})`;
  const conds: (SQL | undefined)[] = [];
  if (q.ticket) conds.push(eq(contracts.ticketId, q.ticket));
  if (q.status) conds.push(eq(contracts.status, q.status));
  if (q.from) {
    const d = parseLocalDateTime(q.from, timeZone);
    if (!d) throw new AppError("ERR_VALIDATION", 400, { from: ["Invalid date"] });
    conds.push(gte(when, d));
  }
  if (q.to) {
    const d = parseLocalDateTime(q.to, timeZone);
    if (!d) throw new AppError("ERR_VALIDATION", 400, { to: ["Invalid date"] });
    conds.push(lt(when, addLocalDays(d, 1, timeZone)));
  }
  const scope = visibleTo(user);
  if (scope) conds.push(sql`${contracts.ticketId} is not null`, scope);
  const where = and(...conds);
  const base = ctx.db.select({ c: contracts }).from(contracts).leftJoin(tickets, eq(tickets.id, contracts.ticketId));
  const [rows, [{ n }]] = await Promise.all([
    base
      .where(where)
      .orderBy(desc(contracts.createdAt), desc(contracts.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    ctx.db.select({ n: count() }).from(contracts).leftJoin(tickets, eq(tickets.id, contracts.ticketId)).where(where),
  ]);
  return { items: rows.map((r) => itemOf(r.c)), total: Number(n) };
}

/** A contract the user may see (admins all; others those of tickets they see). */
async function contractFor(ctx: AppContext, user: SessionUser, id: number): Promise<ContractRow> {
  const [c] = await ctx.db.select().from(contracts).where(eq(contracts.id, id));
  if (!c) throw new AppError("ERR_NO_CONTRACT_FOUND");
  if (user.profile === "admin") return c;
  const routing = await routingOf(ctx.db, c.ticketId);
  if (!routing || !canSee(user, routing)) throw new AppError("ERR_NO_PERMISSION");
  return c;
}

export async function getContract(ctx: AppContext, user: SessionUser, id: number): Promise<ContractItem> {
  return itemOf(await contractFor(ctx, user, id));
}

/** The file a signed-in user reads: the signed one once signed (or the original when asked). */
export async function contractFile(deps: ContractDeps, user: SessionUser, id: number, original = false) {
  const c = await contractFor(deps.conv.ctx, user, id);
  const key = !original && c.signedKey ? c.signedKey : c.fileKey;
  const data = key ? await deps.files.read(key) : undefined;
  if (!data) throw new AppError("ERR_NOT_FOUND");
  return { data, name: `contrato-${c.id}${key === c.signedKey ? "-assinado" : ""}.pdf` };
}

/** DELETE /api/contratos/{id}: admins, or a supervisor or agent who sees its ticket; the files go too. */
export async function deleteContract(deps: ContractDeps, user: SessionUser, id: number): Promise<void> {
  const { ctx } = deps.conv;
  const c = await contractFor(ctx, user, id);
  const routing = await routingOf(ctx.db, c.ticketId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(contracts).where(eq(contracts.id, id));
    await recordAudit(tx, {
      actor: user,
      action: "contract.delete",
      target: `contract:${id}`,
      before: { ticketId: c.ticketId, titulo: c.titulo, status: c.status },
    });
  });
  await deps.files.remove(c.fileKey);
  await deps.files.remove(c.signedKey);
  ctx.events.publish("contract.deleted", { id, routing });
}

/** The evidence rows of a contract, oldest first (tests and the admins' audit). */
export async function evidenceOf(db: DbOrTx, contractId: number) {
  return db.select().from(contractEvidence).where(eq(contractEvidence.contractId, contractId)).orderBy(asc(contractEvidence.id));
}

/**
 * The mail job: the signed PDF to the customer's e-mail and the ERP address (mail_dominio_erp),
 * through the provider's SMTP server. A contract already mailed is skipped (a retried job sends
 * once, unless the process died between the server's answer and the commit of `mailed_at`).
 */
export async function runMail(deps: ContractDeps, contractId: number): Promise<void> {
  const { ctx } = deps.conv;
  const [c] = await ctx.db.select().from(contracts).where(eq(contracts.id, contractId));
  if (!c || c.mailedAt !== null || !c.signedKey) return;
  const s = await getSettingValues(ctx.db, [...MAIL_SETTING_KEYS, "mail_dominio_erp"]);
  const to = [c.email.trim(), erpAddress(s.mail_dominio_erp)].filter((a): a is string => !!a);
  if (!to.length || !mailConfigured(s)) {
    ctx.log.info({ contractId }, "signed contract not e-mailed: no address or no SMTP server set");
    return;
  }
  const data = await deps.files.read(c.signedKey);
  if (!data) throw new Error("the signed file is missing");
  await sendMail(s, {
    to,
    subject: `Contrato assinado: ${c.titulo}`,
    text: `Olá, ${c.nome}.\n\nSegue em anexo o contrato "${c.titulo}" assinado eletronicamente.\nSHA-256 do arquivo: ${c.signedSha256}\n`,
    attachments: [{ filename: `contrato-${c.id}-assinado.pdf`, content: data, contentType: "application/pdf" }],
  });
  await ctx.db
    .update(contracts)
    .set({ mailedAt: new Date(deps.clock.now()) })
    .where(eq(contracts.id, contractId));
}
