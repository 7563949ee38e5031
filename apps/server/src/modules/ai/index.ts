import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Guards } from "../../http/guards.js";
import type { JobRunner } from "../../jobs/runner.js";
import type { Clock } from "../../lib/pace.js";
import type { BillingRegistry } from "../billing/registry.js";
import type { ConvDeps } from "../outbox/deps.js";
import { aiRoutes } from "./routes.js";
import { newAiLimiter } from "./service.js";
import { onMessageCreated, runTranscription, TRANSCRIBE_JOB, type TranscriptionDeps } from "./transcription.js";

/**
 * AI assist, wired in one call from the composition root: the transcription job and its listener
 * (a customer's stored voice note queues it), and the routes.
 */
export function registerAi(
  deps: { conv: ConvDeps; billing: BillingRegistry; jobs: JobRunner; clock: Clock; timeoutMs?: number },
  guard: Guards,
): FastifyPluginAsyncZod {
  const transcription: TranscriptionDeps = {
    conv: deps.conv,
    enqueueJob: (name, payload, opts) => deps.jobs.enqueue(name, payload, opts),
    timeoutMs: deps.timeoutMs,
  };
  deps.jobs.register<{ messageId: number }>(TRANSCRIBE_JOB, (p, job) => runTranscription(transcription, p, job));
  deps.conv.ctx.events.on("message.created", (p) => onMessageCreated(transcription, p.message));
  return aiRoutes(
    { conv: deps.conv, billing: deps.billing, limiter: newAiLimiter(deps.conv.ctx.cluster.store), timeoutMs: deps.timeoutMs },
    guard,
    deps.clock,
  );
}
