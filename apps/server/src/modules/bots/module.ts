import { disparoDepsOf } from "../disparos/module.js";
import { BOTS_INBOUND_JOB } from "../messages/inbound.js";
import { createInboundConfig } from "../messages/inbound-config.js";
import type { ModuleHost } from "../../module-host.js";
import type { BotDeps } from "./deps.js";
import {
  createBotSteps,
  isOptOutAnswer,
  runMissedSteps,
  runSelfServiceJob,
  runTypebotTurn,
  SELF_SERVICE_JOB,
  TYPEBOT_JOB,
} from "./service.js";

/**
 * The bots: their steps after each committed customer message (in order: opt-out, chat entries,
 * self-service, Typebot, the queue menu), the Typebot and self-service turns and the missed-steps
 * safety net on the job runner. Sets the message builder's hooks.
 */
export function register(host: ModuleHost): void {
  const { jobs } = host;
  const deps: BotDeps = {
    conv: host.conv,
    clock: host.tuning.botClock ?? host.clock,
    disparos: disparoDepsOf(host),
    enqueueJob: (name, payload, opts) => jobs.enqueue(name, payload, opts),
    billing: host.billing,
    config: createInboundConfig(host.ctx),
  };
  jobs.register<{ ticketId: number; messageId: number }>(TYPEBOT_JOB, (p, job) => runTypebotTurn(deps, p, job));
  jobs.register<{ ticketId: number; messageId: number | null }>(SELF_SERVICE_JOB, (p, job) => runSelfServiceJob(deps, p, job));
  const { afterMessage, plan } = createBotSteps(deps);
  jobs.register<{ messageId: number; ticketId: number }>(BOTS_INBOUND_JOB, (p) => runMissedSteps(deps, afterMessage, p));
  // the message builder runs them (modules/messages reads the host's hooks: the bots register first)
  host.inbound.hooks = { afterMessage, plan, quiet: isOptOutAnswer };
}
