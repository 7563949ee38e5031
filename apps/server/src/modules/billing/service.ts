import { recordAudit } from "../audit/service.js";
import type { BillingContract, BillingCustomerAnswer, BillingTestAnswer, Ticket, UnlockResult } from "@balcao/contract";
import { documentKind, normalizeDocument } from "@balcao/contract";
import { desc, eq } from "drizzle-orm";
import type { SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { billingActions, billingLinks, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import type { StoredMedia } from "../../lib/media.js";
import type { MediaStore } from "../../lib/media.js";
import type { ConvDeps, Queued } from "../outbox/deps.js";
import { enqueueMessage, type OutgoingMessage } from "../outbox/enqueue.js";
import { claimKey, saveResult } from "../outbox/idempotency.js";
import { canSee, loadTicket, ticketFor } from "../tickets/queries.js";
import { fill, invoiceReplies, pixSettings, type Reply } from "./compose.js";
import { BillingError } from "./http.js";
import { type Billing, type BillingRegistry, type BillingSettings, toAppError } from "./registry.js";
import { samePhone, selfServiceTexts } from "./self-service.js";
import { digits } from "./types.js";

/**
 * The agent's customer panel: the ticket's customer in the billing system (the contract linked to
 * the ticket, else a CPF/CNPJ the agent typed, else the contact's phone), its open invoices and
 * connection; sending a 2ª via or a PIX into the conversation (through the outbox); a confirmed
 * trust unlock, recorded in billing_actions with the system's answer. A billing system that is
 * down answers ERR_BILLING_UNAVAILABLE at once (circuit breaker) and never touches the inbox.
 */

export interface BillingDeps {
  conv: ConvDeps;
  registry: BillingRegistry;
}

async function guarded<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw toAppError(err);
  }
}

/** Who may act in a ticket's conversation: as for sending a message (open, its owner, or a supervisor/admin). */
function assertCanWrite(user: SessionUser, ticket: Ticket) {
  if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
  const privileged = user.profile === "admin" || user.profile === "superv";
  if (!privileged && ticket.userId !== user.id) throw new AppError("ERR_NO_PERMISSION");
}

/** Links a ticket to the customer's contract (the self-service hand-over, or the agent's lookup). */
export async function linkTicket(
  db: DbOrTx,
  link: { ticketId: number; contactId: number; system: string; document: string; contractId: string; city?: string; pop?: string },
): Promise<void> {
  const where = { city: link.city ?? "", pop: link.pop ?? "" };
  await db
    .insert(billingLinks)
    .values({ ...link, ...where })
    .onConflictDoUpdate({
      target: billingLinks.ticketId,
      set: { system: link.system, document: link.document, contractId: link.contractId, ...where, createdAt: new Date() },
    });
}

/** The ticket's link, else the newest of the same contact (the customer identified before). */
async function linkOf(db: DbOrTx, ticket: Ticket, system: string) {
  const [own] = await db.select().from(billingLinks).where(eq(billingLinks.ticketId, ticket.id));
  if (own && own.system === system) return own;
  const [prev] = await db
    .select()
    .from(billingLinks)
    .where(eq(billingLinks.contactId, ticket.contactId))
    .orderBy(desc(billingLinks.createdAt))
    .limit(1);
  return prev && prev.system === system ? prev : undefined;
}

async function contractsOf(
  db: DbOrTx,
  billing: Billing,
  ticket: Ticket,
  document?: string,
): Promise<{ via: BillingCustomerAnswer["via"]; contracts: BillingContract[]; linked?: string }> {
  if (document) {
    const doc = normalizeDocument(document);
    if (!documentKind(doc)) throw new AppError("ERR_INVALID_DOCUMENT");
    const contracts = await billing.findByDocument(doc);
    return { via: "document", contracts };
  }
  const link = await linkOf(db, ticket, billing.name);
  if (link) return { via: "linked", contracts: await billing.findByDocument(link.document), linked: link.contractId };
  const phone = digits(ticket.contact.number);
  if (phone && !ticket.isGroup) {
    // the system's phone search may be loose: keep only contracts that list this very number
    const contracts = (await billing.findByPhone(phone)).filter((c) => c.phones.some((p) => samePhone(p, phone)));
    if (contracts.length) return { via: "phone", contracts };
  }
  return { via: "none", contracts: [] };
}

/** GET /billing/:ticketId/customer */
export async function customerPanel(
  deps: BillingDeps,
  user: SessionUser,
  q: { ticketId: number; document?: string; contractId?: string },
): Promise<BillingCustomerAnswer> {
  const db = deps.conv.ctx.db;
  const ticket = await ticketFor(db, user, q.ticketId);
  const billing = await deps.registry.get(db);
  const found = await guarded(contractsOf(db, billing, ticket, q.document));
  const contract = found.contracts.find((c) => c.id === (q.contractId ?? found.linked)) ?? found.contracts[0] ?? null;
  if (contract && found.via === "document") {
    // the agent identified the customer: the ticket remembers it
    await linkTicket(db, {
      ticketId: ticket.id,
      contactId: ticket.contactId,
      system: billing.name,
      document: contract.document,
      contractId: contract.id,
      city: contract.city,
      pop: contract.pop,
    });
  }
  const [invoices, connection] = contract
    ? await Promise.all([guarded(billing.openInvoices(contract)), billing.connection(contract).catch(() => null)])
    : [[], null];
  return {
    system: billing.name,
    via: found.via,
    contracts: found.contracts,
    contract,
    invoices,
    connection,
    actions: await actionsOf(db, ticket.id),
  };
}

/** The ticket's record of billing actions, newest first. */
async function actionsOf(db: DbOrTx, ticketId: number): Promise<BillingCustomerAnswer["actions"]> {
  const rows = await db
    .select({
      action: billingActions.action,
      contractId: billingActions.contractId,
      ok: billingActions.ok,
      message: billingActions.message,
      protocol: billingActions.protocol,
      userName: users.name,
      createdAt: billingActions.createdAt,
    })
    .from(billingActions)
    .leftJoin(users, eq(users.id, billingActions.userId))
    .where(eq(billingActions.ticketId, ticketId))
    .orderBy(desc(billingActions.createdAt), desc(billingActions.id))
    .limit(20);
  return rows.map((r) => ({ ...r, userName: r.userName ?? null, createdAt: r.createdAt.toISOString() }));
}

/** A contract of the ticket's customer (linked, or by phone); an agent cannot act on anyone else's from a ticket. */
async function contractOfTicket(deps: BillingDeps, billing: Billing, ticket: Ticket, contractId: string): Promise<BillingContract> {
  const db = deps.conv.ctx.db;
  const found = await guarded(contractsOf(db, billing, ticket));
  const contract = found.contracts.find((c) => c.id === contractId);
  if (!contract) throw new AppError("ERR_BILLING_CUSTOMER_NOT_FOUND");
  return contract;
}

/** Media of the replies stored first (files), then the messages queued in the caller's transaction. */
export async function storeReplyMedia(media: MediaStore, replies: Reply[]): Promise<(StoredMedia | null)[]> {
  const out: (StoredMedia | null)[] = [];
  for (const r of replies) out.push(r.kind === "image" ? await media.storeUpload(r.png) : null);
  return out;
}

export async function enqueueReplies(
  tx: DbOrTx,
  ticket: OutgoingMessage["ticket"],
  replies: Reply[],
  stored: (StoredMedia | null)[],
  from: { source: "agent" | "bot"; userId: number | null },
): Promise<Queued[]> {
  const queued: Queued[] = [];
  for (const [i, r] of replies.entries()) {
    const media = stored[i];
    if (r.kind === "text") {
      queued.push(await enqueueMessage(tx, { ticket, ...from, body: r.body, content: { kind: "text", body: r.body } }));
    } else if (media) {
      queued.push(
        await enqueueMessage(tx, {
          ticket,
          ...from,
          body: r.caption,
          content: { kind: "media", mediaType: "image", mediaKey: media.key, mimetype: media.mimetype, caption: r.caption || undefined },
          media,
          fileName: "pix.png",
        }),
      );
    }
  }
  return queued;
}

/** Queues replies in a transaction of their own and wakes the senders after the commit. */
export async function sendReplies(
  conv: ConvDeps,
  ticket: Ticket,
  replies: Reply[],
  from: { source: "agent" | "bot"; userId: number | null },
  idempotency?: { scope: string; key: string },
): Promise<number[]> {
  const stored = await storeReplyMedia(conv.media, replies);
  const outcome = await conv.ctx.db.transaction(async (tx) => {
    if (idempotency) {
      const claim = await claimKey<{ messageIds: number[] }>(tx, idempotency.scope, idempotency.key);
      if (!claim.fresh) return { replay: claim.result.messageIds };
    }
    const queued = await enqueueReplies(tx, ticket, replies, stored, from);
    if (idempotency) await saveResult(tx, idempotency.scope, idempotency.key, { messageIds: queued.map((q) => q.id) });
    return { queued };
  });
  if ("replay" in outcome) {
    // the first request's messages went; what this one stored is not kept
    for (const m of stored) if (m) await conv.media.remove(m.key);
    return outcome.replay ?? [];
  }
  await conv.outbox.committed(outcome.queued);
  return outcome.queued.map((q) => q.id);
}

/** POST /billing/:ticketId/send-invoice and /send-pix */
export async function sendInvoice(
  deps: BillingDeps,
  user: SessionUser,
  ticketId: number,
  body: { contractId: string; invoiceId: string },
  mode: "invoice" | "pix",
  idempotencyKey?: string,
): Promise<{ messageIds: number[] }> {
  const { conv } = deps;
  const ticket = await loadTicket(conv.ctx.db, ticketId);
  assertCanWrite(user, ticket);
  const billing = await deps.registry.get(conv.ctx.db);
  const contract = await contractOfTicket(deps, billing, ticket, body.contractId);
  const invoices = await guarded(billing.openInvoices(contract));
  const invoice = invoices.find((i) => i.id === body.invoiceId);
  if (!invoice) throw new AppError("ERR_NOT_FOUND");
  const [pix, texts] = await Promise.all([pixSettings(conv.ctx.db), selfServiceTexts(conv.ctx.db)]);
  const replies = await guarded(
    invoiceReplies(billing, pix, contract, invoice, texts.selfServiceInvoice, { bill: mode === "invoice", pix: true }),
  );
  if (mode === "pix" && !replies.length) throw new AppError("ERR_PIX_NOT_CONFIGURED");
  // with an Idempotency-Key, a click retried after a lost answer sends nothing twice
  const idempotency = idempotencyKey ? { scope: `billing:user:${user.id}`, key: `${mode}:${idempotencyKey}` } : undefined;
  return { messageIds: await sendReplies(conv, ticket, replies, { source: "agent", userId: user.id }, idempotency) };
}

/** POST /billing/:ticketId/unlock — confirmed by the agent; the answer is recorded and, when granted, told to the customer. */
export async function unlockFromPanel(
  deps: BillingDeps,
  user: SessionUser,
  ticketId: number,
  body: { contractId: string },
): Promise<UnlockResult & { messageIds: number[] }> {
  const { conv } = deps;
  const ticket = await loadTicket(conv.ctx.db, ticketId);
  assertCanWrite(user, ticket);
  const billing = await deps.registry.get(conv.ctx.db);
  const contract = await contractOfTicket(deps, billing, ticket, body.contractId);
  const result = await guarded(
    billing.unlock(contract, `Desbloqueio de confiança pelo atendente ${user.name} (Balcão, ticket ${ticket.id})`),
  );
  const texts = await selfServiceTexts(conv.ctx.db);
  const replies: Reply[] = result.unlocked
    ? [{ kind: "text", body: fill(texts.selfServiceUnlockDone, { days: result.days ?? "?", message: result.message }) }]
    : [];
  const queued = await conv.ctx.db.transaction(async (tx) => {
    await recordAction(tx, {
      ticketId: ticket.id,
      userId: user.id,
      system: billing.name,
      contractId: contract.id,
      action: "unlock",
      result,
    });
    await recordAudit(tx, {
      actor: user,
      action: "billing.unlock",
      target: `ticket:${ticket.id}`,
      contactId: ticket.contactId,
      after: { system: billing.name, contractId: contract.id, unlocked: result.unlocked },
    });
    return enqueueReplies(tx, ticket, replies, [], { source: "agent", userId: user.id });
  });
  await conv.outbox.committed(queued);
  return { ...result, messageIds: queued.map((q) => q.id) };
}

/** The record of something done in the billing system (the self-service bot records its unlocks with this too). */
export async function recordAction(
  tx: DbOrTx,
  a: {
    ticketId: number | null;
    userId: number | null;
    system: string;
    contractId: string;
    action: "unlock" | "ticket";
    result: UnlockResult;
  },
) {
  await tx.insert(billingActions).values({
    ticketId: a.ticketId,
    userId: a.userId,
    system: a.system,
    contractId: a.contractId,
    action: a.action,
    ok: a.result.unlocked,
    message: a.result.message,
    protocol: a.result.protocol,
  });
}

/** The same address, written either way (case of the scheme and host, a trailing slash). */
export function sameAddress(a: string, b: string): boolean {
  const norm = (v: string) => {
    try {
      const u = new URL(v.trim());
      return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}${u.search}`;
    } catch {
      return v.trim().replace(/\/+$/, "");
    }
  };
  return norm(a) === norm(b);
}

/**
 * POST /billing/test — the settings' 'Testar conexão' with what the form holds (blank fields: the
 * saved values). The saved token goes only to the saved URL: a test of another URL needs the token
 * typed, else it answers so without sending anything.
 */
export async function testConnection(
  deps: BillingDeps,
  override: Partial<Omit<BillingSettings, "unlockDays">>,
): Promise<BillingTestAnswer> {
  const saved = await deps.registry.settings(deps.conv.ctx.db);
  const s: BillingSettings = {
    ...saved,
    ...(override.system && { system: override.system }),
    ...(override.url?.trim() && { url: override.url.trim() }),
    ...(override.app?.trim() && { app: override.app.trim() }),
    ...(override.token && { token: override.token }),
  };
  if (!override.token && saved.token && !sameAddress(s.url, saved.url))
    return {
      ok: false,
      system: s.system,
      detail: "Digite o token/Client_Secret para testar esta URL: o token salvo só é enviado para a URL salva. Nada foi enviado.",
      technical: "ERR_SECRET_NEEDS_RETYPE",
    };
  try {
    const billing = deps.registry.build(s, true);
    return { ok: true, system: s.system, detail: await billing.test() };
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_BILLING_NOT_CONFIGURED")
      return { ok: false, system: s.system, detail: "Preencha a URL (https://…), o app/Client_Id e o token/Client_Secret." };
    if (err instanceof BillingError) return { ok: false, system: s.system, detail: explain(err, s.url), technical: technicalOf(err) };
    throw err;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** What failed, for the person reading the settings screen: our code, the path, never a secret. */
function technicalOf(err: BillingError): string {
  return err.outgoing ? `${err.outgoing.code} · ${err.message.split(":")[0]}` : err.message;
}

/** What failed and what to check, in the product's words. */
function explain(err: BillingError, url: string): string {
  const host = hostOf(url);
  switch (err.outgoing?.code) {
    case "ERR_OUTGOING_PRIVATE_ADDRESS":
      return `${host} é um endereço da rede interna (privado, local ou de metadados da nuvem), que o Balcão não acessa por padrão. Se o sistema fica na rede do provedor, inclua o endereço na variável ALLOWED_PRIVATE_HOSTS do servidor.`;
    case "ERR_OUTGOING_DNS":
      return `O endereço ${host} não foi encontrado (DNS). Confira a URL.`;
    case "ERR_OUTGOING_TLS":
      return `A conexão segura (HTTPS) com ${host} falhou: certificado inválido, expirado ou de outro nome. O MK-AUTH exige HTTPS com certificado válido.`;
    case "ERR_OUTGOING_REDIRECT":
      return "O sistema respondeu com um redirecionamento que não foi seguido (para outro servidor, para a rede interna, ou redirecionamentos demais). Use a URL final do sistema.";
    case "ERR_OUTGOING_BAD_URL":
      return "URL inválida: use http(s)://endereço, sem usuário e senha na URL.";
    case "ERR_OUTGOING_TOO_LARGE":
      return "O sistema respondeu com mais dados do que uma resposta da API teria. A URL aponta para o sistema certo?";
  }
  switch (err.kind) {
    case "auth":
      return "Credenciais recusadas: confira o app/Client_Id e o token/Client_Secret (o app diferencia maiúsculas).";
    case "timeout":
      return "O sistema não respondeu a tempo. Ele está acessível a partir deste servidor (VPN, porta, IP privado)?";
    case "unreachable":
      return `Não foi possível conectar a ${host}. Confira a URL e a porta, e se este servidor alcança o sistema (firewall, VPN).`;
    case "circuit_open":
      return "O sistema falhou várias vezes seguidas; novas tentativas em alguns segundos.";
    case "bad_answer":
      return "Resposta inesperada: a URL aponta para o sistema certo?";
    case "not_found":
      return "O sistema não tem o endereço da API esperado: confira a URL (sem caminho extra) e o sistema escolhido.";
    default:
      return `O sistema respondeu com erro${err.status ? ` ${err.status}` : ""}. Confira a URL e o sistema escolhido.`;
  }
}
