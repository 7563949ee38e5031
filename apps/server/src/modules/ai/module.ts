import type { ModuleHost } from "../../module-host.js";
import { aiRoutes } from "./routes.js";
import { newAiLimiter } from "./service.js";
import { onMessageCreated, runTranscription, TRANSCRIBE_JOB, type TranscriptionDeps } from "./transcription.js";

/**
 * AI assist: the transcription job and its listener
 * (a customer's stored voice note queues it), and the routes.
 */
export function register(host: ModuleHost): void {
  const { conv, jobs, clock } = host;
  const timeoutMs = host.tuning.aiTimeoutMs;
  const transcription: TranscriptionDeps = {
    conv,
    enqueueJob: (name, payload, opts) => jobs.enqueue(name, payload, opts),
    timeoutMs,
  };
  jobs.register<{ messageId: number }>(TRANSCRIBE_JOB, (p, job) => runTranscription(transcription, p, job));
  conv.ctx.events.on("message.created", (p) => onMessageCreated(transcription, p.message));
  host.routes(aiRoutes({ conv, billing: host.billing, limiter: newAiLimiter(conv.ctx.cluster.store), timeoutMs }, host.guard, clock));
}
