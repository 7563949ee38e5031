import type { Ticket } from "@balcao/contract";
import { PromiseCache } from "../../lib/promise-cache.js";
import type { ModuleHost } from "../../module-host.js";
import { noticeEnabled, POSITION_JOB, runPositionNotice, untoldWaiting } from "./position.js";
import { queueRoutes } from "./routes.js";

/**
 * Queues: the position notice (issue 32 §2). A ticket that enters a queue to wait, or whose
 * customer writes while waiting, gets a `queues.position` job (one queued per ticket at a time:
 * its singleton key); the job decides and sends (position.ts). On the job runner, so the queue's
 * greeting, queued by the same change, goes first. The events come after the commit: a sweep
 * (every minute, and when a number connects) queues what a killed process did not.
 */
const NOTICE_FLAG_MS = 10_000;

export function register(host: ModuleHost): void {
  const { ctx, conv, jobs, clock } = host;
  const isWaiting = (t: Ticket) => t.status === "pending" && t.userId === null && t.queueId !== null && !t.isGroup && t.whatsappId !== null;
  // whether each queue tells positions, per process: set by every process from the queue's own
  // event when an admin saves it, read again after 10 s (every waiting customer's message asked)
  const known = new PromiseCache<number, boolean>(NOTICE_FLAG_MS, (queueId) => noticeEnabled(ctx.db, queueId));
  ctx.events.onEverywhere("queue.saved", ({ queue }) => known.set(queue.id, queue.positionNotice?.enabled === true));
  ctx.events.onEverywhere("queue.deleted", ({ queueId }) => known.delete(queueId));
  const enqueue = (ticketId: number) =>
    jobs.enqueue(POSITION_JOB, { ticketId }, { singletonKey: `qpos:${ticketId}`, maxAttempts: 2, runAt: new Date(clock.now()) });
  const queue = async (t: Ticket) => {
    if (t.queueId === null || !(await known.get(t.queueId))) return;
    await enqueue(t.id);
  };
  const fail = (err: unknown) => ctx.log.error({ err }, "queueing a position notice failed");
  // the safety net of the events below (a process killed between a commit and its event)
  const sweep = async (whatsappId?: number) => {
    for (const id of await untoldWaiting(ctx.db, whatsappId)) await enqueue(id);
  };
  jobs.every("queues.positionSweep", 60_000, () => sweep());
  host.channels.onStatus((whatsappId, e) => {
    if (e.status === "CONNECTED") sweep(whatsappId).catch(fail);
  });
  ctx.events.on("ticket.updated", ({ ticket, previous, created }) => {
    if (!isWaiting(ticket)) return;
    const entered =
      created || !previous || previous.queueId !== ticket.queueId || previous.status !== "pending" || previous.userId !== null;
    if (entered) queue(ticket).catch(fail);
  });
  ctx.events.on("message.created", ({ message, ticket }) => {
    if (!message.fromMe && message.mediaType !== "call_log" && isWaiting(ticket)) queue(ticket).catch(fail);
  });
  jobs.register<{ ticketId: number }>(POSITION_JOB, (p) => runPositionNotice(conv, clock, p.ticketId));
  host.routes(queueRoutes(ctx, host.guard));
}
