import { CONTACTS_COUNT_CAP, type Contact, type ContactUpdateBody, contactBody, normalizeNumber, parseCsv } from "@balcao/contract";
import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { auditLog, contactExtraInfo, contactTags, contacts, tags, tickets } from "../../db/schema/index.js";
import { recordAudit } from "../audit/service.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";
import { containsPattern, intLiteral, iso, likeEscape, pageWindow } from "../../lib/sql.js";
import { canSee, visibleTo } from "../access/visibility.js";

type ContactRow = typeof contacts.$inferSelect;

/** What a Contact is made of: a contact row (Drizzle's, or a plain statement's with its times as text). */
type ContactFields = Pick<ContactRow, "id" | "name" | "number" | "lid" | "email" | "profilePicUrl" | "isGroup"> & {
  erasedAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
};

/** One mapping from a contact row to the API's Contact (extra info and tags when loaded). */
export function contactOf(r: ContactFields, extras: Pick<Contact, "extraInfo" | "tags"> = { extraInfo: [], tags: [] }): Contact {
  return {
    id: r.id,
    name: r.name,
    number: r.number,
    lid: r.lid,
    email: r.email,
    profilePicUrl: r.profilePicUrl,
    isGroup: r.isGroup,
    ...(r.erasedAt && { erasedAt: iso(r.erasedAt) }),
    ...extras,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/**
 * A contact's columns with its extra info (in the order written) and tags (by name) as JSON: the one
 * shape the list's page and a single contact are read with (`from contacts`).
 */
const WITH_EXTRAS = sql.raw(`id, name, number, lid, email, profile_pic_url, is_group, erased_at, created_at, updated_at,
  (select json_agg(json_build_object('id', i.id, 'name', i.name, 'value', i.value) order by i.id)
     from contact_extra_info i where i.contact_id = contacts.id) as extra_info,
  (select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
     from contact_tags ct join tags tg on tg.id = ct.tag_id where ct.contact_id = contacts.id) as tags`);

/** One contact with its extra info and tags, in one statement; undefined when there is none. */
async function loadContact(db: DbOrTx, id: number): Promise<Contact | undefined> {
  const { rows } = await db.execute<ContactSqlRow>(sql`select ${WITH_EXTRAS} from contacts where id = ${id}`);
  return rows[0] && contactOfSqlRow(rows[0]);
}

/**
 * Who may read and write a contact: supervisors and admins all; an agent only a contact with no
 * ticket at all or with a ticket the agent may see (their own, of their queues, or not yet
 * routed) — the tickets' rule, so an agent cannot retarget another queue's customer.
 */
export function contactAccess(user: SessionUser): SQL | undefined {
  if (user.profile === "admin" || user.profile === "superv") return undefined;
  return sql`(not exists (select 1 from ${tickets} where ${tickets.contactId} = ${contacts.id}) or exists (select 1 from ${tickets} where ${tickets.contactId} = ${contacts.id} and ${visibleTo(user) ?? sql`true`}))`;
}

/** ERR_NO_CONTACT_FOUND when it does not exist, ERR_NO_PERMISSION when the user may not touch it. */
export async function assertContactAccess(db: DbOrTx, user: SessionUser, id: number): Promise<void> {
  const access = contactAccess(user);
  const [row] = await db
    .select({ id: contacts.id, allowed: access ? sql<boolean>`${access}` : sql<boolean>`true` })
    .from(contacts)
    .where(eq(contacts.id, id));
  if (!row) throw new AppError("ERR_NO_CONTACT_FOUND");
  if (!row.allowed) throw new AppError("ERR_NO_PERMISSION");
}

/** Admins and supervisors touch every contact, whatever its tickets. */
export function seesEveryContact(user: Pick<SessionUser, "profile">): boolean {
  return user.profile === "admin" || user.profile === "superv";
}

/** Whether this user may see a contact whose tickets are routed like this (for socket events). */
export function contactVisible(user: SessionUser, routing: { queueId: number | null; userId: number | null }[]): boolean {
  if (seesEveryContact(user) || routing.length === 0) return true;
  return routing.some((t) => canSee(user, t));
}

/** GET /contacts/:id — for whoever may touch the contact. */
export async function contactFor(db: DbOrTx, user: SessionUser, id: number): Promise<Contact> {
  await assertContactAccess(db, user, id);
  return getContact(db, id);
}

export async function getContact(db: DbOrTx, id: number): Promise<Contact> {
  const contact = await loadContact(db, id);
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  return contact;
}

export async function listContacts(db: DbOrTx, user: SessionUser, q: { searchParam: string; pageNumber: number; rowsPerPage: number }) {
  const term = q.searchParam.trim();
  const digits = term.replace(/\D/g, "");
  // plain SQL with plain parameters: this runs on every keystroke of a search, and the query builder's
  // column and parameter objects cost more CPU than PostgreSQL spends on the page
  const conds: SQL[] = [];
  const access = contactAccess(user);
  if (access) conds.push(access);
  if (term) {
    // name and e-mail, lower-cased when written (contacts.search); the digits against the number. A term of
    // under 3 characters holds no trigram, so no index can find it: it is matched with strpos, which no index
    // serves, and its plan is always the walk of the name index, whatever the term — the same plan for every
    // term, so the statement is prepared (planned once per connection). A longer term goes as LIKE, for the
    // trigram indexes, and is planned for itself (a rare term: the index; a common one: the walk).
    const short = [...term].length < 3;
    const found = short ? sql`strpos(contacts.search, ${term.toLowerCase()}) > 0` : sql`contacts.search like ${containsPattern(term)}`;
    const byNumber = short ? sql`strpos(contacts.number, ${digits}) > 0` : sql`contacts.number like ${`%${likeEscape(digits)}%`}`;
    conds.push(digits ? sql`(${found} or ${byNumber})` : found);
  }
  const where = conds.length ? sql.join(conds, sql` and `) : sql`true`;
  const { offset, limit } = pageWindow(q.pageNumber, q.rowsPerPage);
  // one row past the page tells whether there is a next one; extra info and tags come in the same statement,
  // and so does the count when the page is not the last (PostgreSQL runs that subquery only then)
  const { rows: found } = await db.execute<ContactSqlRow>(sql`
    with page as materialized (
      select ${WITH_EXTRAS}, lower(name) as sort_name
      from contacts where ${where}
      order by lower(name), id
      limit ${intLiteral(limit + 1)} offset ${intLiteral(offset)}
    )
    select id, name, number, lid, email, profile_pic_url, is_group, erased_at, created_at, updated_at, extra_info, tags,
      case when (select count(*) from page) > ${intLiteral(limit)}
           then (select count(*) from (select 1 from contacts where ${where} limit ${intLiteral(CONTACTS_COUNT_CAP)}) as capped) end::int as total
    from page order by sort_name, id`);
  const hasMore = found.length > limit;
  const rows = hasMore ? found.slice(0, limit) : found;
  const counted = hasMore ? Number(found[0].total) : undefined;
  return { contacts: rows.map(contactOfSqlRow), count: await countContacts(db, where, offset, rows.length, counted), hasMore };
}

type ContactSqlRow = {
  id: number;
  name: string;
  number: string | null;
  lid: string | null;
  email: string;
  profile_pic_url: string;
  is_group: boolean;
  erased_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
  extra_info: Contact["extraInfo"] | string | null;
  tags: Contact["tags"] | string | null;
  total: number | null;
};

const jsonList = <T>(v: T[] | string | null): T[] => (v === null ? [] : typeof v === "string" ? (JSON.parse(v) as T[]) : v);

function contactOfSqlRow(r: ContactSqlRow): Contact {
  const { profile_pic_url: profilePicUrl, is_group: isGroup, erased_at: erasedAt, created_at: createdAt, updated_at: updatedAt } = r;
  return contactOf(
    { id: r.id, name: r.name, number: r.number, lid: r.lid, email: r.email, profilePicUrl, isGroup, erasedAt, createdAt, updatedAt },
    { extraInfo: jsonList(r.extra_info), tags: jsonList(r.tags) },
  );
}

/**
 * How many contacts match, counted up to CONTACTS_COUNT_CAP (a search on every keystroke does not
 * count thousands of rows): `count` is exact below the cap and means "at least this many" at it.
 * A page with more after it comes with its capped count (`counted`); the last page tells the
 * total without counting; only a page past the end counts on its own.
 */
async function countContacts(db: DbOrTx, where: SQL, offset: number, pageRows: number, counted: number | undefined): Promise<number> {
  // past the cap, this page and the row after it are known to exist
  if (counted !== undefined) return Math.max(counted, offset + pageRows + 1);
  if (pageRows > 0 || offset === 0) return offset + pageRows;
  const { rows } = await db.execute<{ total: number }>(
    sql`select count(*)::int as total from (select 1 from contacts where ${where} limit ${CONTACTS_COUNT_CAP}) as capped`,
  );
  return Number(rows[0].total);
}

async function writeExtras(db: DbOrTx, contactId: number, input: { extraInfo?: { name: string; value: string }[]; tagIds?: number[] }) {
  if (input.extraInfo !== undefined) {
    await db.delete(contactExtraInfo).where(eq(contactExtraInfo.contactId, contactId));
    if (input.extraInfo.length)
      await db.insert(contactExtraInfo).values(input.extraInfo.map((e) => ({ contactId, name: e.name, value: e.value })));
  }
  if (input.tagIds !== undefined) {
    const unique = [...new Set(input.tagIds)];
    if (unique.length) {
      const found = await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, unique));
      if (found.length !== unique.length) throw new AppError("ERR_NO_TAG_FOUND");
    }
    await db.delete(contactTags).where(eq(contactTags.contactId, contactId));
    if (unique.length) await db.insert(contactTags).values(unique.map((tagId) => ({ contactId, tagId })));
  }
}

function mapDuplicate(err: unknown): never {
  if (isUniqueViolation(err, "contacts_number_key") || isUniqueViolation(err, "contacts_lid_key"))
    throw new AppError("ERR_DUPLICATED_CONTACT");
  throw err;
}

type CreateInput = { name: string; number: string; email?: string; extraInfo?: { name: string; value: string }[]; tagIds?: number[] };

export async function createContact(ctx: AppContext, input: CreateInput): Promise<Contact> {
  const contact = await ctx.db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(contacts)
        .values({ name: input.name, number: input.number, email: input.email ?? "" })
        .returning();
      await writeExtras(tx, row.id, input);
      return getContact(tx, row.id);
    })
    .catch(mapDuplicate);
  ctx.events.publish("contact.saved", { action: "create", contact });
  return contact;
}

/** POST /contact: the contact with this number (when the user may touch it), created when there is none. */
export async function getOrCreateContact(ctx: AppContext, user: SessionUser, input: CreateInput): Promise<Contact> {
  const [existing] = await ctx.db.select().from(contacts).where(eq(contacts.number, input.number));
  if (existing) {
    await assertContactAccess(ctx.db, user, existing.id);
    return getContact(ctx.db, existing.id);
  }
  try {
    return await createContact(ctx, input);
  } catch (err) {
    // a concurrent request created it first
    if (err instanceof AppError && err.code === "ERR_DUPLICATED_CONTACT") {
      const [row] = await ctx.db.select().from(contacts).where(eq(contacts.number, input.number));
      if (row) {
        await assertContactAccess(ctx.db, user, row.id);
        return getContact(ctx.db, row.id);
      }
    }
    throw err;
  }
}

/** The names of the extra fields a new list adds, removes or changes (their values are not compared outside this). */
async function changedExtraNames(db: DbOrTx, contactId: number, next: { name: string; value: string }[]): Promise<string[]> {
  const rows = await db
    .select({ name: contactExtraInfo.name, value: contactExtraInfo.value })
    .from(contactExtraInfo)
    .where(eq(contactExtraInfo.contactId, contactId));
  const values = (list: { name: string; value: string }[]) => {
    const m = new Map<string, string[]>();
    for (const e of list) m.set(e.name, [...(m.get(e.name) ?? []), e.value]);
    return m;
  };
  const was = values(rows);
  const now = values(next);
  const names = new Set([...was.keys(), ...now.keys()]);
  return [...names].filter((n) => JSON.stringify(was.get(n) ?? []) !== JSON.stringify(now.get(n) ?? [])).sort();
}

/**
 * PUT /contacts/:id — for whoever may touch the contact. Audited by reference (which fields changed);
 * a change of number also goes to the contact's number history (who, from, to), which its erasure empties.
 */
export async function updateContact(ctx: AppContext, user: SessionUser, id: number, input: ContactUpdateBody): Promise<Contact> {
  const contact = await ctx.db
    .transaction(async (tx) => {
      await assertContactAccess(tx, user, id);
      const [before] = await tx
        .select({ name: contacts.name, number: contacts.number, email: contacts.email })
        .from(contacts)
        .where(eq(contacts.id, id))
        .for("update");
      if (!before) throw new AppError("ERR_NO_CONTACT_FOUND");
      const changed = (["name", "number", "email"] as const).filter((k) => input[k] !== undefined && input[k] !== before[k]);
      const extraChanged = input.extraInfo !== undefined ? await changedExtraNames(tx, id, input.extraInfo) : [];
      if (changed.length || extraChanged.length) {
        // by reference: which fields changed, never their values (the contact's data stays in its row,
        // where the erasure reaches it; the number's history is the contact's own audit_log, erased with it)
        await recordAudit(tx, {
          actor: user,
          action: "contact.update",
          target: `contact:${id}`,
          contactId: id,
          after: { fields: changed, ...(extraChanged.length && { extraInfo: extraChanged }) },
        });
      }
      if (input.number !== undefined && input.number !== before.number) {
        await tx.insert(auditLog).values({
          entity: "contact",
          entityId: id,
          field: "number",
          oldValue: before.number,
          newValue: input.number,
          actorId: user.id,
          actorName: user.name,
        });
      }
      const [row] = await tx
        .update(contacts)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.number !== undefined && { number: input.number }),
          ...(input.email !== undefined && { email: input.email }),
          updatedAt: new Date(),
        })
        .where(eq(contacts.id, id))
        .returning();
      if (!row) throw new AppError("ERR_NO_CONTACT_FOUND");
      await writeExtras(tx, id, input);
      return getContact(tx, id);
    })
    .catch(mapDuplicate);
  ctx.events.publish("contact.saved", { action: "update", contact });
  return contact;
}

/** GET /contacts/:id/audit — the contact's audited changes, newest first. */
export async function contactAudit(db: DbOrTx, id: number) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, "contact"), eq(auditLog.entityId, id)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id));
  return rows.map((r) => ({
    id: r.id,
    field: r.field,
    oldValue: r.oldValue,
    newValue: r.newValue,
    user: r.actorId !== null || r.actorName ? { id: r.actorId, name: r.actorName } : null,
    createdAt: iso(r.createdAt),
  }));
}

export async function deleteContact(ctx: AppContext, id: number, actor?: SessionUser): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .delete(contacts)
      .where(eq(contacts.id, id))
      .returning({ id: contacts.id, name: contacts.name, number: contacts.number });
    if (rows.length && actor) {
      await recordAudit(tx, {
        actor,
        action: "contact.delete",
        target: `contact:${id}`,
        contactId: id,
      });
    }
    return rows;
  });
  if (deleted.length === 0) throw new AppError("ERR_NO_CONTACT_FOUND");
  ctx.events.publish("contact.deleted", { contactId: id });
}

export async function deleteAllContacts(ctx: AppContext): Promise<number> {
  const deleted = await ctx.db.delete(contacts).returning({ id: contacts.id });
  ctx.events.publish("contact.deletedAll", {});
  return deleted.length;
}

// ---------- CSV import ----------

const HEADERS = {
  name: ["name", "nome", "contato", "contact"],
  number: ["number", "numero", "número", "telefone", "phone", "celular", "whatsapp", "fone"],
  email: ["email", "e-mail", "mail"],
};

export const IMPORT_MAX_ROWS = 10_000;

/**
 * Imports contacts from CSV text. The first row is a header when it names the columns
 * (name/nome, number/numero/telefone, email); otherwise the columns are name, number, email.
 * Each row is validated like the contact form; existing numbers are skipped, never overwritten.
 */
export async function importContacts(ctx: AppContext, text: string) {
  const rows = parseCsv(text.replace(/^\uFEFF/, ""));
  if (rows.length > IMPORT_MAX_ROWS + 1) throw new AppError("ERR_VALIDATION", 400, { file: [`At most ${IMPORT_MAX_ROWS} rows`] });
  let cols = { name: 0, number: 1, email: 2 };
  let start = 0;
  const header = rows[0]?.map((h) => h.trim().toLowerCase()) ?? [];
  const find = (names: string[]) => header.findIndex((h) => names.includes(h));
  if (find(HEADERS.number) >= 0) {
    cols = { name: find(HEADERS.name), number: find(HEADERS.number), email: find(HEADERS.email) };
    start = 1;
  }
  const report: ImportReport = { total: 0, created: 0, updated: 0, skipped: 0, errors: 0, rows: [] };
  const parsed: NewContact[] = [];
  for (let i = start; i < rows.length; i++) {
    const r = rows[i];
    const raw = {
      name: (r[cols.name] ?? "").trim(),
      number: (r[cols.number] ?? "").trim(),
      email: cols.email >= 0 ? (r[cols.email] ?? "").trim() : "",
    };
    report.total++;
    const result = contactBody.safeParse({ name: raw.name || raw.number, number: raw.number, email: raw.email });
    if (!result.success) {
      const issue = result.error.issues[0];
      report.errors++;
      report.rows.push({
        row: i + 1,
        status: "error",
        name: raw.name,
        number: raw.number,
        error: `${issue.path.join(".")}: ${issue.message}`,
      });
      continue;
    }
    parsed.push({ row: i + 1, name: result.data.name, number: result.data.number, email: result.data.email });
  }
  await insertNew(ctx, parsed, report);
  report.rows.sort((a, b) => a.row - b.row);
  if (report.created) ctx.events.publish("contact.imported", { created: report.created });
  return report;
}

export type ImportReport = { total: number; created: number; updated: number; skipped: number; errors: number; rows: ImportRow[] };
type NewContact = { row: number; name: string; number: string | null; lid?: string; email: string };

/** Inserts the contacts whose number (or LID) is not known yet; the others are skipped, never overwritten. */
async function insertNew(ctx: AppContext, parsed: NewContact[], report: ImportReport): Promise<void> {
  const existing = new Map<string, number>();
  const numbers = [...new Set(parsed.flatMap((p) => (p.number ? [p.number] : [])))];
  const lids = [...new Set(parsed.flatMap((p) => (p.lid ? [p.lid] : [])))];
  for (let i = 0; i < numbers.length; i += 1000) {
    const found = await ctx.db
      .select({ id: contacts.id, number: contacts.number })
      .from(contacts)
      .where(inArray(contacts.number, numbers.slice(i, i + 1000)));
    for (const f of found) if (f.number) existing.set(`pn:${f.number}`, f.id);
  }
  for (let i = 0; i < lids.length; i += 1000) {
    const found = await ctx.db
      .select({ id: contacts.id, lid: contacts.lid })
      .from(contacts)
      .where(inArray(contacts.lid, lids.slice(i, i + 1000)));
    for (const f of found) if (f.lid) existing.set(`lid:${f.lid}`, f.id);
  }
  const keysOf = (p: NewContact) => [...(p.number ? [`pn:${p.number}`] : []), ...(p.lid ? [`lid:${p.lid}`] : [])];
  const toInsert: NewContact[] = [];
  const seen = new Set<string>();
  for (const p of parsed) {
    const keys = keysOf(p);
    const known = keys.map((k) => existing.get(k)).find((id) => id !== undefined);
    if (known !== undefined || keys.some((k) => seen.has(k))) {
      report.skipped++;
      report.rows.push({
        row: p.row,
        status: "skipped",
        name: p.name,
        number: p.number ?? "",
        error: "ERR_DUPLICATED_CONTACT",
        contactId: known,
      });
      continue;
    }
    for (const k of keys) seen.add(k);
    toInsert.push(p);
  }
  for (let i = 0; i < toInsert.length; i += 500) {
    const chunk = toInsert.slice(i, i + 500);
    const inserted = await ctx.db
      .insert(contacts)
      .values(chunk.map((p) => ({ name: p.name, number: p.number, lid: p.lid ?? null, email: p.email })))
      .onConflictDoNothing()
      .returning({ id: contacts.id, number: contacts.number, lid: contacts.lid });
    const byKey = new Map<string, number>();
    for (const r of inserted) byKey.set(r.number ? `pn:${r.number}` : `lid:${r.lid}`, r.id);
    for (const p of chunk) {
      const id = byKey.get(keysOf(p)[0]);
      if (id) {
        report.created++;
        report.rows.push({ row: p.row, status: "created", name: p.name, number: p.number ?? "", contactId: id });
      } else {
        report.skipped++;
        report.rows.push({ row: p.row, status: "skipped", name: p.name, number: p.number ?? "", error: "ERR_DUPLICATED_CONTACT" });
      }
    }
  }
}

/**
 * Imports the people a connection's phone knows (its address book and chats, as the channel
 * learned them), in the CSV import's report shape: numbers (or LIDs) already known are skipped,
 * never overwritten; a contact without a name is named by its number.
 */
export async function importPhoneContacts(ctx: AppContext, known: { number?: string; lid?: string; name?: string }[]) {
  const report: ImportReport = { total: 0, created: 0, updated: 0, skipped: 0, errors: 0, rows: [] };
  const parsed: NewContact[] = [];
  known.forEach((c, i) => {
    report.total++;
    const number = c.number ? normalizeNumber(c.number) : null;
    const lid = c.lid?.replace(/\D/g, "") || undefined;
    const name = (c.name ?? "").trim().slice(0, 50) || (number ? `+${number}` : "");
    if ((number !== null && (number.length < 8 || number.length > 20)) || (!number && !lid)) {
      report.errors++;
      report.rows.push({ row: i + 1, status: "error", name, number: c.number ?? "", error: "number: Invalid number" });
      return;
    }
    parsed.push({ row: i + 1, name: name || "WhatsApp", number, lid, email: "" });
  });
  await insertNew(ctx, parsed, report);
  report.rows.sort((a, b) => a.row - b.row);
  if (report.created) ctx.events.publish("contact.imported", { created: report.created });
  return report;
}

type ImportRow = {
  row: number;
  status: "created" | "updated" | "skipped" | "error";
  name: string;
  number: string;
  error?: string;
  contactId?: number;
};

export { normalizeNumber };
