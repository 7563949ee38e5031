/**
 * Typebot's public chat API (startChat, continueChat) and what its answers mean on WhatsApp:
 * rich text into WhatsApp markup, choice inputs as numbered lists, `#{…}` hand-over commands.
 * No database here: service.ts runs the turns. Shapes per ../shared/reference/typebot.md; unknown
 * bubble, input and action types are skipped, never fatal (the API is frozen upstream).
 */

import { type AllowList, OutgoingError, outgoingFetch } from "../../lib/outgoing-http.js";

export interface TypebotConfig {
  baseUrl: string;
  slug: string;
  apiKey: string;
  /** ALLOWED_PRIVATE_HOSTS (a Typebot on the provider's own network) */
  allow: AllowList;
}

export interface ChoiceItem {
  id?: string;
  content?: string;
  value?: string;
}

interface RichNode {
  type?: string;
  text?: string;
  url?: string;
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  underline?: boolean;
  children?: RichNode[];
}

export interface TypebotBubble {
  id?: string;
  type: string;
  content?: {
    type?: string;
    richText?: RichNode[];
    markdown?: string;
    url?: string;
    plainText?: string;
  };
}

export interface TypebotAction {
  type: string;
  lastBubbleBlockId?: string;
  expectsDedicatedReply?: boolean;
  wait?: { secondsToWaitFor?: number | string };
  redirect?: { url?: string };
}

export interface TypebotAnswer {
  sessionId?: string;
  messages?: TypebotBubble[];
  input?: { id?: string; type: string; items?: ChoiceItem[] };
  clientSideActions?: TypebotAction[];
}

/** A call that did not answer usably: the job runner tries it again (network errors, 5xx, timeouts). */
export class TypebotUnavailable extends Error {}
/** continueChat answered 404: the session ended or expired on Typebot's side. */
export class TypebotSessionGone extends Error {}

const TIMEOUT_MS = 15_000;

/** A flow's answer is a few kB of JSON; more is not a Typebot answer. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

async function call(cfg: TypebotConfig, path: string, body: unknown): Promise<TypebotAnswer> {
  const url = `${cfg.baseUrl.replace(/\/+$/, "")}/api/v1/${path}`;
  let res: Awaited<ReturnType<typeof outgoingFetch>>;
  try {
    res = await outgoingFetch(url, {
      allow: cfg.allow,
      method: "POST",
      headers: { "content-type": "application/json", ...(cfg.apiKey && { authorization: `Bearer ${cfg.apiKey}` }) },
      body: JSON.stringify(body),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (err) {
    throw new TypebotUnavailable(`Typebot unreachable: ${err instanceof OutgoingError ? err.code : "request failed"}`);
  }
  if (res.status === 404 && path.startsWith("sessions/")) throw new TypebotSessionGone("session not found");
  if (res.status < 200 || res.status > 299) throw new TypebotUnavailable(`Typebot answered ${res.status}`);
  try {
    return JSON.parse(res.text()) as TypebotAnswer;
  } catch {
    throw new TypebotUnavailable("Typebot answered something that is not JSON");
  }
}

export function startChat(cfg: TypebotConfig, prefilledVariables: Record<string, string>): Promise<TypebotAnswer> {
  return call(cfg, `typebots/${encodeURIComponent(cfg.slug)}/startChat`, {
    prefilledVariables,
    isStreamEnabled: false,
    textBubbleContentFormat: "richText",
  });
}

/** `message` undefined: the flow asked for a dedicated reply after an action (nothing typed). */
export function continueChat(cfg: TypebotConfig, sessionId: string, message: string | undefined): Promise<TypebotAnswer> {
  return call(cfg, `sessions/${encodeURIComponent(sessionId)}/continueChat`, {
    ...(message !== undefined && { message }),
    textBubbleContentFormat: "richText",
  });
}

// ---------- rich text ----------

function wrap(text: string, mark: string): string {
  // WhatsApp needs the markers against the words: spaces go outside
  const m = /^(\s*)(.*?)(\s*)$/s.exec(text);
  if (!m?.[2]) return text;
  return `${m[1]}${mark}${m[2]}${mark}${m[3]}`;
}

function inline(nodes: RichNode[] | undefined): string {
  let out = "";
  for (const n of nodes ?? []) {
    if (typeof n.text === "string" && !n.children) {
      let t = n.text;
      if (n.bold) t = wrap(t, "*");
      if (n.italic) t = wrap(t, "_");
      if (n.strikethrough) t = wrap(t, "~");
      // underline has no WhatsApp marker: plain text
      out += t;
    } else if (n.type === "a") {
      const label = inline(n.children);
      out += n.url && label.trim() && label.trim() !== n.url ? `${label} (${n.url})` : (n.url ?? label);
    } else out += inline(n.children);
  }
  return out;
}

function blocks(nodes: RichNode[] | undefined): string[] {
  const lines: string[] = [];
  for (const n of nodes ?? []) {
    if (n.type === "ol" || n.type === "ul") {
      (n.children ?? []).forEach((li, i) => {
        lines.push(`${n.type === "ol" ? `${i + 1}.` : "*"} ${inline(li.children)}`);
      });
    } else lines.push(inline(n.children ?? [n]));
  }
  return lines;
}

/** Typebot's Slate rich text as WhatsApp text: *bold*, _italic_, ~strike~, links as "text (url)", lists. */
export function richTextToWhatsapp(nodes: RichNode[] | undefined): string {
  return blocks(nodes).join("\n").trim();
}

/** CommonMark (textBubbleContentFormat "markdown") as WhatsApp text. */
export function markdownToWhatsapp(md: string): string {
  return md
    .split("**")
    .map((part) => part.replace(/(^|[^*])\*([^*\n]+)\*/g, "$1_$2_"))
    .join("*")
    .replace(/~~(.+?)~~/g, "~$1~")
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_m, t: string, u: string) => (t === u ? u : `${t} (${u})`))
    .trim();
}

export function bubbleText(b: TypebotBubble): string {
  const c = b.content;
  if (!c) return "";
  if (c.type === "markdown" && typeof c.markdown === "string") return markdownToWhatsapp(c.markdown);
  if (Array.isArray(c.richText)) return richTextToWhatsapp(c.richText);
  return (c.plainText ?? c.markdown ?? "").trim();
}

// ---------- hand-over commands ----------

export type BotCommand = { kind: "handover"; queueId: number; userId?: number } | { kind: "stop" } | { kind: "unknown" };

/** A bot text `#{…}`: a command for the inbox, never sent to the customer. Undefined when the text is not one. */
export function parseCommand(text: string): BotCommand | undefined {
  const t = text.trim();
  if (!t.startsWith("#{") || !t.endsWith("}")) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(t.slice(1));
  } catch {
    return { kind: "unknown" };
  }
  if (!v || typeof v !== "object") return { kind: "unknown" };
  const o = v as Record<string, unknown>;
  const queueId = Number(o.queueId);
  if (o.queueId !== undefined && Number.isInteger(queueId) && queueId > 0) {
    const userId = Number(o.userId);
    return { kind: "handover", queueId, ...(o.userId !== undefined && Number.isInteger(userId) && userId > 0 && { userId }) };
  }
  if (o.stopBot === true || o.stopbot === true || o.action === "endSession") return { kind: "stop" };
  return { kind: "unknown" };
}

// ---------- choices ----------

/** Case, accents, spaces and punctuation around do not matter. */
export function looseKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export const itemLabel = (i: ChoiceItem) => i.content ?? i.value ?? "";

/** The list a choice input becomes on WhatsApp: one numbered line per item. */
export function choiceList(items: ChoiceItem[]): string {
  return items.map((i, n) => `*${n + 1}* - ${itemLabel(i)}`).join("\n");
}

/**
 * What to send Typebot for the customer's answer to a choice: the item's exact text when the
 * answer is its number, its text (case and accents ignored) or its value; undefined when none.
 */
export function matchChoice(items: ChoiceItem[], answer: string): string | undefined {
  const a = answer.trim();
  const n = /^\*?(\d{1,3})\*?[.)]?$/.exec(a);
  if (n) {
    const item = items[Number(n[1]) - 1];
    if (item) return item.content ?? item.value ?? item.id;
  }
  const k = looseKey(a);
  if (!k) return undefined;
  const item = items.find((i) => [i.content, i.value, i.id].some((x) => x !== undefined && looseKey(x) === k));
  return item ? (item.content ?? item.value ?? item.id) : undefined;
}
