import type { Message, Ticket } from "@balcao/contract";
import { eq, sql } from "drizzle-orm";
import type { SessionUser } from "../../context.js";
import { messages, userQueues, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { canSee } from "../access/visibility.js";
import type { ConvDeps } from "../outbox/deps.js";
import { loadTicket } from "../tickets/queries.js";
import { loadMessage } from "./queries.js";

/**
 * Internal notes: an agent's text in a ticket's conversation that never leaves Balcão. Stored as a
 * message with source `note` (read back as `internal: true`): no outbox row, no channel id, no
 * preview or unread change, and the dashboard's reply times ignore it (the ticket_cycles
 * triggers count only `agent` and `phone` replies). Whoever may see the ticket may write one, in
 * any status. `@Name` (a user's full name, or first name when only one user has it) notifies
 * that user when they may see the ticket.
 */

const folded = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The users a note's body names (`@Full Name` or `@First` when unique), among `candidates`. */
export function mentionedIn(body: string, candidates: { id: number; name: string }[]): number[] {
  const text = folded(body);
  const firstCount = new Map<string, number>();
  for (const c of candidates) {
    const first = folded(c.name).split(/\s+/)[0];
    if (first) firstCount.set(first, (firstCount.get(first) ?? 0) + 1);
  }
  const named = (needle: string) => {
    if (!needle) return false;
    let at = text.indexOf(`@${needle}`);
    while (at >= 0) {
      const next = text[at + 1 + needle.length];
      if (next === undefined || !/[\p{L}\p{N}_]/u.test(next)) return true;
      at = text.indexOf(`@${needle}`, at + 1);
    }
    return false;
  };
  const ids: number[] = [];
  for (const c of candidates) {
    const full = folded(c.name).trim().replace(/\s+/g, " ");
    const first = full.split(" ")[0];
    if (named(full) || (first && firstCount.get(first) === 1 && named(first))) ids.push(c.id);
  }
  return ids;
}

/** The users who may see the ticket, with their names (mention candidates). */
async function usersWhoSee(conv: ConvDeps, ticket: Pick<Ticket, "queueId" | "userId">) {
  const db = conv.ctx.db;
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      profile: users.profile,
      queueIds: sql<number[]>`coalesce(array_agg(${userQueues.queueId}) filter (where ${userQueues.queueId} is not null), '{}')`,
    })
    .from(users)
    .leftJoin(userQueues, eq(userQueues.userId, users.id))
    .groupBy(users.id);
  return rows
    .map((r) => ({ ...r, queueIds: (r.queueIds ?? []).map(Number) }))
    .filter((u) => canSee({ id: u.id, profile: u.profile as SessionUser["profile"], queueIds: u.queueIds }, ticket));
}

export async function createNote(conv: ConvDeps, user: SessionUser, ticketId: number, body: string): Promise<Message> {
  const { ctx } = conv;
  const ticket = await loadTicket(ctx.db, ticketId);
  if (!canSee(user, ticket)) throw new AppError("ERR_NO_PERMISSION");
  const text = body.trim();
  if (!text) throw new AppError("ERR_VALIDATION", 400, { body: ["Required"] });
  const mentioned = mentionedIn(
    text,
    (await usersWhoSee(conv, ticket)).filter((u) => u.id !== user.id),
  );
  const [row] = await ctx.db
    .insert(messages)
    .values({
      whatsappId: ticket.whatsappId,
      body: text,
      fromMe: true,
      read: true,
      ack: 0,
      mediaType: "chat",
      ticketId,
      userId: user.id,
      source: "note",
      dataJson: mentioned.length ? JSON.stringify({ mentions: mentioned }) : null,
    })
    .returning({ id: messages.id });
  const message = await loadMessage(ctx.db, row.id);
  if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
  ctx.events.publish("message.created", { message, ticket });
  if (mentioned.length) {
    ctx.events.publish("note.mentioned", {
      userIds: mentioned,
      ticketId,
      messageId: message.id,
      byUserId: user.id,
      byName: user.name,
      body: text,
    });
  }
  return message;
}
