import { z } from "zod";

/**
 * Scheduled messages (document 001 §2, §3, §4, §5, §7, §9) and the message-sending API with its
 * /doc page. A schedule is `pending` until its time, then `sent` (stored in the ticket and queued
 * in the outbox), `canceled` (by an agent, or because the customer replied), or `failed` with the
 * reason ('atrasado' when the server was down past the grace, or the outbox's reason).
 */

export const SCHEDULE_STATUSES = ["pending", "sent", "canceled", "failed"] as const;
export const scheduleStatusSchema = z.enum(SCHEDULE_STATUSES);
export type ScheduleStatus = z.infer<typeof scheduleStatusSchema>;

/** §2: the screen's Status filter (Todos is no filter); 'Com erro' added for failed ones. */
export const SCHEDULE_FILTER_STATUSES = ["pending", "sent", "canceled", "failed"] as const;

/** §9: rows per page 10/25/50, default 10; messages cut at 45 characters in the list. */
export const SCHEDULE_PAGE_SIZES = [10, 25, 50] as const;
export const SCHEDULE_PAGE_SIZE_DEFAULT = 10;
export const SCHEDULE_TRUNCATE = 45;
/** `when` may be this much in the past (the dialog's "now" minus a slow click). */
export const SCHEDULE_PAST_TOLERANCE_MS = 60_000;
/** POST /schedules with a `when` already past: 400 ERR_VALIDATION, `fields.when: [SCHEDULE_IN_PAST]` (the dialog shows it at Hora). */
export const SCHEDULE_IN_PAST = "In the past";
/** the reason of a schedule found due after downtime longer than the grace */
export const SCHEDULE_LATE_REASON = "atrasado";
/** the reason of a schedule canceled because the customer replied first */
export const SCHEDULE_REPLIED_REASON = "cliente respondeu";
export const SCHEDULE_MAX_MESSAGE = 4096;

export const scheduleSchema = z.object({
  id: z.number(),
  ticketId: z.number().nullable(),
  contactId: z.number().nullable(),
  customerNumber: z.string(),
  userId: z.number().nullable(),
  /** the author's name, for display ('ID {userId}' when the user is gone) */
  userName: z.string().nullable(),
  /** the contact's name, for display */
  contactName: z.string().nullable(),
  /** the connection it goes out through (the ticket's) */
  whatsappId: z.number().nullable(),
  whatsappName: z.string().nullable(),
  message: z.string(),
  /** ISO instant */
  when: z.string(),
  status: scheduleStatusSchema,
  reason: z.string(),
  cancelOnReply: z.boolean(),
  /** sent signed with the author's name (the chat's 'Assinar') */
  sign: z.boolean(),
  messageId: z.number().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const scheduleCreateBody = z.object({
  ticketId: z.coerce.number().int().positive(),
  /** sent by the original client; the server takes both from the ticket */
  contactId: z.coerce.number().int().positive().optional().nullable(),
  customerNumber: z.string().max(50).optional().nullable(),
  /** sent by the original client; the author is the signed-in user */
  userId: z.coerce.number().int().positive().optional().nullable(),
  message: z.string().max(SCHEDULE_MAX_MESSAGE, "Too Long!"),
  /** "YYYY-MM-DDTHH:mm[:ss]" in the product's time zone, or with an explicit offset */
  when: z.string().trim().min(1, "Required").max(40),
  /** cancel it when the customer writes before it goes; absent: false (the original client never sends it; the dialog ticks it) */
  cancelOnReply: z.boolean().optional(),
  /** signed with the author's name, as the chat's 'Assinar' does (default true) */
  sign: z.boolean().optional(),
});
export type ScheduleCreateBody = z.input<typeof scheduleCreateBody>;

const dayBound = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?$/, "Invalid date");

export const schedulesQuery = z.object({
  ticketId: z.coerce.number().int().positive().optional(),
  status: z.union([z.literal(""), scheduleStatusSchema]).optional(),
  /** "YYYY-MM-DDT00:00:00" as the screen sends it (§5), in the product's time zone */
  from: z.union([z.literal(""), dayBound]).optional(),
  /** "YYYY-MM-DDT23:59:59": through the end of that second */
  to: z.union([z.literal(""), dayBound]).optional(),
});
export type SchedulesQuery = z.input<typeof schedulesQuery>;

/** The `schedule` socket event (to whoever may see the ticket's schedules). */
export type ScheduleUpdate = { action: "create" | "update"; schedule: Schedule } | { action: "delete"; scheduleId: number };

// ---------- the message API ----------

/** Digits only, with the country code: 12–13 digits for Brazil (55…), 11–15 elsewhere (1… for North America). */
export function isApiNumber(value: string): boolean {
  if (!/^[1-9]\d{10,14}$/.test(value)) return false;
  if (value.startsWith("55")) return value.length === 12 || value.length === 13;
  // North America: 1 + an area code that never starts with 0 or 1 (11… is a Brazilian number missing its 55)
  if (value.length === 11) return /^1[2-9]/.test(value);
  return true;
}

export const apiMessageSendBody = z.object({
  /** digits only with country code; any other shape answers ERR_WAPP_INVALID_CONTACT (checked by the server) */
  number: z.union([z.string().max(50), z.number()]).transform(String),
  body: z.string().max(SCHEDULE_MAX_MESSAGE, "Too Long!").default(""),
});
export type ApiMessageSendBody = z.input<typeof apiMessageSendBody>;

export const apiMessageSendAnswer = z.object({
  message: z.string(),
  /** the stored message's id (the first, with several files) */
  id: z.number(),
  ids: z.array(z.number()),
  ticketId: z.number(),
});
export type ApiMessageSendAnswer = z.infer<typeof apiMessageSendAnswer>;
