import type { ModuleHost } from "../../module-host.js";
import { incidentRoutes } from "./routes.js";
import { CLOSE_TICKETS_JOB, forgetOpenLook, type IncidentDeps, NOTIFY_JOB, runCloseTickets, runNotify, sweepNotify } from "./service.js";

/**
 * Incidents (outage mode): the routes, the per-connection "normalizado" job at the unsolicited
 * pace and its minute sweep, and the close-their-tickets job. The notice step itself is the bots'
 * first step (bots/steps/incident.ts).
 */
export function register(host: ModuleHost): void {
  const { ctx, conv, jobs, clock, channels } = host;
  const deps: IncidentDeps = { conv, clock, random: Math.random, wakeRunner: () => jobs.wake() };
  jobs.register<{ whatsappId: number }>(NOTIFY_JOB, (p, job) => runNotify(deps, p.whatsappId, job.id));
  jobs.register<{ incidentId: number; userId: number }>(CLOSE_TICKETS_JOB, (p) => runCloseTickets(deps, p));
  jobs.every("incidents.sweep", 60_000, () => sweepNotify(deps));
  // the per-message "is an incident open?" look (service.ts) is read again after any change, on every process
  ctx.events.onEverywhere("incident.changed", () => forgetOpenLook(ctx));
  channels.onStatus((whatsappId, e) => {
    if (e.status === "CONNECTED") sweepNotify(deps, whatsappId).catch((err) => ctx.log.error({ err }, "incident notify wake failed"));
  });
  host.routes(incidentRoutes(deps, host.guard));
}
