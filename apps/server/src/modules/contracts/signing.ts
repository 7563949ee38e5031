import { formatCpf, SIGNING_CPF_TRIES } from "@balcao/contract";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { contractEvidence, contracts, contractTokens } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { MAIL_SETTING_KEYS, mailConfigured } from "../../lib/mail.js";
import { enqueueJob } from "../../jobs/runner.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import type { Queued } from "../outbox/deps.js";
import { getSettingValues } from "../settings/service.js";
import { loadTicket } from "../tickets/queries.js";
import {
  COMPANY_KEYS,
  type ContractDeps,
  type ContractRow,
  confirmationText,
  iso,
  MAIL_JOB,
  publish,
  sha256,
  WITNESS_KEYS,
  valuesOf,
  witnessesOf,
} from "./service.js";

/**
 * The public signing, by the link's token (the only credential): the page's document, the CPF
 * check and its lock, and the acceptance that writes the signed PDF and its evidence.
 */

export interface SigningMeta {
  ip: string;
  userAgent: string;
}

/**
 * The link's row and its contract, or ERR_SIGNING_LINK_INVALID (unknown, expired, used) /
 * ERR_SIGNING_LOCKED. With `signed`, a used link of a signed contract still answers (until it
 * expires): the customer reads the signed copy there.
 */
async function linkOf(deps: ContractDeps, token: string, opts: { db?: DbOrTx; lock?: boolean; signed?: boolean } = {}) {
  const db = opts.db ?? deps.conv.ctx.db;
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new AppError("ERR_SIGNING_LINK_INVALID");
  const q = db
    .select()
    .from(contractTokens)
    .where(eq(contractTokens.tokenHash, sha256(token)));
  const [t] = opts.lock ? await q.for("update") : await q;
  if (!t || t.expiresAt.getTime() <= deps.clock.now()) throw new AppError("ERR_SIGNING_LINK_INVALID");
  if (t.cpfTries >= SIGNING_CPF_TRIES) throw new AppError("ERR_SIGNING_LOCKED");
  const [c] = await db.select().from(contracts).where(eq(contracts.id, t.contractId));
  if (!c?.fileKey) throw new AppError("ERR_SIGNING_LINK_INVALID");
  const signed = t.usedAt !== null || c.status === "Assinado";
  if (signed && !(opts.signed && c.signedKey)) throw new AppError("ERR_SIGNING_LINK_INVALID");
  return { t, c, signed };
}

/**
 * What the signing page shows before the CPF check (the title and the customer's name; the
 * document and its text only after it); the first view is recorded as evidence.
 */
export async function openSigning(deps: ContractDeps, token: string, meta: SigningMeta) {
  const { ctx } = deps.conv;
  const { t, c, signed } = await linkOf(deps, token, { signed: true });
  if (!t.firstViewAt && !signed) {
    const now = new Date(deps.clock.now());
    await ctx.db.transaction(async (tx) => {
      const { rows } = await tx.execute(
        sql`update contract_tokens set first_view_at = ${now.toISOString()}::timestamptz where token_hash = ${t.tokenHash} and first_view_at is null returning token_hash`,
      );
      if (rows.length)
        await tx.insert(contractEvidence).values({ contractId: c.id, event: "view", at: now, ip: meta.ip, userAgent: meta.userAgent });
    });
  }
  const s = await getSettingValues(ctx.db, [...MAIL_SETTING_KEYS, "timezone"]);
  return {
    titulo: c.titulo,
    nome: c.nome,
    fileSha256: c.fileSha256 ?? "",
    triesLeft: SIGNING_CPF_TRIES - t.cpfTries,
    signed,
    signedAt: signed && c.signedAt ? signedOn(c.signedAt, s.timezone || "America/Sao_Paulo") : "",
    // the mail job sends the copy only to a customer with an address, through a configured server
    mailCopy: c.email.trim() !== "" && mailConfigured(s),
  };
}

const signedOn = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat("pt-BR", { timeZone, dateStyle: "short", timeStyle: "short" }).format(d);

/** The tries left, as the page shows them. */
export const triesText = (n: number) => `${n} tentativa(s) restante(s)`;

/**
 * The first five CPF digits: a wrong answer counts (in its own commit), the fifth locks the link.
 * Answers the tries left and the contract's text (shown only after the check).
 */
export async function checkCpf(
  deps: ContractDeps,
  token: string,
  cpf5: string,
  meta: SigningMeta,
  opts: { signed?: boolean } = {},
): Promise<{ restantes: number; texto: string; signed: boolean; c: ContractRow }> {
  const { ctx } = deps.conv;
  const { t, c, signed } = await linkOf(deps, token, opts);
  const now = new Date(deps.clock.now());
  if (c.cpf.slice(0, 5) === cpf5) return { restantes: SIGNING_CPF_TRIES - t.cpfTries, texto: c.texto, signed, c };
  const tries = await ctx.db.transaction(async (tx) => {
    const [u] = await tx
      .update(contractTokens)
      .set({ cpfTries: sql`${contractTokens.cpfTries} + 1` })
      .where(eq(contractTokens.tokenHash, t.tokenHash))
      .returning({ tries: contractTokens.cpfTries });
    await tx.insert(contractEvidence).values({ contractId: c.id, event: "cpf_wrong", at: now, ip: meta.ip, userAgent: meta.userAgent });
    return u.tries;
  });
  if (tries >= SIGNING_CPF_TRIES) throw new AppError("ERR_SIGNING_LOCKED");
  throw new AppError("ERR_SIGNING_CPF_MISMATCH", 400, { cpf5: [triesText(SIGNING_CPF_TRIES - tries)] });
}

/**
 * The PDF behind the CPF check: the document to sign, or the signed copy once signed (while the
 * link lives). A wrong CPF counts as on the check.
 */
export async function signingDocument(
  deps: ContractDeps,
  token: string,
  cpf5: string,
  meta: SigningMeta,
): Promise<{ data: Buffer; signed: boolean }> {
  const { c, signed } = await checkCpf(deps, token, cpf5, meta, { signed: true });
  const key = signed ? c.signedKey : c.fileKey;
  const data = key ? await deps.files.read(key) : undefined;
  if (!data) throw new AppError("ERR_NOT_FOUND");
  return { data, signed };
}

/** The link as the customer's page sees it (for the old GET of the PDF): valid, or the error that says why not. */
export async function signingState(deps: ContractDeps, token: string): Promise<void> {
  await linkOf(deps, token, { signed: true });
}

/** Names compared without case, accents and extra spaces. */
export function sameName(a: string, b: string): boolean {
  const n = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
  return n(a) === n(b);
}

/**
 * 'Li e aceito': CPF, name and the document's hash checked; the signed PDF (original + evidence
 * page) written; then in one transaction the link used, the evidence row, the contract
 * 'Assinado' with the signed file and its SHA-256, the confirmation in the outbox and the e-mail
 * job. A second acceptance of the same link finds it used.
 */
export async function acceptSigning(
  deps: ContractDeps,
  token: string,
  input: { cpf5: string; nome: string; documentoSha256: string },
  meta: SigningMeta,
): Promise<{ signedSha256: string }> {
  const { ctx } = deps.conv;
  await checkCpf(deps, token, input.cpf5, meta);
  const { t, c } = await linkOf(deps, token);
  if (!sameName(input.nome, c.nome)) throw new AppError("ERR_SIGNING_NAME_MISMATCH");
  const original = c.fileKey ? await deps.files.read(c.fileKey) : undefined;
  // the page showed this document, and the stored file is still the one generated
  if (!original || input.documentoSha256.toLowerCase() !== c.fileSha256 || sha256(original) !== c.fileSha256) {
    throw new AppError("ERR_SIGNING_DOCUMENT_CHANGED");
  }
  const s = await getSettingValues(ctx.db, [...WITNESS_KEYS, ...COMPANY_KEYS, "timezone", "msgConfirmacaoAssinatura"]);
  const signedAt = new Date(deps.clock.now());
  // pdf-lib is loaded with the first contract, not at boot
  const { appendEvidencePage } = await import("./pdf.js");
  const signed = await appendEvidencePage(original, {
    contractId: c.id,
    titulo: c.titulo,
    nome: c.nome,
    cpf: formatCpf(c.cpf),
    email: c.email,
    telefone: c.telefone,
    atendente: c.atendente,
    originalSha256: c.fileSha256 ?? "",
    templateVersion: c.templateVersion,
    sentAt: iso(c.sentAt) ?? "",
    firstViewAt: iso(t.firstViewAt) ?? "",
    signedAt,
    timeZone: s.timezone || "America/Sao_Paulo",
    ip: meta.ip,
    userAgent: meta.userAgent,
    nameTyped: input.nome,
    witnesses: witnessesOf(s),
  });
  const signedSha256 = sha256(signed);
  const key = await deps.files.put(signed, "pdf");
  let queued: Queued | undefined;
  let row: ContractRow | undefined;
  try {
    row = await ctx.db.transaction(async (tx) => {
      await linkOf(deps, token, { db: tx, lock: true });
      await tx.update(contractTokens).set({ usedAt: signedAt }).where(eq(contractTokens.tokenHash, t.tokenHash));
      await tx.insert(contractEvidence).values({
        contractId: c.id,
        event: "signed",
        at: signedAt,
        ip: meta.ip,
        userAgent: meta.userAgent,
        data: JSON.stringify({
          originalSha256: c.fileSha256,
          documentoSha256: input.documentoSha256.toLowerCase(),
          signedSha256,
          cpfCheck: "5 primeiros dígitos conferidos",
          nameTyped: input.nome,
          telefone: c.telefone,
          templateVersion: c.templateVersion,
        }),
      });
      const [r] = await tx
        .update(contracts)
        .set({ status: "Assinado", signedKey: key, signedSha256, signedAt, updatedAt: sql`now()` })
        .where(eq(contracts.id, c.id))
        .returning();
      if (c.ticketId !== null) {
        const ticket = await loadTicket(tx, c.ticketId).catch(() => undefined);
        if (ticket && ticket.whatsappId !== null) {
          const link = `${c.linkBase.replace(/\/+$/, "")}/assinar/${token}`;
          const body = confirmationText(s.msgConfirmacaoAssinatura, { ...valuesOf(c, s), titulo: c.titulo, link });
          const q = await enqueueMessage(tx, {
            ticket: { id: ticket.id, whatsappId: ticket.whatsappId, contact: ticket.contact },
            source: "bot",
            userId: null,
            body,
            content: { kind: "text", body },
          });
          queued = { id: q.id, whatsappId: q.whatsappId };
        }
      }
      await enqueueJob(
        tx,
        MAIL_JOB,
        { contractId: c.id },
        {
          singletonKey: `${MAIL_JOB}:${c.id}`,
          maxAttempts: 6,
          runAt: signedAt,
        },
      );
      return r;
    });
  } catch (err) {
    await deps.files.remove(key);
    throw err;
  }
  deps.wakeRunner();
  if (queued) await deps.conv.outbox.committed([queued]);
  if (row) await publish(ctx, row);
  return { signedSha256 };
}
