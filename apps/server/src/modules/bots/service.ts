import type { Message, Ticket } from "@balcao/contract";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { chatEntries, messages } from "../../db/schema/index.js";
import { MEDIA_KEY, type StoredMedia, servingHeaders, mediaTypeOf } from "../../lib/media.js";
import type { Clock } from "../../lib/pace.js";
import type { BillingRegistry } from "../billing/registry.js";
import type { SelfServiceState } from "../billing/self-service.js";
import { runSelfServiceTurn } from "../billing/turn.js";
import { type ConnectionInfo, connectionInfo } from "../connections/service.js";
import { type DisparoDeps, handleOptOut, optOutKey } from "../disparos/service.js";
import type { ConvDeps, Queued } from "../outbox/deps.js";
import { enqueueMessage, type OutboxContent } from "../outbox/enqueue.js";
import { getSettingValues } from "../settings/service.js";
import { loadMessage } from "../messages/queries.js";
import { findTicket } from "../tickets/queries.js";
import { afterTransition, transitionTicket } from "../tickets/apply-transition.js";
import { queueStep } from "./menu.js";
import {
  type BotCommand,
  bubbleText,
  type ChoiceItem,
  choiceList,
  continueChat,
  looseKey,
  matchChoice,
  parseCommand,
  startChat,
  type TypebotAnswer,
  type TypebotConfig,
  TypebotSessionGone,
} from "./typebot.js";

/**
 * The automatic part of a conversation: one ordered list of bot steps that run after a customer's
 * message is committed — opt-out words (disparos), chat entries (shortcuts), Typebot when the
 * connection has it, the greeting and queue menu — with the billing self-service (SGP / MK-AUTH: 2ª via,
 * PIX, desbloqueio, status, falar com atendente) before the menu or after a queue is picked, as the
 * connection says. The first step that answers ends the list. A
 * human's message in the ticket pauses every bot on it (bot_sessions.paused_at). Typebot is an
 * outside system: its calls run on the job runner (retried; when it stays down the ticket falls
 * back to the queue menu). Every bot message goes through the outbox.
 */

export const TYPEBOT_JOB = "bots.typebot";
/** One customer message to the billing self-service (its calls are an outside system's: on the job runner). */
export const SELF_SERVICE_JOB = "bots.selfservice";
/** Typebot's own WhatsApp runtime caps a wait at 10 s. */
const MAX_WAIT_S = 10;
/** A flow asking for a dedicated reply after an action is continued at most this many times in one turn. */
const MAX_CONTINUES = 5;

export interface BotDeps {
  conv: ConvDeps;
  clock: Clock;
  disparos: DisparoDeps;
  /** queues a job (the bridge's calls) after the caller's commit */
  enqueueJob(name: string, payload: unknown, opts: { maxAttempts: number }): Promise<unknown>;
  /** the configured billing system, for the self-service step (absent: no self-service) */
  billing?: BillingRegistry;
}

interface BotState {
  step: string | null;
  sessionId: string | null;
  data: {
    choices?: ChoiceItem[];
    typebotOff?: boolean;
    /** the self-service machine's state (step "selfservice") */
    selfService?: SelfServiceState;
    /** the self-service handed over: it does not start again on this ticket */
    selfServiceDone?: boolean;
  };
  expiresAt: Date | null;
  paused: boolean;
}

export async function botState(db: DbOrTx, ticketId: number): Promise<BotState | undefined> {
  const { rows } = await db.execute<{
    step: string | null;
    session_id: string | null;
    data: unknown;
    expires_at: string | Date | null;
    paused_at: string | Date | null;
  }>(sql`select step, session_id, data, expires_at, paused_at from bot_sessions where ticket_id = ${ticketId}`);
  const r = rows[0];
  if (!r) return undefined;
  return {
    step: r.step,
    sessionId: r.session_id,
    data: (typeof r.data === "string" ? JSON.parse(r.data) : r.data) ?? {},
    expiresAt: r.expires_at ? new Date(r.expires_at) : null,
    paused: r.paused_at !== null,
  };
}

async function saveState(
  db: DbOrTx,
  ticketId: number,
  s: { step: string | null; sessionId?: string | null; data?: BotState["data"]; expiresAt?: Date | null },
): Promise<void> {
  const data = JSON.stringify(s.data ?? {});
  const expires = s.expiresAt ? s.expiresAt.toISOString() : null;
  await db.execute(sql`
    insert into bot_sessions (ticket_id, step, session_id, data, expires_at, updated_at)
    values (${ticketId}, ${s.step}, ${s.sessionId ?? null}, ${data}::jsonb, ${expires}::timestamptz, now())
    on conflict (ticket_id) do update set step = excluded.step, session_id = excluded.session_id, data = excluded.data,
      expires_at = excluded.expires_at, updated_at = now()`);
}

/** A human wrote in the ticket (an agent, or someone at the phone): no bot answers there any more. */
export async function pauseBots(db: DbOrTx, ticketId: number): Promise<void> {
  await db.execute(sql`
    insert into bot_sessions (ticket_id, paused_at) values (${ticketId}, now())
    on conflict (ticket_id) do update set paused_at = coalesce(bot_sessions.paused_at, now()), step = null, session_id = null,
      data = '{}'::jsonb, updated_at = now()`);
}

// ---------- sending ----------

type Piece = { body: string; content: OutboxContent; media?: StoredMedia };

const text = (body: string): Piece => ({ body, content: { kind: "text", body } });

async function send(deps: BotDeps, ticket: Ticket, pieces: Piece[]): Promise<void> {
  if (!pieces.length || ticket.whatsappId === null) return;
  const queued = await deps.conv.ctx.db.transaction(async (tx) => {
    const out: Queued[] = [];
    for (const p of pieces) {
      const q = await enqueueMessage(tx, {
        ticket,
        source: "bot",
        userId: null,
        body: p.body,
        content: p.content,
        media: p.media,
        fileName: p.content.kind === "media" ? (p.content.fileName ?? null) : null,
      });
      out.push({ id: q.id, whatsappId: q.whatsappId });
    }
    return out;
  });
  await deps.conv.outbox.committed(queued);
}

/** A media address as something the outbox can send: our own `/media/<key>` files, or an outside http(s) URL fetched now. */
async function mediaPiece(deps: BotDeps, url: string, kind: "image" | "audio" | "video", caption = ""): Promise<Piece | undefined> {
  const { media, ctx } = deps.conv;
  let stored: StoredMedia | undefined;
  // our own files: "/media/<key>", or a full address of ours (a flow that sends an audio entry) — keys are unguessable
  const own = /^(?:https?:\/\/[^/]+)?\/media\/([a-f0-9]{32}\.[a-z0-9]{1,8})(?:[?#].*)?$/.exec(url);
  if (own && MEDIA_KEY.test(own[1]) && (await media.exists(own[1]))) {
    const key = own[1];
    const mimetype = servingHeaders(key)["content-type"];
    stored = { key, mimetype, mediaType: mediaTypeOf(mimetype), size: 0 };
  } else if (/^https?:\/\//i.test(url)) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(20_000) });
      if (!res.ok) throw new Error(`media answered ${res.status}`);
      const data = Buffer.from(await res.arrayBuffer());
      stored = await media.storeUpload(data);
    } catch (err) {
      ctx.log.warn({ err, url }, "bot media could not be fetched");
      return undefined;
    }
  }
  if (!stored) return undefined;
  const mediaType = stored.mediaType === "image" || stored.mediaType === "audio" || stored.mediaType === "video" ? stored.mediaType : kind;
  const voice = mediaType === "audio";
  return {
    body: caption,
    media: stored,
    content: {
      kind: "media",
      mediaType,
      mediaKey: stored.key,
      mimetype: stored.mimetype,
      ...(caption && !voice && { caption }),
      ...(voice && { ptt: true }),
    },
  };
}

// ---------- the steps ----------

/** What the inbound pipeline calls once a customer's message is stored and published. */
export function createBotSteps(deps: BotDeps) {
  const { ctx } = deps.conv;
  // a human's message pauses every bot of the ticket
  ctx.events.on("message.created", async ({ message }) => {
    if (message.fromMe && (message.source === "agent" || message.source === "phone")) await pauseBots(ctx.db, message.ticketId);
  });

  // the chat entries, read again after a change (or 10 s, for other processes' changes)
  let cached: { at: number; rows: ChatEntryRow[] } | undefined;
  ctx.events.on("chatbot.changed", () => {
    cached = undefined;
  });
  const entries = async () => {
    if (cached && Date.now() - cached.at < 10_000) return cached.rows;
    const rows = await ctx.db.select().from(chatEntries);
    cached = { at: Date.now(), rows };
    return rows;
  };

  return async function afterMessage(message: Message, ticket: Ticket): Promise<void> {
    if (message.fromMe || ticket.isGroup || message.mediaType === "call_log" || ticket.whatsappId === null) return;
    // 1. opt-out words (disparos)
    if (await handleOptOut(deps.disparos, message, ticket)) return;
    const state = await botState(ctx.db, ticket.id);
    if (state?.paused || ticket.userId !== null || ticket.status === "closed") return;
    // 2. chat entries
    const answered = message.mediaType === "chat" && (await chatEntryStep(deps, await entries(), message, ticket));
    const conn = await connectionInfo(ctx.db, ticket.whatsappId);
    if (!conn) return;
    // the entry answered the content; a ticket without a queue still gets routed: the self-service starts, or the menu
    // is shown (once: not while a bot conversation or the menu waits for an answer); Typebot starts with the next message
    if (answered) {
      if (ticket.queueId !== null || state?.step) return;
      if (selfServiceDue(deps, conn, ticket, state))
        await deps.enqueueJob(SELF_SERVICE_JOB, { ticketId: ticket.id, messageId: null }, { maxAttempts: 2 });
      else if (!conn.typebot.enabled || state?.data.typebotOff) await menuStep(deps, ticket.id, "", conn);
      return;
    }
    // 3. the billing self-service ("before": no queue yet; "after": a queue, no agent yet), on the job runner
    if (selfServiceDue(deps, conn, ticket, state)) {
      await deps.enqueueJob(SELF_SERVICE_JOB, { ticketId: ticket.id, messageId: message.id }, { maxAttempts: 2 });
      return;
    }
    // Typebot and the menu serve tickets that have no queue yet
    if (ticket.queueId !== null) return;
    // 4. Typebot, on the job runner
    if (conn.typebot.enabled && ticket.queueId === null && !state?.data.typebotOff) {
      await deps.enqueueJob(TYPEBOT_JOB, { ticketId: ticket.id, messageId: message.id }, { maxAttempts: 3 });
      return;
    }
    // 5. the greeting and the queue menu
    await menuStep(deps, ticket.id, message.body, conn);
  };
}

/**
 * Whether a customer's text is an opt-out answer (one of the opt-out words, the contact not marked
 * yet): the inbound builder asks it before placing the message, so the answer reopens no ticket for
 * an agent; the opt-out step (1.) marks the contact and confirms after the commit.
 */
export async function isOptOutAnswer(tx: DbOrTx, contactId: number, body: string): Promise<boolean> {
  if (body.length > 60) return false;
  const key = optOutKey(body);
  if (!key) return false;
  const { disparoOptOutWords } = await getSettingValues(tx, ["disparoOptOutWords"]);
  if (!disparoOptOutWords.split(/[,;\n]/).some((w) => optOutKey(w) === key)) return false;
  const { rows } = await tx.execute(sql`select 1 from contact_opt_outs where contact_id = ${contactId}`);
  return rows.length === 0;
}

/**
 * The steps of a customer message whose run after the commit did not finish (a crash, or they
 * failed): run now unless a bot already answered after it or a Typebot turn was queued for it.
 */
export async function runMissedSteps(
  deps: BotDeps,
  steps: (message: Message, ticket: Ticket) => Promise<void>,
  p: { messageId: number; ticketId: number },
): Promise<void> {
  const { db } = deps.conv.ctx;
  const { rows } = await db.execute<{ answered: boolean }>(sql`
    select exists (select 1 from messages where ticket_id = ${p.ticketId} and id > ${p.messageId} and source = 'bot')
        or exists (select 1 from jobs where name in (${TYPEBOT_JOB}, ${SELF_SERVICE_JOB}) and (payload->>'messageId')::bigint = ${p.messageId}) as answered`);
  if (rows[0]?.answered) return;
  const [message, ticket] = await Promise.all([loadMessage(db, eq(messages.id, p.messageId)), findTicket(db, p.ticketId)]);
  if (!message || !ticket) return;
  await steps(message, ticket);
}

type ChatEntryRow = typeof chatEntries.$inferSelect;

async function chatEntryStep(deps: BotDeps, rows: ChatEntryRow[], message: Message, ticket: Ticket): Promise<boolean> {
  const key = looseKey(message.body);
  if (!key || message.body.length > 100 || !rows.length) return false;
  const entry = rows.find((e) => looseKey(e.shortcut) === key);
  if (!entry) return false;
  const pieces: Piece[] = [];
  const image = entry.url ? await mediaPiece(deps, entry.url, "image", entry.message) : undefined;
  if (image) pieces.push(image);
  else if (entry.message.trim()) pieces.push(text(entry.message));
  if (!pieces.length) return false;
  await send(deps, ticket, pieces);
  return true;
}

/**
 * The queue menu: one queue is assigned silently; with several, the greeting and a numbered menu,
 * and a valid number hands the ticket to that queue (its greeting follows). With no queue, the
 * connection's greeting alone when `greetAlone` (the Typebot fallback: the customer always gets an answer).
 */
export async function menuStep(deps: BotDeps, ticketId: number, body: string, conn: ConnectionInfo, greetAlone = false): Promise<void> {
  const { ctx } = deps.conv;
  const { msgInvalidOption } = await getSettingValues(ctx.db, ["msgInvalidOption"]);
  const result = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ queue_id: number | null; user_id: number | null; status: string }>(
      sql`select queue_id, user_id, status from tickets where id = ${ticketId} for update`,
    );
    const t = rows[0];
    if (!t || t.status === "closed") return undefined;
    const state = await botState(tx, ticketId);
    const step = queueStep(
      { queueId: t.queue_id, userId: t.user_id, awaitingQueueChoice: state?.step === "menu" },
      conn,
      body,
      msgInvalidOption,
    );
    const transitioned =
      step.queueId !== undefined
        ? await transitionTicket(tx, ticketId, { kind: "bot" }, { type: "handover", queueId: step.queueId })
        : undefined;
    if (step.awaiting)
      await saveState(tx, ticketId, {
        step: "menu",
        data: {
          ...(state?.data.typebotOff && { typebotOff: true }),
          ...(state?.data.selfServiceDone && { selfServiceDone: true }),
        },
      });
    let replies = step.replies ?? [];
    if (!replies.length && greetAlone && conn.queues.length === 0 && conn.greetingMessage.trim()) replies = [conn.greetingMessage];
    return { transitioned, replies };
  });
  if (!result) return;
  if (result.transitioned) await afterTransition(deps.conv, result.transitioned);
  const ticket = await findTicket(ctx.db, ticketId);
  if (ticket) await send(deps, ticket, result.replies.filter((r) => r.trim()).map(text));
  // "after": the queue is picked, the self-service starts (it asks for the CPF/CNPJ)
  if (result.transitioned && ticket && conn.selfService === "after" && deps.billing && ticket.queueId !== null && ticket.userId === null)
    await deps.enqueueJob(SELF_SERVICE_JOB, { ticketId, messageId: null }, { maxAttempts: 2 });
}

// ---------- the billing self-service ----------

/**
 * Whether a customer message goes to the billing self-service: the connection has it, it has not
 * handed over on this ticket yet, and the ticket is where the connection places it — "before":
 * no queue yet (and the queue menu not shown); "after": in a queue, no agent yet.
 */
function selfServiceDue(deps: BotDeps, conn: ConnectionInfo, ticket: Ticket, state: BotState | undefined): boolean {
  if (!deps.billing || conn.selfService === "off" || state?.data.selfServiceDone || ticket.userId !== null) return false;
  if (conn.selfService === "before") return ticket.queueId === null && state?.step !== "menu" && state?.step !== "typebot";
  return ticket.queueId !== null;
}

/**
 * The job of one customer message to the self-service (messageId null: the start, after a queue
 * was picked): one turn of the machine (its replies go through the outbox), its state saved in
 * bot_sessions (step "selfservice"). On hand-over — falar com atendente, not found, the billing
 * system unavailable, too many wrong answers — it stops for good on the ticket: "before" shows the
 * greeting and queue menu (one queue: assigned at once); "after" leaves the ticket pending in its
 * queue. Unexpected failures are retried; on the last attempt the ticket is handed over the same way.
 */
export async function runSelfServiceJob(
  deps: BotDeps,
  p: { ticketId: number; messageId: number | null },
  job: { attempts: number; maxAttempts: number },
): Promise<void> {
  await serial(p.ticketId, async () => {
    const { ctx } = deps.conv;
    const ticket = await findTicket(ctx.db, p.ticketId);
    if (!deps.billing || !ticket || ticket.userId !== null || ticket.status === "closed" || ticket.whatsappId === null) return;
    const state = await botState(ctx.db, ticket.id);
    if (state?.paused || state?.data.selfServiceDone) return;
    const conn = await connectionInfo(ctx.db, ticket.whatsappId);
    if (!conn || conn.selfService === "off") return;
    if (conn.selfService === "before" ? ticket.queueId !== null : ticket.queueId === null) return;
    let said: string | null = null;
    if (p.messageId !== null) {
      const [m] = await ctx.db.select({ body: messages.body }).from(messages).where(eq(messages.id, p.messageId));
      said = m?.body ?? "";
    }
    const saved = state?.step === "selfservice" ? (state.data.selfService ?? null) : null;
    let finished: boolean;
    try {
      const turn = await runSelfServiceTurn(deps.conv, deps.billing, { ticket, text: said, state: saved }, deps.clock);
      finished = turn.handover !== null || turn.state.step === "done";
      if (!finished) {
        // a human may have written meanwhile: the pause (paused_at) stays, the next message is not answered
        await saveState(ctx.db, ticket.id, { step: "selfservice", data: { ...keep(state), selfService: turn.state } });
        return;
      }
    } catch (err) {
      if (job.attempts < job.maxAttempts) throw err;
      ctx.log.warn({ err, ticketId: ticket.id }, "the self-service failed: the ticket is handed over");
    }
    // handed over: the self-service does not start again here; with Typebot too, the queue menu routes the ticket
    await saveState(ctx.db, ticket.id, {
      step: null,
      data: { ...keep(state), selfServiceDone: true, ...(conn.typebot.enabled && { typebotOff: true }) },
    });
    if (conn.selfService === "before") {
      const after = await botState(ctx.db, ticket.id);
      if (!after?.paused) await menuStep(deps, ticket.id, "", conn, true);
    }
  });
}

/** The flags of a ticket's bot state that outlive a step. */
function keep(state: BotState | undefined): BotState["data"] {
  return {
    ...(state?.data.typebotOff && { typebotOff: true }),
    ...(state?.data.selfServiceDone && { selfServiceDone: true }),
  };
}

// ---------- Typebot ----------

const turns = new Map<number, Promise<void>>();

/** One turn at a time per ticket (in this process): a flow hears the customer's messages in order. */
function serial(ticketId: number, fn: () => Promise<void>): Promise<void> {
  const prev = turns.get(ticketId) ?? Promise.resolve();
  const next = prev.catch(() => undefined).then(fn);
  const tail = next.catch(() => undefined);
  turns.set(ticketId, tail);
  void tail.then(() => {
    if (turns.get(ticketId) === tail) turns.delete(ticketId);
  });
  return next;
}

/**
 * The job of one customer message to a Typebot flow: continue the ticket's session (or start one
 * when there is none, it expired here, or Typebot forgot it), then say what the flow answered.
 * Typebot down: the job throws and the runner tries again; on the last attempt the ticket falls
 * back to the queue menu instead.
 */
export async function runTypebotTurn(
  deps: BotDeps,
  p: { ticketId: number; messageId: number },
  job: { attempts: number; maxAttempts: number },
) {
  await serial(p.ticketId, async () => {
    const { ctx } = deps.conv;
    const ticket = await findTicket(ctx.db, p.ticketId);
    if (!ticket || ticket.userId !== null || ticket.queueId !== null || ticket.status === "closed" || ticket.whatsappId === null) return;
    const state = await botState(ctx.db, ticket.id);
    if (state?.paused || state?.data.typebotOff) return;
    const conn = await connectionInfo(ctx.db, ticket.whatsappId);
    if (!conn) return;
    const [m] = await ctx.db.select({ body: messages.body }).from(messages).where(eq(messages.id, p.messageId));
    const said = m?.body ?? "";
    if (!conn.typebot.enabled) return menuStep(deps, ticket.id, said, conn, true);
    const tb = conn.typebot;
    // the end keyword: the bot stops here, the queue menu takes over
    if (tb.endKeyword.trim() && looseKey(said) === looseKey(tb.endKeyword)) {
      await saveState(ctx.db, ticket.id, { step: null, data: { typebotOff: true } });
      return menuStep(deps, ticket.id, "", conn, true);
    }
    const cfg: TypebotConfig = { baseUrl: tb.baseUrl, slug: tb.slug, apiKey: tb.apiKey };
    const now = deps.clock.now();
    try {
      let answer: TypebotAnswer | undefined;
      let sessionId =
        state?.step === "typebot" && state.sessionId && (!state.expiresAt || state.expiresAt.getTime() > now) ? state.sessionId : undefined;
      if (sessionId) {
        let reply = said;
        const items = state?.data.choices;
        if (items?.length) {
          const picked = matchChoice(items, said);
          if (picked === undefined && tb.unknownMessage.trim()) {
            // Typebot would not match it either: say so, and the list again
            await send(deps, ticket, [text(tb.unknownMessage), text(choiceList(items))]);
            await saveState(ctx.db, ticket.id, {
              step: "typebot",
              sessionId,
              data: state?.data,
              expiresAt: expiry(deps, tb.expiryMinutes),
            });
            return;
          }
          reply = picked ?? said;
        }
        try {
          answer = await continueChat(cfg, sessionId, reply);
        } catch (err) {
          if (!(err instanceof TypebotSessionGone)) throw err;
          sessionId = undefined;
        }
      }
      if (!answer) {
        answer = await startChat(cfg, { number: ticket.contact.number ?? "", pushName: ticket.contact.name, name: ticket.contact.name });
        sessionId = answer.sessionId;
      }
      await sayAnswer(deps, ticket, conn, cfg, sessionId, answer);
    } catch (err) {
      if (job.attempts < job.maxAttempts) throw err;
      ctx.log.warn({ err, ticketId: ticket.id }, "Typebot stayed unavailable: the queue menu answers instead");
      await saveState(ctx.db, ticket.id, { step: null, data: { typebotOff: true } });
      await menuStep(deps, ticket.id, "", conn, true);
    }
  });
}

function expiry(deps: BotDeps, minutes: number): Date | null {
  return minutes > 0 ? new Date(deps.clock.now() + minutes * 60_000) : null;
}

/** Says a Typebot answer on WhatsApp, bubble by bubble (delays and waits honoured), and stores where the flow is. */
async function sayAnswer(
  deps: BotDeps,
  ticket: Ticket,
  conn: ConnectionInfo,
  cfg: TypebotConfig,
  sessionId: string | undefined,
  first: TypebotAnswer,
): Promise<void> {
  const { ctx } = deps.conv;
  let answer: TypebotAnswer | undefined = first;
  let sent = 0;
  for (let round = 0; answer && round <= MAX_CONTINUES; round++) {
    const actions = answer.clientSideActions ?? [];
    const waitAfter = (blockId: string | undefined) => {
      const w = actions.find((a) => a.type === "wait" && a.lastBubbleBlockId === blockId);
      return w ? Math.min(MAX_WAIT_S, Math.max(0, Number(w.wait?.secondsToWaitFor) || 0)) : 0;
    };
    const before = waitAfter(undefined);
    if (before) await deps.clock.sleep(before * 1000);
    for (const bubble of answer.messages ?? []) {
      let piece: Piece | undefined;
      if (bubble.type === "text") {
        const said = bubbleText(bubble);
        const command = parseCommand(said);
        if (command) {
          await runCommand(deps, ticket, command);
          if (command.kind !== "unknown") return;
          continue;
        }
        if (said) piece = text(said);
      } else if (bubble.type === "image" || bubble.type === "audio" || bubble.type === "video") {
        const url = bubble.content?.url;
        piece = url ? await mediaPiece(deps, url, bubble.type) : undefined;
      } else if (bubble.type === "embed" && bubble.content?.url) {
        piece = text(bubble.content.url);
      }
      if (piece) {
        if (sent > 0 && conn.typebot.delayMs > 0) await deps.clock.sleep(conn.typebot.delayMs);
        await send(deps, ticket, [piece]);
        sent++;
      }
      const wait = waitAfter(bubble.id);
      if (wait) await deps.clock.sleep(wait * 1000);
    }
    for (const a of actions) if (a.type === "redirect" && a.redirect?.url) await send(deps, ticket, [text(a.redirect.url)]);
    const input = answer.input;
    const choices =
      input && (input.type === "choice input" || input.type === "picture choice input" || input.type === "buttons input")
        ? (input.items ?? [])
        : undefined;
    if (choices?.length) {
      if (sent > 0 && conn.typebot.delayMs > 0) await deps.clock.sleep(conn.typebot.delayMs);
      await send(deps, ticket, [text(choiceList(choices))]);
      sent++;
    }
    if (input && sessionId) {
      await saveState(ctx.db, ticket.id, {
        step: "typebot",
        sessionId,
        data: choices?.length ? { choices: choices.map((c) => ({ id: c.id, content: c.content, value: c.value })) } : {},
        expiresAt: expiry(deps, conn.typebot.expiryMinutes),
      });
      return;
    }
    // an action awaits a reply that is no customer's message: continue at once
    if (sessionId && actions.some((a) => a.expectsDedicatedReply)) {
      answer = await continueChat(cfg, sessionId, undefined).catch((err) => {
        if (err instanceof TypebotSessionGone) return undefined;
        throw err;
      });
      continue;
    }
    break;
  }
  // the flow ended without handing over: the ticket waits for an agent; the next message starts a new session
  await saveState(ctx.db, ticket.id, { step: null });
}

async function runCommand(deps: BotDeps, ticket: Ticket, command: BotCommand): Promise<void> {
  const { ctx } = deps.conv;
  if (command.kind === "unknown") {
    ctx.log.warn({ ticketId: ticket.id }, "a Typebot command the inbox does not know was ignored");
    return;
  }
  if (command.kind === "stop") {
    await pauseBots(ctx.db, ticket.id);
    return;
  }
  const done = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: number }>(sql`select id from queues where id = ${command.queueId}`);
    const user = command.userId
      ? (await tx.execute<{ id: number }>(sql`select id from users where id = ${command.userId}`)).rows[0]
      : undefined;
    await saveState(tx, ticket.id, { step: null });
    return transitionTicket(
      tx,
      ticket.id,
      { kind: "bot" },
      { type: "handover", queueId: rows[0] ? command.queueId : null, ...(user && { userId: user.id }) },
    );
  });
  await afterTransition(deps.conv, done);
}
