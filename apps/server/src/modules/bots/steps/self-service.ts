import type { Ticket } from "@balcao/contract";
import { eq } from "drizzle-orm";
import { messages } from "../../../db/schema/index.js";
import { runSelfServiceTurn } from "../../billing/turn.js";
import { type ConnectionInfo, connectionInfo } from "../../connection-facts/info.js";
import { findTicket } from "../../tickets/queries.js";
import { type BotDeps, type BotStep, SELF_SERVICE_JOB } from "../deps.js";
import { type BotState, botState, keep, saveState, serial } from "../state.js";
import { menuStep } from "./menu.js";

/** 4. The billing self-service ("before": no queue yet; "after": a queue, no agent yet): the turn runs on the job runner. */
export const selfServiceStep =
  (deps: BotDeps): BotStep =>
  async ({ message, ticket, state, connection }) => {
    const conn = await connection();
    if (!conn || !selfServiceDue(deps, conn, ticket, await state())) return false;
    await deps.enqueueJob(SELF_SERVICE_JOB, { ticketId: ticket.id, messageId: message.id }, { maxAttempts: 2 });
    return true;
  };

/**
 * Whether a customer message goes to the billing self-service: the connection has it, it has not
 * handed over on this ticket yet, and the ticket is where the connection places it — "before":
 * no queue yet (and the queue menu not shown); "after": in a queue, no agent yet.
 */
export function selfServiceDue(deps: BotDeps, conn: ConnectionInfo, ticket: Ticket, state: BotState | undefined): boolean {
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
  await serial(deps.conv.ctx, p.ticketId, async () => {
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
