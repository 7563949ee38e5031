import {
  type AuditAction,
  type AuditAnswer,
  type AuditEntry,
  AUDIT_PAGE_SIZE,
  AUDIT_RETENTION_MIN_DAYS,
  type AuditQuery,
  SECRET_SETTING_KEYS,
} from "@balcao/contract";
import { and, desc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { auditEntries } from "../../db/schema/index.js";
import { iso } from "../../lib/sql.js";

/**
 * The audit log: the one way entries are written (`recordAudit`, called by services, in their
 * transaction where there is one), read (`listAudit`, `auditCsv`) and purged (`purgeAudit`, the
 * retention job: the only deleter, see the trigger in the migration). No route changes an entry.
 */

/** Who acted: a signed-in user (with the request's address), or null for the system. */
export type AuditActor = { id: number | null; name: string; ip?: string } | null;

export interface AuditInput {
  actor: AuditActor;
  action: AuditAction;
  /** "<kind>:<id>" */
  target?: string;
  /** the contact the action concerns (the LGPD export lists these) */
  contactId?: number | null;
  before?: unknown;
  after?: unknown;
  /** the address, when the actor has none (a failed sign-in) */
  ip?: string;
}

const REDACTED = "[redacted]";
/** keys whose values are never stored in before/after */
const SECRET_KEY = /pass(word)?|secret|token|apikey|api_key|hash/i;

/** A copy of `value` with every secret replaced: keys that look secret, and the secret settings by key. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined || depth > 6) return value ?? null;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  const obj = value as Record<string, unknown>;
  // a setting as { key, value }: a secret setting's value never goes in
  const settingKey = typeof obj.key === "string" ? obj.key : undefined;
  for (const [k, v] of Object.entries(obj)) {
    if (SECRET_KEY.test(k) && v !== "" && v !== null && v !== undefined && typeof v !== "boolean") out[k] = REDACTED;
    else if (k === "value" && settingKey && (SECRET_SETTING_KEYS as readonly string[]).includes(settingKey)) out[k] = v ? REDACTED : "";
    else out[k] = redactSecrets(v, depth + 1);
  }
  return out;
}

/**
 * Keys that hold a customer's data or a message's text. An entry about a contact describes what was
 * done by reference (ids, field names); these values never go in, whatever a writer passes, so the
 * contact's erasure has no copy to chase in an append-only table.
 */
const PERSONAL_KEY =
  /^(body|text|message|caption|transcription|number|lid|email|name|nome|cpf|cnpj|document|phone|telefone|value|extraInfo)$/i;

/** A copy of `value` without the values of personal keys (an entry about a contact). */
export function withoutPersonal(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined || depth > 6) return value ?? null;
  if (Array.isArray(value)) return value.map((v) => withoutPersonal(v, depth + 1));
  if (typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    // a list of names (the fields changed) is kept: only values go
    if (PERSONAL_KEY.test(k) && !(Array.isArray(v) && v.every((x) => typeof x === "string") && k === "extraInfo")) continue;
    out[k] = withoutPersonal(v, depth + 1);
  }
  return out;
}

export async function recordAudit(db: DbOrTx, e: AuditInput): Promise<void> {
  const about = e.contactId != null ? withoutPersonal : (v: unknown) => v;
  await db.insert(auditEntries).values({
    userId: e.actor?.id ?? null,
    userName: e.actor?.name ?? "",
    action: e.action,
    target: e.target ?? "",
    contactId: e.contactId ?? null,
    before: e.before === undefined ? null : redactSecrets(about(e.before)),
    after: e.after === undefined ? null : redactSecrets(about(e.after)),
    ip: e.ip ?? e.actor?.ip ?? "",
  });
}

/** `from`/`to`: an instant, or a day (YYYY-MM-DD: `to` takes the whole day, UTC). Unreadable dates are ignored. */
function dayBound(v: string | undefined, end: boolean): Date | undefined {
  if (!v) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const d = new Date(day ? `${v}T${end ? "23:59:59.999" : "00:00:00.000"}Z` : v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function whereOf(q: AuditQuery): SQL | undefined {
  const from = dayBound(q.from, false);
  const to = dayBound(q.to, true);
  return and(
    q.action ? eq(auditEntries.action, q.action) : undefined,
    q.userId ? eq(auditEntries.userId, Number(q.userId)) : undefined,
    from ? gte(auditEntries.at, from) : undefined,
    to ? lte(auditEntries.at, to) : undefined,
  );
}

type Row = typeof auditEntries.$inferSelect;
function toEntry(r: Row): AuditEntry {
  return {
    id: r.id,
    at: iso(r.at),
    userId: r.userId,
    userName: r.userName,
    action: r.action,
    target: r.target,
    ...(r.before !== null && { before: r.before }),
    ...(r.after !== null && { after: r.after }),
    ip: r.ip,
  };
}

/** GET /audit: newest first, AUDIT_PAGE_SIZE a page; hasMore from one row read past the page. */
export async function listAudit(db: DbOrTx, q: AuditQuery): Promise<AuditAnswer> {
  const where = whereOf(q);
  const page = q.pageNumber;
  const [rows, [{ n }]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(AUDIT_PAGE_SIZE + 1)
      .offset((page - 1) * AUDIT_PAGE_SIZE),
    db.select({ n: sql<number>`count(*)::int` }).from(auditEntries).where(where),
  ]);
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE).map(toEntry), count: n, hasMore: rows.length > AUDIT_PAGE_SIZE };
}

/** A CSV cell: quoted when needed, and a text a spreadsheet would run as a formula (= + - @ tab CR) starts with ' (OWASP). */
export function csvCell(v: string | number | null | undefined): string {
  const s = v == null ? "" : String(v);
  const safe = typeof v === "string" && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",;\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const AUDIT_CSV_MAX_ROWS = 100_000;

/** GET /audit/export: the filtered entries as CSV (newest first, at most AUDIT_CSV_MAX_ROWS). */
export async function auditCsv(db: DbOrTx, q: AuditQuery): Promise<string> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(whereOf(q))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(AUDIT_CSV_MAX_ROWS);
  const lines = [["id", "at", "userId", "userName", "action", "target", "before", "after", "ip"].join(",")];
  for (const r of rows) {
    lines.push(
      [
        r.id,
        iso(r.at),
        r.userId,
        r.userName,
        r.action,
        r.target,
        r.before === null ? "" : JSON.stringify(r.before),
        r.after === null ? "" : JSON.stringify(r.after),
        r.ip,
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** The actions the customer's own export reports: what was done with their data. */
const CUSTOMER_ACTIONS: readonly AuditAction[] = [
  "contact.update",
  "contact.export",
  "contact.erase",
  "contract.send",
  "contract.delete",
  "billing.unlock",
  "message.delete",
  "ticket.delete",
];

/** One line of the customer's export: when, what, on which record, and which of their fields. */
export interface CustomerAuditEntry {
  at: string;
  action: AuditAction;
  target: string;
  fields?: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/**
 * The entries about a contact as the customer's export (LGPD art. 18) tells them: what was done with
 * their data and when. Nothing internal: no staff names or addresses, no routing, nothing about
 * internal notes (a deleted note is the team's), no before/after values.
 */
export async function auditForCustomer(db: DbOrTx, contactId: number): Promise<CustomerAuditEntry[]> {
  const rows = await db
    .select({
      at: auditEntries.at,
      action: auditEntries.action,
      target: auditEntries.target,
      before: auditEntries.before,
      after: auditEntries.after,
    })
    .from(auditEntries)
    .where(and(eq(auditEntries.contactId, contactId), inArray(auditEntries.action, [...CUSTOMER_ACTIONS])))
    .orderBy(auditEntries.at, auditEntries.id);
  const out: CustomerAuditEntry[] = [];
  for (const r of rows) {
    const before = (r.before ?? {}) as Record<string, unknown>;
    if (r.action === "message.delete" && before.source === "note") continue;
    const after = (r.after ?? {}) as Record<string, unknown>;
    const fields = r.action === "contact.update" ? [...strings(after.fields), ...strings(after.extraInfo)] : [];
    out.push({ at: iso(r.at), action: r.action as AuditAction, target: r.target, ...(fields.length && { fields }) });
  }
  return out;
}

/**
 * The retention purge, the only deleter of audit entries: in its own transaction it tells the
 * append-only trigger so (`balcao.audit_purge`, local to the transaction), then deletes what is
 * older than `days`. 0 days keeps everything.
 */
export async function purgeAudit(db: DbOrTx, days: number, now: Date): Promise<number> {
  if (!(days > 0)) return 0;
  // never fewer than the floor, whatever an older installation stored (the setting refuses less now)
  const cutoff = new Date(now.getTime() - Math.max(days, AUDIT_RETENTION_MIN_DAYS) * 86_400_000);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('balcao.audit_purge', 'on', true)`);
    const gone = await tx.delete(auditEntries).where(lte(auditEntries.at, cutoff)).returning({ id: auditEntries.id });
    return gone.length;
  });
}

/** GET /audit/export: the CSV, and an entry saying who exported what. */
export async function exportAuditCsv(db: DbOrTx, actor: { id: number; name: string; ip?: string }, q: AuditQuery): Promise<string> {
  const csv = await auditCsv(db, q);
  await recordAudit(db, {
    actor,
    action: "audit.export",
    target: "audit",
    after: { action: q.action ?? null, userId: q.userId ?? null, from: q.from ?? null, to: q.to ?? null },
  });
  return csv;
}
