import type { Ticket } from "@balcao/contract";
import { eq, sql } from "drizzle-orm";
import { messages } from "../../../db/schema/index.js";
import { type ConnectionInfo, connectionInfo } from "../../connection-facts/info.js";
import { afterTransition, transitionTicket } from "../../tickets/apply-transition.js";
import { findTicket } from "../../tickets/queries.js";
import { type BotDeps, type BotStep, TYPEBOT_JOB } from "../deps.js";
import { mediaPiece, type Piece, send, text } from "../send.js";
import { pauseBots, saveState, botState, serial } from "../state.js";
import {
  type BotCommand,
  bubbleText,
  choiceList,
  continueChat,
  looseKey,
  matchChoice,
  parseCommand,
  startChat,
  type TypebotAnswer,
  type TypebotConfig,
  TypebotSessionGone,
} from "../typebot.js";
import { menuStep } from "./menu.js";

/** Typebot's own WhatsApp runtime caps a wait at 10 s. */
const MAX_WAIT_S = 10;
/** A flow asking for a dedicated reply after an action is continued at most this many times in one turn. */
const MAX_CONTINUES = 5;

/** 5. Typebot, when the connection has it (and it has not fallen back to the menu on this ticket): the turn runs on the job runner. */
export const typebotStep =
  (deps: BotDeps): BotStep =>
  async ({ message, ticket, state, connection }) => {
    const conn = await connection();
    if (!conn?.typebot.enabled || ticket.queueId !== null || (await state())?.data.typebotOff) return false;
    await deps.enqueueJob(TYPEBOT_JOB, { ticketId: ticket.id, messageId: message.id }, { maxAttempts: 3 });
    return true;
  };

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
  await serial(deps.conv.ctx, p.ticketId, async () => {
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
    const cfg: TypebotConfig = { baseUrl: tb.baseUrl, slug: tb.slug, apiKey: tb.apiKey, allow: ctx.config.allowedPrivateHosts };
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
    // the ticket's row before its bot state (the lock order of every writer of both: state.ts)
    const transitioned = await transitionTicket(
      tx,
      ticket.id,
      { kind: "bot" },
      { type: "handover", queueId: rows[0] ? command.queueId : null, ...(user && { userId: user.id }) },
    );
    await saveState(tx, ticket.id, { step: null });
    return transitioned;
  });
  await afterTransition(deps.conv, done);
}
