import { sql } from "drizzle-orm";
import type { ConnectionInfo } from "../../connection-facts/info.js";
import { getSettingValues } from "../../settings/service.js";
import { afterTransition, transitionTicket } from "../../tickets/apply-transition.js";
import { findTicket } from "../../tickets/queries.js";
import { type BotDeps, type BotStep, SELF_SERVICE_JOB } from "../deps.js";
import { queueStep } from "../menu.js";
import { send, text } from "../send.js";
import { botState, saveState } from "../state.js";

/** 6. The greeting and the queue menu, for a ticket without a queue. */
export const queueMenuStep =
  (deps: BotDeps): BotStep =>
  async ({ message, ticket, connection }) => {
    const conn = await connection();
    if (conn) await menuStep(deps, ticket.id, message.body, conn);
    return true;
  };

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
