import type { ModuleHost } from "../../module-host.js";
import { HealthGate } from "./gate.js";
import { sendAlertMail } from "./mail.js";
import { type HealthDeps, healthRoutes } from "./routes.js";
import * as service from "./service.js";

/**
 * Number health: the sender's gate (pause, daily cap, warm-up), the follow-ups of a number going
 * down, coming up or being paused (its unsolicited work moves to the backup), the admins' alert
 * e-mail, the minute's sweep (reroutes missed, refusals counted) and the routes.
 */

export const SWEEP_JOB = "health.sweep";
export const CLEANUP_JOB = "health.cleanup";

export function register(host: ModuleHost): void {
  const { ctx, conv, jobs, clock } = host;
  host.sender.setGate(new HealthGate(ctx));

  const reroute = async (whatsappId: number) => {
    await service.rerouteFrom(ctx, whatsappId, clock.now());
  };
  // the session's status, recorded one after the other per number (a logout's own event and the route's may cross)
  const recording = new Map<number, Promise<void>>();
  ctx.events.on("whatsapp.session", (p) => {
    const next = (recording.get(p.id) ?? Promise.resolve())
      .then(() => service.statusChanged(ctx, p.id, p.previous, { status: p.status, reason: p.reason }))
      .catch((err) => ctx.log.error({ err, whatsappId: p.id }, "number health: status not recorded"))
      .finally(() => {
        if (recording.get(p.id) === next) recording.delete(p.id);
      });
    recording.set(p.id, next);
    return next;
  });

  ctx.events.on("whatsapp.health", async (p) => {
    if (p.left || p.alert) await reroute(p.whatsappId);
    if (p.joined) {
      // resumed or back: its queued rows may go; numbers it backs up may hand it their work
      conv.outbox.wake(p.whatsappId);
      for (const primary of await service.primariesOf(ctx.db, p.whatsappId)) await reroute(primary);
    }
  });
  // a backup named, a cap raised: look again
  ctx.events.on("whatsapp.saved", async ({ whatsapp }) => {
    conv.outbox.wake(whatsapp.id);
    await reroute(whatsapp.id);
  });

  jobs.register(service.ALERT_MAIL_JOB, (p: { whatsappId: number; reason: string }) => sendAlertMail(ctx, p));
  jobs.every(SWEEP_JOB, 60_000, async () => {
    for (const id of await service.withBackup(ctx.db)) await reroute(id);
    for (const id of await service.unpaused(ctx.db)) await service.checkBlocks(ctx, id);
  });
  jobs.every(CLEANUP_JOB, 24 * 3600_000, () => service.cleanup(ctx.db, clock.now()));

  const deps: HealthDeps = {
    ctx,
    async resume(whatsappId) {
      return service.resumeNumber(ctx, whatsappId);
    },
  };
  host.routes(healthRoutes(deps, host.guard));
}
