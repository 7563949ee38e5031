import { type AllowList, NO_PRIVATE_HOSTS } from "../../lib/outgoing-http.js";
import { AI_TIMEOUT_MS, type ErrorCode } from "@balcao/contract";
import { AppError } from "../../lib/errors.js";
import { AiHttpError, type AiHttpAnswer, aiRequest } from "./http.js";
import type { ChatMessage } from "./prompt.js";

/**
 * The OpenAI-compatible API as this module uses it: chat completions, audio transcriptions and the
 * model list (the settings' test). Statuses become ERR_AI_* codes; a key goes only in the
 * Authorization header, never in an address or a log.
 */

export interface AiEndpoint {
  baseUrl: string;
  apiKey: string;
  /** ALLOWED_PRIVATE_HOSTS of the configuration (none when not given: internal addresses refused) */
  allow?: AllowList;
  /** default: 20 s for chat and the model list, 60 s for a transcription */
  timeoutMs?: number;
}

export class AiError extends AppError {
  constructor(
    code: ErrorCode,
    /** seconds the AI server asked to wait (its 429) */
    readonly retryAfterS?: number,
    /** whether trying again later may work (429, 5xx, timeout, network) */
    readonly transient = false,
    /** refused before anything left: an internal address ALLOWED_PRIVATE_HOSTS does not name, or a bad URL */
    readonly refused?: { code: string; host: string },
  ) {
    super(code);
  }
}

export const TRANSCRIPTION_TIMEOUT_MS = 60_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.trim().replace(/\/+$/, "")}${path}`;
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return "";
  }
}

function headers(ep: AiEndpoint, extra: Record<string, string> = {}): Record<string, string> {
  return { accept: "application/json", ...(ep.apiKey && { authorization: `Bearer ${ep.apiKey}` }), ...extra };
}

async function send(req: Parameters<typeof aiRequest>[0]): Promise<AiHttpAnswer> {
  try {
    return await aiRequest(req);
  } catch (err) {
    if (err instanceof AiHttpError) {
      if (err.kind === "timeout") throw new AiError("ERR_AI_TIMEOUT", undefined, true);
      if (err.kind === "too_large") throw new AiError("ERR_AI_BAD_ANSWER");
      // an internal address ALLOWED_PRIVATE_HOSTS does not name: trying again will not help
      if (err.kind === "refused") throw new AiError("ERR_AI_UNAVAILABLE", undefined, false, err.outgoing);
      throw new AiError("ERR_AI_UNAVAILABLE", undefined, true);
    }
    throw err;
  }
}

function retryAfterOf(answer: AiHttpAnswer): number | undefined {
  const v = answer.headers["retry-after"];
  if (!v) return undefined;
  const n = Number(v);
  if (Number.isFinite(n) && n >= 0) return Math.min(3600, Math.ceil(n));
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.min(3600, Math.ceil((at - Date.now()) / 1000)));
}

/** Throws the ERR_AI_* of a failed status. */
function checkStatus(answer: AiHttpAnswer): void {
  const s = answer.status;
  if (s >= 200 && s < 300) return;
  if (s === 401 || s === 403) throw new AiError("ERR_AI_UNAUTHORIZED");
  if (s === 429) {
    // "insufficient_quota" is billing, not a burst: waiting does not help
    const quota = /insufficient_quota|exceeded your current quota/i.test(answer.text);
    throw new AiError("ERR_AI_RATE_LIMITED", retryAfterOf(answer), !quota);
  }
  throw new AiError("ERR_AI_UNAVAILABLE", undefined, s >= 500 || s === 408);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AiError("ERR_AI_BAD_ANSWER");
  }
}

/** POST {baseUrl}/chat/completions: the first choice's text. */
export async function chatCompletion(ep: AiEndpoint, model: string, messages: ChatMessage[], maxTokens = 600): Promise<string> {
  const answer = await send({
    method: "POST",
    url: endpointUrl(ep.baseUrl, "/chat/completions"),
    headers: headers(ep, { "content-type": "application/json" }),
    body: JSON.stringify({ model, messages, temperature: 0.4, max_tokens: maxTokens, n: 1 }),
    allow: ep.allow ?? NO_PRIVATE_HOSTS,
    timeoutMs: ep.timeoutMs ?? AI_TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
  });
  checkStatus(answer);
  const body = parseJson(answer.text) as { choices?: { message?: { content?: unknown } }[] };
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== "string" || content.trim() === "") throw new AiError("ERR_AI_BAD_ANSWER");
  return content;
}

/** POST {baseUrl}/audio/transcriptions (multipart; language pt): the text. */
export async function transcribe(ep: AiEndpoint, model: string, audio: Buffer, fileName: string, mimetype: string): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(audio)], { type: mimetype }), fileName);
  form.set("model", model);
  form.set("language", "pt");
  form.set("response_format", "json");
  const answer = await send({
    method: "POST",
    url: endpointUrl(ep.baseUrl, "/audio/transcriptions"),
    headers: headers(ep),
    body: form,
    allow: ep.allow ?? NO_PRIVATE_HOSTS,
    timeoutMs: ep.timeoutMs ?? TRANSCRIPTION_TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
  });
  checkStatus(answer);
  const body = parseJson(answer.text) as { text?: unknown };
  if (typeof body?.text !== "string") throw new AiError("ERR_AI_BAD_ANSWER");
  return body.text.trim();
}

/** GET {baseUrl}/models: the model ids the server lists. */
export async function listModels(ep: AiEndpoint): Promise<string[]> {
  const answer = await send({
    method: "GET",
    url: endpointUrl(ep.baseUrl, "/models"),
    headers: headers(ep),
    allow: ep.allow ?? NO_PRIVATE_HOSTS,
    timeoutMs: ep.timeoutMs ?? AI_TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
  });
  checkStatus(answer);
  const body = parseJson(answer.text) as { data?: { id?: unknown }[] };
  if (!Array.isArray(body?.data)) throw new AiError("ERR_AI_BAD_ANSWER");
  return body.data.map((m) => m?.id).filter((id): id is string => typeof id === "string");
}
