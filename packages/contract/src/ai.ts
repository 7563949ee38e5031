import { z } from "zod";

/**
 * AI assist for agents (any OpenAI-compatible server): reply suggestions, ticket summaries and
 * voice-note transcription. Off until an admin turns it on (setting `aiEnabled`).
 */

export const aiTicketParams = z.object({ ticketId: z.coerce.number().int().positive() });

/** POST /tickets/{ticketId}/ai/suggestions: three replies in the agent's language, ready to edit (nothing is sent). */
export const aiSuggestionsBody = z
  .object({
    /** the agent's interface language (pt-BR, en, es): the replies are written in it */
    language: z.enum(["pt-BR", "en", "es"]).optional(),
  })
  .default({});
export const aiSuggestionsAnswer = z.object({ suggestions: z.array(z.string()) });
export type AiSuggestionsAnswer = z.infer<typeof aiSuggestionsAnswer>;

/** POST /tickets/{ticketId}/ai/summary: who the customer is, what they asked, what was done, what is pending. */
export const aiSummaryBody = aiSuggestionsBody;
export const aiSummaryAnswer = z.object({ summary: z.string() });
export type AiSummaryAnswer = z.infer<typeof aiSummaryAnswer>;

/** POST /ai/test ('Testar' in the settings): the typed values; a blank key means the saved one (sent only to the saved address). */
export const aiTestBody = z
  .object({
    baseUrl: z.string().max(500).optional(),
    apiKey: z.string().max(500).optional(),
    model: z.string().max(200).optional(),
    transcriptionModel: z.string().max(200).optional(),
  })
  .default({});
export const aiTestAnswer = z.object({
  ok: z.boolean(),
  /** what the server said, or what went wrong, in Portuguese */
  detail: z.string(),
  /** the models the server lists (GET /models), when it answered */
  models: z.array(z.string()),
});
export type AiTestAnswer = z.infer<typeof aiTestAnswer>;

export const AI_CALL_KINDS = ["suggestions", "summary", "transcription", "test"] as const;
export type AiCallKind = (typeof AI_CALL_KINDS)[number];

/** One AI call as recorded (never its content). */
export const aiCallSchema = z.object({
  id: z.number(),
  kind: z.enum(AI_CALL_KINDS),
  userId: z.number().nullable(),
  userName: z.string(),
  ticketId: z.number().nullable(),
  messageId: z.number().nullable(),
  /** characters sent to the AI server */
  charsOut: z.number(),
  latencyMs: z.number(),
  /** "ok" or the ERR_AI_* code */
  status: z.string(),
  /** the address's host the call went to */
  host: z.string(),
  createdAt: z.string(),
});
export type AiCall = z.infer<typeof aiCallSchema>;
export const aiCallsQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(10_000).default(1),
  ticketId: z.coerce.number().int().positive().optional(),
});
export const aiCallsAnswer = z.object({ calls: z.array(aiCallSchema), count: z.number(), hasMore: z.boolean() });
export type AiCallsAnswer = z.infer<typeof aiCallsAnswer>;

/** Per-user limit of suggestion and summary requests. */
export const AI_RATE_PER_MINUTE = 20;
/** How long the server waits for the AI server (chat and test calls). */
export const AI_TIMEOUT_MS = 20_000;
