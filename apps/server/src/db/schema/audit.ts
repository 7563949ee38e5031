import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The audit log (modules/audit): who did what, when, from where. Append-only: a trigger
 * (hand-written in the migration) refuses every UPDATE and DELETE, except the retention purge,
 * which deletes old rows inside a transaction that set `balcao.audit_purge = 'on'`
 * (modules/audit/service.ts `purgeAudit`). No foreign keys: a deleted user or contact leaves its
 * entries as they were (a cascade would be an UPDATE the trigger refuses).
 */
export const auditEntries = pgTable(
  "audit_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** the actor; null for the system (jobs) and for a failed sign-in of an unknown e-mail */
    userId: integer("user_id"),
    /** the actor's name (or the e-mail typed at a sign-in) when it happened */
    userName: text("user_name").notNull().default(""),
    /** e.g. "auth.login", "settings.update", "ticket.transfer" (AUDIT_ACTIONS in the contract) */
    action: text("action").notNull(),
    /** "<kind>:<id>", e.g. "ticket:12", "setting:mail_host"; empty when the action has none */
    target: text("target").notNull().default(""),
    /** the contact the action concerns (LGPD export: the entries about a contact) */
    contactId: integer("contact_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    ip: text("ip").notNull().default(""),
  },
  (t) => [
    index("audit_entries_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_entries_action_idx").on(t.action, t.at.desc()),
    index("audit_entries_user_idx").on(t.userId, t.at.desc()),
    index("audit_entries_contact_idx").on(t.contactId),
  ],
);
