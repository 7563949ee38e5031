import { and, eq, sql } from "drizzle-orm";
import type { ChannelEvent } from "../../channels/channel.js";
import { messages, tickets } from "../../db/schema/index.js";
import type { InboundConfig } from "./inbound-config.js";
import type { ReceiveMessage } from "./inbound.js";
import { type Journal, markDone } from "./journal.js";
import type { ConvDeps } from "../outbox/deps.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import { loadTicket } from "../tickets/queries.js";

type CallEvent = Extract<ChannelEvent, { type: "call" }>;

/**
 * A customer's call: stored in the chat as a call log (the message builder), then refused unless
 * the connection accepts calls, with the connection's refusal message through the outbox.
 */
export function createCallHandler(conv: ConvDeps, journal: Journal, config: InboundConfig, receive: ReceiveMessage) {
  const { ctx } = conv;
  const db = ctx.db;
  return async function call(whatsappId: number, e: CallEvent, journalId?: number): Promise<void> {
    const conn = await config.connection(whatsappId);
    if (!conn) return markDone(journal, journalId);
    const s = await config.settings();
    await receive(
      whatsappId,
      {
        id: `call:${e.callId}`,
        fromMe: false,
        chat: { ...e.from, isGroup: false },
        timestamp: e.at,
        body: e.isVideo ? s.msgVideoCall : s.msgVoiceCall,
        mediaType: "call_log",
      },
      journalId,
    );
    if (conn.acceptCalls) return;
    const session = conv.channels.get(whatsappId);
    await session?.rejectCall(e.callId, e.from).catch((err) => ctx.log.warn({ err }, "rejecting a call failed"));
    if (!conn.callRefuseMessage.trim()) return;
    const [t] = await db
      .select({ id: tickets.id })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .where(and(sql`coalesce(${messages.whatsappId}, 0) = ${whatsappId}`, eq(messages.wid, `call:${e.callId}`)));
    if (!t) return;
    const ticket = await loadTicket(db, t.id);
    const q = await enqueueMessage(db, {
      ticket,
      source: "bot",
      userId: null,
      body: conn.callRefuseMessage,
      content: { kind: "text", body: conn.callRefuseMessage },
    });
    await conv.outbox.committed([{ id: q.id, whatsappId: q.whatsappId }]);
  };
}
