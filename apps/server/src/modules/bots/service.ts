import type { Message, Ticket } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { ConnectionInfo } from "../connection-facts/info.js";
import type { BotPlan } from "../messages/inbound.js";
import { loadMessage } from "../messages/queries.js";
import { anyOpenIncident } from "../incidents/service.js";
import { findTicket } from "../tickets/queries.js";
import { type BotDeps, type BotStep, SELF_SERVICE_JOB, type StepInput, TYPEBOT_JOB } from "./deps.js";
import { type BotState, botState } from "./state.js";
import { chatEntryStep } from "./steps/chat-entries.js";
import { incidentStep } from "./steps/incident.js";
import { queueMenuStep } from "./steps/menu.js";
import { optOutCandidate, optOutStep } from "./steps/opt-out.js";
import { selfServiceStep } from "./steps/self-service.js";
import { typebotStep } from "./steps/typebot.js";

export { type BotDeps, SELF_SERVICE_JOB, TYPEBOT_JOB } from "./deps.js";
export { isOptOutAnswer } from "./steps/opt-out.js";
export { runSelfServiceJob } from "./steps/self-service.js";
export { runTypebotTurn } from "./steps/typebot.js";

/**
 * The automatic part of a conversation: one ordered list of bot steps (one file each under
 * `steps/`) that run after a customer's message is committed — opt-out words (disparos), chat
 * entries (shortcuts), the billing self-service (SGP / MK-AUTH: 2ª via, PIX, desbloqueio, status,
 * falar com atendente) before the menu or after a queue is picked as the connection says, Typebot
 * when the connection has it, the greeting and queue menu. The first step that answers ends the
 * list. A human's message in the ticket pauses every bot on it (bot_sessions.paused_at). Typebot
 * and the billing systems are outside systems: their calls run on the job runner (retried; when
 * Typebot stays down the ticket falls back to the queue menu). Every bot message goes through the
 * outbox.
 */

/** Where a bot may answer a message, as the inbound builder sees it before the commit. */
export type BotTicket = Pick<Ticket, "isGroup" | "userId" | "status" | "queueId" | "whatsappId">;

/** Typebot and the menu serve tickets that have no queue yet: one in a queue waits for its agent. */
const queuedTicket: BotStep = async ({ ticket }) => ticket.queueId !== null;

/** What the inbound pipeline calls once a customer's message is stored and published. */
export function createBotSteps(deps: BotDeps) {
  const { ctx } = deps.conv;
  // a human's message pauses every bot of the ticket: a trigger on messages (migration 0025), in the transaction that stores it
  const candidate = optOutCandidate(deps);
  const chatEntries = chatEntryStep(deps);

  /**
   * What may answer a customer message, from what is cached (no statement while cached), as a test of its ticket:
   * an agent's or a closed ticket has no bot; one without a queue has the menu (and Typebot, the self-service
   * "before"); one in a queue only a chat entry's shortcut or the self-service "after". Errs on "may" (the steps decide).
   */
  async function othersPlan(message: { body: string; mediaType: string }, whatsappId: number): Promise<(t: BotTicket) => boolean> {
    const entry = await chatEntries.mayAnswer(message);
    const after = !!deps.billing && (await deps.config.connection(whatsappId))?.selfService === "after";
    return (t) => t.userId === null && t.status !== "closed" && t.whatsappId !== null && (t.queueId === null || entry || after);
  }
  const othersMayAnswer = async (message: { body: string; mediaType: string }, ticket: BotTicket) =>
    ticket.whatsappId !== null && (await othersPlan(message, ticket.whatsappId))(ticket);

  /** 2. A paused ticket (a human wrote), an agent's ticket or a closed one: no bot answers there (nor where none could). */
  const humanTicket: BotStep = async ({ message, ticket, state }) =>
    !(await othersMayAnswer(message, ticket)) || (await state())?.paused === true;

  const steps: BotStep[] = [
    incidentStep(deps),
    optOutStep(deps, candidate),
    humanTicket,
    chatEntries,
    selfServiceStep(deps),
    queuedTicket,
    typebotStep(deps),
    queueMenuStep(deps),
  ];

  const skipped = (message: { fromMe: boolean; mediaType: string }, ticket: BotTicket) =>
    message.fromMe || ticket.isGroup || message.mediaType === "call_log" || ticket.whatsappId === null;

  async function afterMessage(message: Message, ticket: Ticket): Promise<void> {
    if (skipped(message, ticket) || ticket.whatsappId === null) return;
    const whatsappId = ticket.whatsappId;
    let state: Promise<BotState | undefined> | undefined;
    let conn: Promise<ConnectionInfo | undefined> | undefined;
    const input: StepInput = {
      message,
      ticket,
      state: () => (state ??= botState(ctx.db, ticket.id)),
      connection: () => (conn ??= deps.config.connection(whatsappId)),
    };
    for (const step of steps) if (await step(input)) return;
  }

  /**
   * What the inbound builder asks before a customer message's transaction (no statement while the settings, the
   * connection, the chat entries and "is an incident open" are cached): whether it may be an opt-out word, and
   * whether any step may answer on its ticket once placed — the builder stores the steps' safety-net job only then.
   */
  async function plan(message: { body: string; mediaType: string; fromMe: boolean }, whatsappId: number): Promise<BotPlan> {
    const optOut = !message.fromMe && (await candidate(message.body, message.mediaType));
    // during an outage the notice's step (the first) answers on any customer's ticket, an agent's too
    const incident = !message.fromMe && (await anyOpenIncident(ctx));
    const others = await othersPlan(message, whatsappId);
    return { optOut, mayAnswer: (t) => !skipped(message, t) && (optOut || incident || others(t)) };
  }

  return { afterMessage, plan };
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
  const [message, ticket] = await Promise.all([loadMessage(db, p.messageId), findTicket(db, p.ticketId)]);
  if (!message || !ticket) return;
  await steps(message, ticket);
}
