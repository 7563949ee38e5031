import type { Clock } from "../../lib/pace.js";
import type { BillingRegistry } from "../billing/registry.js";
import type { DisparoDeps } from "../disparos/service.js";
import { BOTS_INBOUND_JOB, type MessageBuilderHooks } from "../messages/inbound.js";
import { createInboundConfig } from "../messages/inbound-config.js";
import type { ModuleHost } from "../module.js";
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
 * safety net on the job runner. Answers the message builder's hooks.
 */
export function register(host: ModuleHost, o: { clock: Clock; disparos: DisparoDeps; billing: BillingRegistry }): MessageBuilderHooks {
  const { jobs } = host;
  const deps: BotDeps = {
    conv: host.conv,
    clock: o.clock,
    disparos: o.disparos,
    enqueueJob: (name, payload, opts) => jobs.enqueue(name, payload, opts),
    billing: o.billing,
    config: createInboundConfig(host.ctx),
  };
  jobs.register<{ ticketId: number; messageId: number }>(TYPEBOT_JOB, (p, job) => runTypebotTurn(deps, p, job));
  jobs.register<{ ticketId: number; messageId: number | null }>(SELF_SERVICE_JOB, (p, job) => runSelfServiceJob(deps, p, job));
  const { afterMessage, plan } = createBotSteps(deps);
  jobs.register<{ messageId: number; ticketId: number }>(BOTS_INBOUND_JOB, (p) => runMissedSteps(deps, afterMessage, p));
  return { afterMessage, plan, quiet: isOptOutAnswer };
}
