import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { LOCK_KIND } from "../../lib/cluster/index.js";
import type { SelfServiceState } from "../billing/self-service.js";
import type { ChoiceItem } from "./typebot.js";

/** A ticket's bot state (bot_sessions): the step waiting for an answer, Typebot's session, the flags that outlive a step, the pause. */
export interface BotState {
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

export async function saveState(
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

/**
 * No bot answers in the ticket any more: Typebot's own "stop". A human's message (an agent, or
 * someone at the phone) pauses the same way, by a trigger on messages (migration 0025) in the
 * transaction that stores it. Lock order, for every writer of both: the ticket's row, then its
 * bot_sessions row.
 */
export async function pauseBots(db: DbOrTx, ticketId: number): Promise<void> {
  // the same function the trigger runs (migration 0025)
  await db.execute(sql`select bot_sessions_pause(${ticketId}::int)`);
}

/** The flags of a ticket's bot state that outlive a step. */
export function keep(state: BotState | undefined): BotState["data"] {
  return {
    ...(state?.data.typebotOff && { typebotOff: true }),
    ...(state?.data.selfServiceDone && { selfServiceDone: true }),
  };
}

/**
 * One bot turn at a time per ticket (Typebot, self-service), whatever process runs it: in order
 * within this process, and under a PostgreSQL advisory lock of the ticket across processes
 * (`lib/cluster/locks.ts`), so a flow hears the customer's messages one by one.
 */
export function serial(ctx: AppContext, ticketId: number, fn: () => Promise<void>): Promise<void> {
  return ctx.cluster.locks.run(LOCK_KIND.botTurn, ticketId, fn);
}
