import { registerOutboxFed } from "../../jobs/outbox-fed.js";
import { moveQueuedEarlier } from "../../jobs/runner.js";
import type { ModuleHost } from "../../module-host.js";
import { dueScheduleKeys, SEND_JOB } from "./rows.js";
import { scheduleRoutes } from "./routes.js";
import { anyWaitingForReply, cancelOnCustomerReply, type ScheduleDeps, scheduleWork } from "./service.js";

/**
 * Schedules: one send job per schedule at its time (the outbox-fed life cycle); the outbox's
 * outcomes and the customer's replies (cancel-on-reply) move them on.
 */
export function register(host: ModuleHost): void {
  const { ctx, conv, jobs, clock } = host;
  const deps: ScheduleDeps = { conv, clock, wakeRunner: () => jobs.wake() };
  const life = registerOutboxFed(
    jobs,
    ctx.events,
    { db: ctx.db, clock, wakeRunner: () => jobs.wake(), orphaned: host.orphanedJobs },
    scheduleWork(deps),
  );
  // most customer messages find no schedule to cancel: the question "is any pending schedule waiting for a reply?" is
  // answered once and asked again after any schedule changes (the event, from any process; 10 s at most, for a change the event missed)
  let waiting: { at: number; any: Promise<boolean> } | undefined;
  ctx.events.onEverywhere("schedule.changed", () => {
    waiting = undefined;
  });
  ctx.events.on("message.created", async (p) => {
    if (p.message.fromMe || p.ticket.isGroup) return;
    if (!waiting || Date.now() - waiting.at > 10_000) waiting = { at: Date.now(), any: anyWaitingForReply(ctx.db) };
    const any = await waiting.any.catch(() => true);
    if (any) await cancelOnCustomerReply(deps, p.message, p.ticket);
  });
  // number health moved a number's unsolicited work to its backup: its due schedules go now (their job sends through the backup)
  ctx.events.on("whatsapp.reroute", async (p) => {
    if ((await moveQueuedEarlier(ctx.db, SEND_JOB, dueScheduleKeys(p.from, new Date(p.at)), new Date(p.at))) > 0) jobs.wake();
  });
  host.routes(scheduleRoutes(deps, host.guard));
  host.onStart(() => life.start());
}
