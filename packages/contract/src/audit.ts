import { z } from "zod";
import { idText, MAX_PAGE } from "./validation.js";

/** What the audit log records (modules/audit on the server); the screen's action filter lists them. */
export const AUDIT_ACTIONS = [
  "auth.login",
  "auth.loginFailed",
  "user.create",
  "user.update",
  "user.delete",
  "settings.update",
  "settings.unlock",
  "ticket.transfer",
  "ticket.delete",
  "message.delete",
  "contact.update",
  "contact.delete",
  "contact.export",
  "contact.erase",
  "audit.export",
  "contract.send",
  "contract.delete",
  "billing.unlock",
  "disparo.start",
  "disparo.cancel",
  "media.purge",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One entry of GET /audit. `target` is "<kind>:<id>" (e.g. "ticket:12", "setting:mail_host"); secrets never appear in before/after. */
export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  userId: z.number().nullable(),
  userName: z.string(),
  action: z.string(),
  target: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  ip: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /audit and GET /audit/export: `from` / `to` are ISO instants or YYYY-MM-DD days (to: the whole day). */
export const auditQuery = z.object({
  action: z.string().max(60).optional(),
  userId: idText.optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  pageNumber: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const AUDIT_PAGE_SIZE = 50;

export const auditAnswer = z.object({ entries: z.array(auditEntrySchema), count: z.number(), hasMore: z.boolean() });
export type AuditAnswer = z.infer<typeof auditAnswer>;

/** POST /contacts/{id}/erase: what was erased and what the law makes Balcão keep. */
export const contactEraseAnswer = z.object({
  erased: z.literal(true),
  messages: z.number(),
  mediaFiles: z.number(),
  /** signed contracts are kept (legal obligation, LGPD art. 16 I): their count */
  keptSignedContracts: z.number(),
});
export type ContactEraseAnswer = z.infer<typeof contactEraseAnswer>;

/** The `mention` socket event: a note in a ticket named the user (`@Name`). */
export interface MentionEvent {
  ticketId: number;
  messageId: number;
  byUserId: number;
  byName: string;
  body: string;
}
