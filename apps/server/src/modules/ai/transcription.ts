import type { Message } from "@balcao/contract";
import { and, eq, isNull } from "drizzle-orm";
import { messages } from "../../db/schema/index.js";
import type { JobRow } from "../../jobs/runner.js";
import type { EnqueueOptions } from "../../jobs/runner.js";
import { publishMessage } from "../messages/queries.js";
import type { ConvDeps } from "../outbox/deps.js";
import { AiError, hostOf, transcribe } from "./client.js";
import { aiSettings, recorded } from "./service.js";

/**
 * A customer's voice note gets its text: a job queued after the message is stored (the inbox never
 * waits for it), POST {aiBaseUrl}/audio/transcriptions with the stored file, retried on 429, 5xx,
 * timeouts and network failures with the runner's backoff; the text lands on the message and goes
 * out through the socket's message update.
 */

export const TRANSCRIBE_JOB = "ai.transcribe";
const MAX_ATTEMPTS = 4;
/** what the OpenAI endpoint takes in one request */
const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** the file name's extension tells the server the format (WhatsApp voice notes are Ogg/Opus) */
const AUDIO_EXT: Record<string, string> = {
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/webm": "webm",
  "audio/flac": "flac",
};

export interface TranscriptionDeps {
  conv: ConvDeps;
  enqueueJob: (name: string, payload: unknown, opts?: EnqueueOptions) => Promise<number | undefined>;
  /** the AI server's timeout (default 60 s for audio; tests shorten it) */
  timeoutMs?: number;
}

const isCustomerAudio = (m: Pick<Message, "fromMe" | "mediaType" | "mediaUrl" | "isDeleted">) =>
  !m.fromMe && m.mediaType === "audio" && Boolean(m.mediaUrl) && !m.isDeleted;

/** Listener of message.created: queues the job when transcription is configured. */
export async function onMessageCreated(deps: TranscriptionDeps, message: Message): Promise<void> {
  if (!isCustomerAudio(message)) return;
  const s = await aiSettings(deps.conv.ctx.db);
  if (!s.enabled || !s.transcriptionModel) return;
  await deps.enqueueJob(
    TRANSCRIBE_JOB,
    { messageId: message.id },
    { singletonKey: `${TRANSCRIBE_JOB}:${message.id}`, maxAttempts: MAX_ATTEMPTS },
  );
}

export async function runTranscription(deps: TranscriptionDeps, payload: { messageId: number }, job: JobRow): Promise<void> {
  const { ctx, media } = deps.conv;
  const [m] = await ctx.db
    .select({
      id: messages.id,
      ticketId: messages.ticketId,
      mediaKey: messages.mediaKey,
      mimetype: messages.mimetype,
      transcription: messages.transcription,
      isDeleted: messages.isDeleted,
    })
    .from(messages)
    .where(eq(messages.id, payload.messageId));
  if (!m || m.transcription !== null || m.isDeleted || !m.mediaKey) return;
  // turned off (or the model cleared) since it was queued: nothing leaves
  const s = await aiSettings(ctx.db);
  if (!s.enabled || !s.transcriptionModel) return;
  const audio = await media.read(m.mediaKey);
  if (!audio || audio.length === 0 || audio.length > MAX_AUDIO_BYTES) return;
  const mimetype = (m.mimetype ?? "audio/ogg").split(";")[0].trim();
  const fileName = `voice.${AUDIO_EXT[mimetype] ?? "ogg"}`;
  let text: string;
  try {
    text = await recorded(
      ctx,
      { kind: "transcription", user: null, ticketId: m.ticketId, messageId: m.id, charsOut: audio.length, host: hostOf(s.baseUrl) },
      () =>
        transcribe(
          { ...s, timeoutMs: deps.timeoutMs, allow: ctx.config.allowedPrivateHosts },
          s.transcriptionModel,
          audio,
          fileName,
          mimetype,
        ),
    );
  } catch (err) {
    // 401, quota, a wrong model: trying again will not help (the record shows why)
    if (err instanceof AiError && !err.transient) {
      ctx.log.warn({ messageId: m.id, code: err.code, attempt: job.attempts }, "voice note not transcribed");
      return;
    }
    throw err;
  }
  const [updated] = await ctx.db
    .update(messages)
    .set({ transcription: text.slice(0, 20_000), updatedAt: new Date() })
    .where(and(eq(messages.id, m.id), isNull(messages.transcription)))
    .returning({ id: messages.id });
  if (updated) await publishMessage(ctx, m.id, "updated");
}
