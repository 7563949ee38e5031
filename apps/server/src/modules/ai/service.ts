import { AI_RATE_PER_MINUTE, type AiCallKind, type AiCallsAnswer, type AiTestAnswer, type ErrorCode, type Ticket } from "@balcao/contract";
import { and, count, desc, eq, ne, type SQL } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { aiCalls, messages, quickAnswers } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import type { SharedStore } from "../../lib/cluster/store.js";
import { RateLimiter } from "../../lib/rate-limiter.js";
import type { BillingRegistry } from "../billing/registry.js";
import { customerPanel } from "../billing/service.js";
import type { ConvDeps } from "../outbox/deps.js";
import { getSettingValues } from "../settings/service.js";
import { ticketFor } from "../tickets/queries.js";
import { AiError, type AiEndpoint, chatCompletion, hostOf, listModels } from "./client.js";
import { type ChatMessage, type PromptBilling, type PromptInput, parseSuggestions, suggestionPrompt, summaryPrompt } from "./prompt.js";
import { Redactor } from "./redact.js";

/**
 * AI assist for agents: reply suggestions and summaries of a ticket (who may read the ticket may
 * ask), the settings' test, and the record of every call (never its content). Off until an admin
 * turns it on: then nothing leaves and the routes answer 404 ERR_AI_DISABLED.
 */

export interface AiDeps {
  conv: ConvDeps;
  billing: BillingRegistry;
  /** per user: suggestion and summary requests a minute */
  limiter: RateLimiter;
  /** the AI server's timeout (default 20 s; tests shorten it) */
  timeoutMs?: number;
}

export function newAiLimiter(store: SharedStore): RateLimiter {
  return new RateLimiter(store, "ai-user", AI_RATE_PER_MINUTE, 60_000);
}

export interface AiSettings extends AiEndpoint {
  enabled: boolean;
  model: string;
  transcriptionModel: string;
  redact: boolean;
}

export async function aiSettings(db: DbOrTx): Promise<AiSettings> {
  const s = await getSettingValues(db, ["aiEnabled", "aiBaseUrl", "aiApiKey", "aiModel", "aiTranscriptionModel", "aiRedact"]);
  return {
    enabled: s.aiEnabled === "enabled",
    baseUrl: s.aiBaseUrl,
    apiKey: s.aiApiKey,
    model: s.aiModel.trim(),
    transcriptionModel: s.aiTranscriptionModel.trim(),
    redact: s.aiRedact !== "disabled",
  };
}

export interface CallRecord {
  kind: AiCallKind;
  user: Pick<SessionUser, "id" | "name"> | null;
  ticketId: number | null;
  messageId?: number | null;
  charsOut: number;
  latencyMs: number;
  status: "ok" | ErrorCode;
  host: string;
}

/** Records one AI call: who, which ticket, which kind, how much went out, how long, how it ended. */
export async function recordCall(ctx: AppContext, r: CallRecord): Promise<void> {
  await ctx.db
    .insert(aiCalls)
    .values({
      kind: r.kind,
      userId: r.user?.id ?? null,
      userName: r.user?.name ?? "",
      ticketId: r.ticketId,
      messageId: r.messageId ?? null,
      charsOut: r.charsOut,
      latencyMs: Math.max(0, Math.round(r.latencyMs)),
      status: r.status,
      host: r.host,
    })
    .catch((err) => ctx.log.error({ err }, "recording an AI call failed"));
}

/** Runs one call to the AI server and records it, whatever its outcome. */
export async function recorded<T>(ctx: AppContext, base: Omit<CallRecord, "latencyMs" | "status">, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const out = await call();
    await recordCall(ctx, { ...base, latencyMs: performance.now() - started, status: "ok" });
    return out;
  } catch (err) {
    const status = err instanceof AppError && err.code.startsWith("ERR_AI_") ? err.code : "ERR_AI_UNAVAILABLE";
    await recordCall(ctx, { ...base, latencyMs: performance.now() - started, status });
    throw err;
  }
}

/** The ticket (403 for who may not read it), then the AI settings (404 when off), then this user's limit (429). */
async function ready(deps: AiDeps, user: SessionUser, ticketId: number): Promise<{ ticket: Ticket; settings: AiSettings }> {
  const ticket = await ticketFor(deps.conv.ctx.db, user, ticketId);
  const settings = await aiSettings(deps.conv.ctx.db);
  if (!settings.enabled) throw new AiError("ERR_AI_DISABLED");
  if (deps.timeoutMs) settings.timeoutMs = deps.timeoutMs;
  settings.allow = deps.conv.ctx.config.allowedPrivateHosts;
  const key = String(user.id);
  const wait = await deps.limiter.take(key);
  if (wait > 0) throw new AiError("ERR_AI_RATE_LIMITED", wait);
  return { ticket, settings };
}

/** The ticket's latest messages, oldest first (the prompt bounds them by characters). */
async function recentMessages(db: DbOrTx, ticketId: number) {
  const rows = await db
    .select({
      fromMe: messages.fromMe,
      source: messages.source,
      body: messages.body,
      mediaType: messages.mediaType,
      transcription: messages.transcription,
      isDeleted: messages.isDeleted,
    })
    .from(messages)
    // internal notes never leave Balcão (the AI server is outside)
    .where(and(eq(messages.ticketId, ticketId), ne(messages.source, "note")))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(80);
  return rows.reverse();
}

/** What the agent's billing panel shows for this ticket's customer, when a billing system is configured and answers. */
async function billingOf(deps: AiDeps, user: SessionUser, ticket: Ticket): Promise<PromptBilling | null> {
  try {
    const panel = await customerPanel({ conv: deps.conv, registry: deps.billing }, user, { ticketId: ticket.id });
    if (!panel.contract) return null;
    return {
      customerName: panel.contract.customerName,
      statusLabel: panel.contract.statusLabel || panel.contract.status,
      plan: panel.contract.plan,
      invoices: panel.invoices.map((i) => ({ dueDate: i.dueDate, amount: i.amount, overdue: i.overdue })),
      connection: panel.connection ? panel.connection.message || panel.connection.state : null,
    };
  } catch {
    // not configured, or down: the suggestion goes without it
    return null;
  }
}

async function promptInput(
  deps: AiDeps,
  user: SessionUser,
  ticket: Ticket,
  language: PromptInput["language"],
  withQuickAnswers: boolean,
): Promise<PromptInput> {
  const db = deps.conv.ctx.db;
  const [msgs, qa, billing] = await Promise.all([
    recentMessages(db, ticket.id),
    withQuickAnswers ? db.select({ shortcut: quickAnswers.shortcut, message: quickAnswers.message }).from(quickAnswers).limit(1000) : [],
    billingOf(deps, user, ticket),
  ]);
  return {
    messages: msgs,
    queue: ticket.queue?.name ?? null,
    contactName: ticket.contact.name,
    agentName: user.name,
    quickAnswers: qa,
    billing,
    language,
  };
}

const charsOf = (prompt: ChatMessage[]) => prompt.reduce((n, m) => n + m.content.length, 0);

/** POST /tickets/:ticketId/ai/suggestions: three replies to edit (nothing is sent). */
export async function suggestions(
  deps: AiDeps,
  user: SessionUser,
  ticketId: number,
  language: PromptInput["language"] = "pt-BR",
): Promise<{ suggestions: string[] }> {
  const { ticket, settings } = await ready(deps, user, ticketId);
  const redactor = new Redactor(settings.redact);
  const prompt = suggestionPrompt(await promptInput(deps, user, ticket, language, true), redactor);
  const base = { kind: "suggestions" as const, user, ticketId: ticket.id, charsOut: charsOf(prompt), host: hostOf(settings.baseUrl) };
  return recorded(deps.conv.ctx, base, async () => {
    const list = parseSuggestions(await chatCompletion(settings, settings.model, prompt));
    if (!list) throw new AiError("ERR_AI_BAD_ANSWER");
    return { suggestions: list.map((s) => redactor.restore(s)) };
  });
}

/** POST /tickets/:ticketId/ai/summary: for a transfer or a supervisor. */
export async function summary(
  deps: AiDeps,
  user: SessionUser,
  ticketId: number,
  language: PromptInput["language"] = "pt-BR",
): Promise<{ summary: string }> {
  const { ticket, settings } = await ready(deps, user, ticketId);
  const redactor = new Redactor(settings.redact);
  const prompt = summaryPrompt(await promptInput(deps, user, ticket, language, false), redactor);
  const base = { kind: "summary" as const, user, ticketId: ticket.id, charsOut: charsOf(prompt), host: hostOf(settings.baseUrl) };
  return recorded(deps.conv.ctx, base, async () => {
    const text = (await chatCompletion(settings, settings.model, prompt, 800)).trim();
    return { summary: redactor.restore(text).slice(0, 4000) };
  });
}

const TEST_TEXTS: Partial<Record<ErrorCode, string>> = {
  ERR_AI_UNAUTHORIZED: "O servidor recusou a chave de API (401/403). Confira a chave.",
  ERR_AI_RATE_LIMITED: "O servidor respondeu 429: limite de uso ou cota esgotada na conta do provedor.",
  ERR_AI_TIMEOUT: "O servidor não respondeu em 20 segundos. Ele está acessível a partir deste servidor?",
  ERR_AI_UNAVAILABLE:
    "Não foi possível falar com o servidor (fora do ar, endereço errado ou sem /v1). Confira a URL base, por exemplo https://api.openai.com/v1 ou http://ollama:11434/v1.",
  ERR_AI_BAD_ANSWER: "O endereço respondeu, mas não como um servidor compatível com a OpenAI (GET /models).",
};

/** Refused before anything left (lib/outgoing-http.ts): what to change, as the billing and Typebot tests say it. */
function refusedText(refused: { code: string; host: string }, baseUrl: string): string {
  const host = hostOf(baseUrl) || refused.host;
  if (refused.code === "ERR_OUTGOING_PRIVATE_ADDRESS")
    return `${host} é um endereço da rede interna (privado, local ou de metadados da nuvem), que o Balcão não acessa por padrão. Nada foi enviado: o servidor de IA não foi contatado. Se ele fica na rede do provedor (Ollama, LocalAI…), inclua o endereço na variável ALLOWED_PRIVATE_HOSTS do servidor.`;
  return "URL inválida: use http(s)://endereço/v1, sem usuário e senha na URL.";
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && u.host !== "";
  } catch {
    return false;
  }
}

/**
 * 'Testar': GET {baseUrl}/models with the typed values. A blank key means the saved one, and the
 * saved key goes only to the saved address: another address needs its key typed.
 */
export async function testConnection(
  ctx: AppContext,
  timeoutMs: number | undefined,
  user: SessionUser,
  typed: { baseUrl?: string; apiKey?: string; model?: string; transcriptionModel?: string },
): Promise<AiTestAnswer> {
  const saved = await aiSettings(ctx.db);
  const baseUrl = typed.baseUrl?.trim() || saved.baseUrl;
  if (!isHttpUrl(baseUrl)) return { ok: false, detail: "Informe uma URL base como https://api.openai.com/v1.", models: [] };
  const sameAddress = baseUrl.replace(/\/+$/, "") === saved.baseUrl.trim().replace(/\/+$/, "");
  const apiKey = typed.apiKey?.trim() || (sameAddress ? saved.apiKey : "");
  const model = typed.model?.trim() ?? saved.model;
  const transcriptionModel = typed.transcriptionModel?.trim() ?? saved.transcriptionModel;
  try {
    const models = await recorded(ctx, { kind: "test", user, ticketId: null, charsOut: 0, host: hostOf(baseUrl) }, () =>
      listModels({ baseUrl, apiKey, timeoutMs, allow: ctx.config.allowedPrivateHosts }),
    );
    const missing = [model, transcriptionModel].filter((m) => m && models.length > 0 && !models.includes(m));
    const keyNote = !typed.apiKey?.trim() && !sameAddress && saved.apiKey ? " (a chave salva não foi enviada a este novo endereço)" : "";
    const detail = missing.length
      ? `Conectado, mas o servidor não lista: ${missing.join(", ")}. Confira o nome do modelo.${keyNote}`
      : `Conectado: ${models.length} modelo(s) disponível(is).${keyNote}`;
    return { ok: missing.length === 0, detail, models: models.slice(0, 200) };
  } catch (err) {
    if (err instanceof AiError && err.refused) return { ok: false, detail: refusedText(err.refused, baseUrl), models: [] };
    if (err instanceof AppError && TEST_TEXTS[err.code]) return { ok: false, detail: TEST_TEXTS[err.code] as string, models: [] };
    throw err;
  }
}

/** GET /ai/calls: the record of AI calls, newest first (admins). */
export async function listCalls(db: DbOrTx, q: { pageNumber: number; ticketId?: number }): Promise<AiCallsAnswer> {
  const limit = 50;
  const where: SQL | undefined = q.ticketId ? and(eq(aiCalls.ticketId, q.ticketId)) : undefined;
  const [rows, [{ n }]] = await Promise.all([
    db
      .select()
      .from(aiCalls)
      .where(where)
      .orderBy(desc(aiCalls.createdAt), desc(aiCalls.id))
      .limit(limit)
      .offset((q.pageNumber - 1) * limit),
    db.select({ n: count() }).from(aiCalls).where(where),
  ]);
  return {
    calls: rows.map((r) => ({
      id: r.id,
      kind: r.kind as AiCallKind,
      userId: r.userId,
      userName: r.userName,
      ticketId: r.ticketId,
      messageId: r.messageId,
      charsOut: r.charsOut,
      latencyMs: r.latencyMs,
      status: r.status,
      host: r.host,
      createdAt: r.createdAt.toISOString(),
    })),
    count: Number(n),
    hasMore: q.pageNumber * limit < Number(n),
  };
}
