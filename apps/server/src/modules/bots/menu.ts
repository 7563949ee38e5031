import type { ConnectionInfo } from "../connection-facts/info.js";

/**
 * The queue step of a customer's message on a ticket that has no queue and no agent yet: one
 * queue is assigned silently; with several, the greeting and a numbered menu are sent and a valid
 * number picks the queue (its greeting follows); anything else repeats the menu.
 */
export function queueStep(
  ticket: { queueId: number | null; userId: number | null; awaitingQueueChoice: boolean },
  conn: Pick<ConnectionInfo, "queues" | "greetingMessage">,
  body: string,
  invalidOption = "",
): { queueId?: number; awaiting?: boolean; replies?: string[] } {
  if (ticket.queueId !== null || ticket.userId !== null || conn.queues.length === 0) return {};
  if (conn.queues.length === 1) return { queueId: conn.queues[0].id, awaiting: false };
  const choice = /^\s*(\d{1,3})\s*$/.exec(body);
  const n = choice ? Number(choice[1]) : 0;
  if (ticket.awaitingQueueChoice && n >= 1 && n <= conn.queues.length) {
    const queue = conn.queues[n - 1];
    return { queueId: queue.id, awaiting: false, replies: queue.greetingMessage.trim() ? [queue.greetingMessage] : [] };
  }
  // a wrong answer to the menu is said so before the menu comes again
  const wrong = ticket.awaitingQueueChoice && invalidOption.trim() ? [invalidOption] : [];
  return { awaiting: true, replies: [...wrong, queueMenu(conn)] };
}

export function queueMenu(conn: Pick<ConnectionInfo, "queues" | "greetingMessage">): string {
  const options = conn.queues.map((q, i) => `*${i + 1}* - ${q.name}`).join("\n");
  return `${conn.greetingMessage.trim()}\n\n${options}`;
}
