import {
  type Disparo,
  type DisparoConnection,
  type DisparoConnectionUpdateBody,
  type DisparoOptOut,
  type DisparoStats,
  type DisparoStatus,
  type DisparosAnswer,
  type DisparosUpdate,
  type Message,
  type Ticket,
  DISPARO_FAILURE_BURST,
  DISPARO_MAX_ROWS,
  normalizeNumber,
  renderDisparo,
} from "@balcao/contract";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { contacts, disparos } from "../../db/schema/index.js";
import { enqueueJob } from "../../jobs/runner.js";
import { AppError } from "../../lib/errors.js";
import { MEDIA_KEY, mediaTypeOf, type StoredMedia } from "../../lib/media.js";
import type { Clock } from "../../lib/pace.js";
import { iso } from "../../lib/sql.js";
import { parseLocalDateTime } from "../../lib/zoned-time.js";
import { contactOf } from "../contacts/service.js";
import type { ConvDeps, Queued } from "../outbox/deps.js";
import { enqueueMessage, type OutboxContent } from "../outbox/enqueue.js";
import { claimKey, saveResult } from "../outbox/idempotency.js";
import { getSettingValues, timeZoneOf } from "../settings/service.js";
import { writeHistory } from "../tickets/apply-transition.js";
import { type DisparoPace, decidePace, estimateFinish, localDay, type PaceState } from "./pacing.js";

/**
 * Disparos (bulk messages). Rows are created 'a enviar'; one job per connection
 * (`disparos.send`, singleton `disparos:<whatsappId>`) takes them one at a time, each in ONE
 * transaction: the pace decides (pacing.ts), the oldest due row is taken FOR UPDATE SKIP LOCKED,
 * rendered, stored in the contact's history (a closed ticket: no waiting ticket is opened) and
 * queued in the outbox at the bulk priority ('enviando'), and the next run is queued for when the
 * pace allows. The outbox's `message.sent` / `message.failed` events move the row to 'enviado' /
 * 'com erro'; the messages' sent_at / send_error keep the truth, so 'enviando' rows are also
 * reconciled from them at start and every minute (a crash between the send and the event).
 */

export const SEND_JOB = "disparos.send";
export const SWEEP_JOB = "disparos.sweep";
const keyOf = (whatsappId: number) => `disparos:${whatsappId}`;
const INSERT_CHUNK = 1000;

export interface DisparoDeps {
  conv: ConvDeps;
  clock: Clock;
  random: () => number;
  /** the job runner looks for due jobs now (after a commit that queued one) */
  wakeRunner: () => void;
}

// ---------- creating ----------

export interface RowInput {
  number: string;
  message: string;
  url?: string;
  mimetype?: string;
}

/** A row checked and normalised; `label` names it in a 400 ("rows.3" or "line.4"). */
export interface CheckedRow {
  number: string;
  message: string;
  url: string;
  mimetype: string;
  mediaKey: string | null;
}

const NUMBER_CHARS = /^[\d\s()+\-.]+$/;
const OUR_MEDIA = /^(?:https?:\/\/[^/]+)?\/media\/([a-f0-9]{32}\.[a-z0-9]{1,8})$/;

/**
 * Every row normalised (digits with country code 55 by default) and checked; the first invalid row
 * rejects the whole request with a 400 naming it, before anything is stored. A URL of our own media
 * (/media/<key>) is sent as that file; any other URL goes as a link after the text.
 */
export async function checkRows(
  conv: ConvDeps,
  rows: (RowInput & { label: string })[],
  /** the file sent with every row (or `true`: one will be, the rows are only checked) */
  media?: StoredMedia | true,
): Promise<CheckedRow[]> {
  if (rows.length === 0) throw new AppError("ERR_VALIDATION", 400, { rows: ["Required"] });
  if (rows.length > DISPARO_MAX_ROWS) throw new AppError("ERR_VALIDATION", 400, { rows: [`At most ${DISPARO_MAX_ROWS} rows`] });
  const known = new Map<string, boolean>();
  const out: CheckedRow[] = [];
  for (const r of rows) {
    const bad = (field: string, msg: string) => new AppError("ERR_VALIDATION", 400, { [`${r.label}.${field}`]: [msg] });
    const raw = r.number.trim();
    if (!raw) throw bad("number", "Required");
    if (!NUMBER_CHARS.test(raw)) throw bad("number", "Invalid number");
    const number = normalizeNumber(raw);
    if (number.length < 10 || number.length > 15) throw bad("number", "Invalid number");
    const url = (r.url ?? "").trim();
    if (url && !/^(https?:\/\/|\/)/i.test(url)) throw bad("url", "Invalid URL");
    const file = media === true ? { key: "pending", mimetype: "" } : media;
    let mediaKey: string | null = file?.key ?? null;
    let mimetype = file?.mimetype || (r.mimetype ?? "").trim();
    const own = OUR_MEDIA.exec(url);
    if (!media && own) {
      const key = own[1];
      if (!known.has(key)) known.set(key, MEDIA_KEY.test(key) && (await conv.media.exists(key)));
      if (!known.get(key)) throw bad("url", "Media not found");
      mediaKey = key;
      mimetype ||= mimeOfKey(key);
    }
    const message = r.message.trim();
    if (!message && !mediaKey && !url) throw bad("message", "Required");
    out.push({ number, message, url: file ? url || `/media/${file.key}` : url, mimetype, mediaKey });
  }
  return out;
}

function mimeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  const map: Record<string, string> = {
    jpg: "image/jpeg",
    png: "image/png",
    gif: "image/gif",
    webp: "image/webp",
    mp4: "video/mp4",
    pdf: "application/pdf",
    mp3: "audio/mpeg",
    ogg: "audio/ogg",
  };
  return map[ext] ?? "application/octet-stream";
}

/** The rows of a CSV (`number,message,url`, header optional); a missing message takes `defaultMessage`. */
export function rowsFromCsv(table: string[][], defaultMessage = ""): (RowInput & { label: string })[] {
  if (table.length === 0) return [];
  const head = table[0].map((h) => h.trim().toLowerCase());
  const col = (names: string[], fallback: number) => {
    const i = head.findIndex((h) => names.includes(h));
    return i === -1 ? fallback : i;
  };
  const hasHeader = head.some((h) =>
    ["number", "numero", "número", "telefone", "phone", "whatsapp", "message", "mensagem", "url"].includes(h),
  );
  const ni = hasHeader ? col(["number", "numero", "número", "telefone", "phone", "whatsapp", "celular"], 0) : 0;
  const mi = hasHeader ? col(["message", "mensagem", "msg", "texto"], 1) : 1;
  const ui = hasHeader ? col(["url", "link", "midia", "mídia", "media"], 2) : 2;
  const body = hasHeader ? table.slice(1) : table;
  const first = hasHeader ? 2 : 1;
  return body.map((r, i) => ({
    label: `line.${i + first}`,
    number: r[ni] ?? "",
    message: (r[mi] ?? "").trim() || defaultMessage,
    url: r[ui] ?? "",
  }));
}

/** Contacts with a number under any of the tags, as rows of one message. */
export async function rowsFromTags(db: DbOrTx, tagIds: number[], message: string, url?: string, mimetype?: string) {
  const ids = sql.join(
    tagIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const { rows } = await db.execute<{ number: string }>(sql`
    select distinct c.number from contacts c join contact_tags ct on ct.contact_id = c.id
    where ct.tag_id in (${ids}) and c.number is not null and not c.is_group
    order by c.number limit ${DISPARO_MAX_ROWS + 1}`);
  if (!rows.length) throw new AppError("ERR_VALIDATION", 400, { tagIds: ["No contacts with a number"] });
  return rows.map((r, i) => ({ label: `contacts.${i}`, number: r.number, message, url, mimetype }));
}

/** Parses the start time: an ISO instant or a local date-time in the product's zone. */
export async function startOf(db: DbOrTx, value: string | undefined): Promise<Date | undefined> {
  if (!value) return undefined;
  const at = parseLocalDateTime(value, await timeZoneOf(db));
  if (!at) throw new AppError("ERR_VALIDATION", 400, { startAt: ["Invalid date"] });
  return at;
}

/**
 * Stores checked rows for a connection; rows for contacts who opted out are stored 'cancelado'.
 * With an Idempotency-Key (scope: who asked), a retry answers the first result.
 */
export async function createDisparos(
  deps: DisparoDeps,
  input: { whatsappId: number; rows: CheckedRow[]; startAt?: Date; idempotency?: { scope: string; key: string } },
): Promise<{ created: number; cancelled: number }> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const at = new Date(Math.max(now, input.startAt?.getTime() ?? now));
  const batchId = randomUUID();
  const result = await ctx.db.transaction(async (tx) => {
    if (input.idempotency) {
      const claim = await claimKey<{ created: number; cancelled: number }>(tx, input.idempotency.scope, input.idempotency.key);
      if (!claim.fresh) return claim.result;
    }
    const { rows: conn } = await tx.execute(sql`select id from whatsapps where id = ${input.whatsappId}`);
    if (!conn.length) throw new AppError("ERR_NO_WAPP_FOUND");
    await lockSettings(tx, input.whatsappId);
    const numbers = [...new Set(input.rows.map((r) => r.number))];
    const found = new Map<string, { id: number; optedOut: boolean }>();
    for (let i = 0; i < numbers.length; i += INSERT_CHUNK) {
      const chunk = numbers.slice(i, i + INSERT_CHUNK);
      const { rows } = await tx.execute<{ id: number; number: string; opted: boolean }>(sql`
        select c.id, c.number, (o.contact_id is not null) as opted
        from contacts c left join contact_opt_outs o on o.contact_id = c.id
        where c.number in (${sql.join(
          chunk.map((n) => sql`${n}`),
          sql`, `,
        )})`);
      for (const r of rows) found.set(r.number, { id: r.id, optedOut: !!r.opted });
    }
    let cancelled = 0;
    const values = input.rows.map((r) => {
      const c = found.get(r.number);
      if (c?.optedOut) cancelled++;
      return {
        whatsappId: input.whatsappId,
        number: r.number,
        contactId: c?.id ?? null,
        message: r.message,
        url: r.url,
        mimetype: r.mimetype,
        mediaKey: r.mediaKey,
        status: (c?.optedOut ? "cancelado" : "a enviar") as DisparoStatus,
        reason: c?.optedOut ? "descadastrado" : "",
        datetime: at,
        batchId,
      };
    });
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(disparos).values(values.slice(i, i + INSERT_CHUNK));
    const out = { created: values.length, cancelled };
    if (values.length > cancelled) await wakeJob(tx, input.whatsappId, at.getTime());
    if (input.idempotency) await saveResult(tx, input.idempotency.scope, input.idempotency.key, out);
    return out;
  });
  deps.wakeRunner();
  await publishChange(ctx, "create");
  return result;
}

// ---------- reading ----------

type DisparoSqlRow = {
  id: number | string;
  whatsapp_id: number;
  number: string;
  contact_id: number | null;
  message: string;
  rendered: string | null;
  url: string;
  mimetype: string;
  status: DisparoStatus;
  reason: string;
  datetime: Date | string;
  sent_at: Date | string | null;
  created_at: Date | string;
};

const toDisparo = (r: DisparoSqlRow): Disparo => ({
  id: Number(r.id),
  whatsappId: r.whatsapp_id,
  number: r.number,
  contactId: r.contact_id,
  message: r.message,
  rendered: r.rendered,
  url: r.url,
  mimetype: r.mimetype,
  status: r.status,
  reason: r.reason,
  datetime: iso(r.datetime),
  sentAt: r.sent_at ? iso(r.sent_at) : null,
  createdAt: iso(r.created_at),
});

/** The day bounds of the screen (§5): from "…T00:00:00" inclusive, to "…T23:59:59" through the end of that second. */
function bound(value: string | undefined, zone: string, end: boolean): Date | undefined {
  if (!value) return undefined;
  const d = parseLocalDateTime(value, zone);
  if (!d) throw new AppError("ERR_VALIDATION", 400, { [end ? "to" : "from"]: ["Invalid date"] });
  if (!end) return d;
  return new Date(d.getTime() + (/[T ]\d{2}:\d{2}/.test(value) ? 1000 : 86_400_000));
}

/** GET /disparos: newest first, `limit` a page, 1-based `page`; `totalPages` at least 1. */
export async function listDisparos(
  db: DbOrTx,
  q: { limit: number; page: number; status?: DisparoStatus | ""; from?: string; to?: string; whatsappId?: number },
): Promise<DisparosAnswer> {
  const zone = await timeZoneOf(db);
  const from = bound(q.from, zone, false);
  const to = bound(q.to, zone, true);
  const conds = [
    q.status ? sql`status = ${q.status}` : undefined,
    from ? sql`datetime >= ${from.toISOString()}::timestamptz` : undefined,
    to ? sql`datetime < ${to.toISOString()}::timestamptz` : undefined,
    q.whatsappId ? sql`whatsapp_id = ${q.whatsappId}` : undefined,
  ].filter((c) => c !== undefined);
  const where = conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
  const [{ rows }, total] = await Promise.all([
    db.execute<DisparoSqlRow>(sql`
      select id, whatsapp_id, number, contact_id, message, rendered, url, mimetype, status, reason, datetime, sent_at, created_at
      from disparos ${where}
      order by datetime desc nulls last, id desc nulls last
      limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
    from || to ? countRows(db, where) : countFromCounters(db, q.status || undefined, q.whatsappId),
  ]);
  return { rows: rows.map(toDisparo), page: q.page, totalPages: Math.max(1, Math.ceil(total / q.limit)) };
}

async function countRows(db: DbOrTx, where: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await db.execute<{ n: number | string }>(sql`select count(*) as n from disparos ${where}`);
  return Number(rows[0]?.n ?? 0);
}

async function countFromCounters(db: DbOrTx, status?: DisparoStatus, whatsappId?: number): Promise<number> {
  const conds = [status ? sql`status = ${status}` : undefined, whatsappId ? sql`whatsapp_id = ${whatsappId}` : undefined].filter(
    (c) => c !== undefined,
  );
  const { rows } = await db.execute<{ n: number | string | null }>(
    sql`select sum(n) as n from disparo_counts ${conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``}`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** GET /disparos/stats: counts by status, from the counters the triggers keep. */
export async function disparoStats(db: DbOrTx): Promise<DisparoStats> {
  const { rows } = await db.execute<{ status: string; n: number | string }>(
    sql`select status, sum(n) as n from disparo_counts group by status`,
  );
  const stats: DisparoStats = { cancelado: 0, "a enviar": 0, "com erro": 0, enviado: 0, enviando: 0 };
  for (const r of rows) if (r.status in stats) stats[r.status as keyof DisparoStats] = Number(r.n);
  return stats;
}

async function publishChange(ctx: AppContext, action: DisparosUpdate["action"], alert?: DisparosUpdate["alert"]) {
  const stats = await disparoStats(ctx.db);
  ctx.events.publish("disparos.changed", { action, stats, ...(alert && { alert }) });
}

// ---------- bulk actions (§4) ----------

/** POST /disparos/restart-errors: every 'com erro' goes back to 'a enviar' (a new message each). */
export async function restartErrors(deps: DisparoDeps): Promise<number> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const changed = await ctx.db.transaction(async (tx) => {
    await lockAllSettings(tx);
    const { rows } = await tx.execute<{ whatsapp_id: number; n: number | string }>(sql`
      with u as (
        update disparos set status = 'a enviar', reason = '', message_id = null, rendered = null, sent_at = null,
               datetime = greatest(datetime, ${new Date(now).toISOString()}::timestamptz), updated_at = now()
        where status = 'com erro' returning whatsapp_id
      )
      select whatsapp_id, count(*) as n from u group by whatsapp_id`);
    for (const r of rows) await wakeJob(tx, r.whatsapp_id, now);
    return rows.reduce((s, r) => s + Number(r.n), 0);
  });
  deps.wakeRunner();
  await publishChange(ctx, "update");
  return changed;
}

/** POST /disparos/cancel-pending: every 'a enviar' becomes 'cancelado' (rows already in the outbox go on). */
export async function cancelPending(ctx: AppContext): Promise<number> {
  const changed = await ctx.db.transaction(async (tx) => {
    await lockAllSettings(tx);
    const { rows } = await tx.execute(sql`
      update disparos set status = 'cancelado', reason = 'cancelado pelo administrador', updated_at = now()
      where status = 'a enviar' returning id`);
    return rows.length;
  });
  await publishChange(ctx, "update");
  return changed;
}

/** DELETE /disparos: every disparo removed (messages already stored stay in the contacts' history). */
export async function deleteAllDisparos(ctx: AppContext): Promise<number> {
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockAllSettings(tx);
    const { rows } = await tx.execute<{ n: number | string }>(sql`select coalesce(sum(n), 0) as n from disparo_counts`);
    // one TRUNCATE instead of 100 000 row deletes; the counters go with it
    await tx.execute(sql`truncate disparos`);
    await tx.execute(sql`delete from disparo_counts`);
    return Number(rows[0]?.n ?? 0);
  });
  await publishChange(ctx, "delete");
  return deleted;
}

// ---------- per-connection pace ----------

type SettingsRow = {
  whatsapp_id: number;
  interval_min_ms: number;
  interval_max_ms: number;
  pause_every: number;
  pause_min_ms: number;
  pause_max_ms: number;
  daily_cap: number;
  window_start: string;
  window_end: string;
  paused: boolean;
  paused_reason: string;
  fail_streak: number;
  next_at: Date | string | null;
  day: string;
  day_count: number;
  streak: number;
};

const paceOf = (s: SettingsRow): DisparoPace => ({
  intervalMinMs: s.interval_min_ms,
  intervalMaxMs: s.interval_max_ms,
  pauseEvery: s.pause_every,
  pauseMinMs: s.pause_min_ms,
  pauseMaxMs: s.pause_max_ms,
  dailyCap: s.daily_cap,
  windowStart: s.window_start,
  windowEnd: s.window_end,
});
const stateOf = (s: SettingsRow): PaceState => ({
  nextAt: s.next_at ? new Date(s.next_at).getTime() : null,
  day: s.day,
  dayCount: s.day_count,
  streak: s.streak,
});

/** The connection's settings row (created with the defaults), locked for this transaction. */
async function lockSettings(tx: DbOrTx, whatsappId: number): Promise<SettingsRow> {
  await tx.execute(sql`insert into disparo_settings (whatsapp_id) values (${whatsappId}) on conflict do nothing`);
  const { rows } = await tx.execute<SettingsRow>(sql`select * from disparo_settings where whatsapp_id = ${whatsappId} for update`);
  if (!rows[0]) throw new AppError("ERR_NO_WAPP_FOUND");
  return rows[0];
}

/** Bulk actions lock every connection's row, in one order, so they never cross a send run. */
async function lockAllSettings(tx: DbOrTx) {
  await tx.execute(sql`select whatsapp_id from disparo_settings order by whatsapp_id for update`);
}

/**
 * Queues the connection's send job for `at`, or moves an already queued one earlier (never later:
 * the run decides again, and queues itself for when the pace allows).
 */
export async function wakeJob(tx: DbOrTx, whatsappId: number, at: number): Promise<void> {
  await tx.execute(sql`
    insert into jobs (name, payload, run_at, max_attempts, singleton_key)
    values (${SEND_JOB}, ${JSON.stringify({ whatsappId })}::jsonb, ${new Date(at).toISOString()}::timestamptz, 5, ${keyOf(whatsappId)})
    on conflict (singleton_key) where state in ('queued', 'running')
    do update set run_at = least(jobs.run_at, excluded.run_at), updated_at = now() where jobs.state = 'queued'`);
}

/** GET /disparos/connections: each connection's pace, pause, counts and when its rows should be done. */
export async function listConnections(deps: DisparoDeps): Promise<DisparoConnection[]> {
  const db = deps.conv.ctx.db;
  const now = deps.clock.now();
  const zone = await timeZoneOf(db);
  const { rows } = await db.execute<SettingsRow & { id: number; name: string; status: DisparoConnection["connectionStatus"] }>(sql`
    select w.id, w.name, w.status, s.*
    from whatsapps w left join disparo_settings s on s.whatsapp_id = w.id
    order by w.id`);
  const { rows: counts } = await db.execute<{ whatsapp_id: number; status: string; n: number | string }>(
    sql`select whatsapp_id, status, n from disparo_counts where status in ('a enviar', 'enviando') and n > 0`,
  );
  return rows.map((r) => {
    const s: SettingsRow = r.whatsapp_id === null ? defaultSettings(r.id) : r;
    const pace = paceOf(s);
    const state = stateOf(s);
    const pending = Number(counts.find((c) => c.whatsapp_id === r.id && c.status === "a enviar")?.n ?? 0);
    const sending = Number(counts.find((c) => c.whatsapp_id === r.id && c.status === "enviando")?.n ?? 0);
    const d = decidePace(pace, state, now, zone, () => 0.5);
    const waiting =
      r.status !== "CONNECTED"
        ? "desconectado"
        : s.paused
          ? "pausado"
          : !d.go && d.why === "window"
            ? "fora do horário"
            : !d.go && d.why === "cap"
              ? "limite diário"
              : "";
    const nextAt = d.go ? now : d.at;
    return {
      whatsappId: r.id,
      name: r.name,
      connectionStatus: r.status,
      ...pace,
      paused: s.paused,
      pausedReason: s.paused_reason,
      sentToday: state.day === localDay(now, zone) ? state.dayCount : 0,
      pending,
      sending,
      waiting,
      nextAt: pending ? new Date(nextAt).toISOString() : null,
      expectedFinishAt: pending ? new Date(estimateFinish(pace, state, pending, now, zone)).toISOString() : null,
    };
  });
}

function defaultSettings(whatsappId: number): SettingsRow {
  return {
    whatsapp_id: whatsappId,
    interval_min_ms: 8000,
    interval_max_ms: 15000,
    pause_every: 20,
    pause_min_ms: 180000,
    pause_max_ms: 360000,
    daily_cap: 500,
    window_start: "",
    window_end: "",
    paused: false,
    paused_reason: "",
    fail_streak: 0,
    next_at: null,
    day: "",
    day_count: 0,
    streak: 0,
  };
}

/** PUT /disparos/connections/:id: the pace, the sending hours, Pausar / Retomar (which also clears a failure pause). */
export async function updateConnection(
  deps: DisparoDeps,
  whatsappId: number,
  body: DisparoConnectionUpdateBody,
): Promise<DisparoConnection> {
  const { ctx } = deps.conv;
  if ((body.windowStart === undefined) !== (body.windowEnd === undefined) || !!body.windowStart !== !!body.windowEnd) {
    throw new AppError("ERR_VALIDATION", 400, { windowEnd: ["Set both or neither"] });
  }
  await ctx.db.transaction(async (tx) => {
    const { rows: conn } = await tx.execute(sql`select id from whatsapps where id = ${whatsappId}`);
    if (!conn.length) throw new AppError("ERR_NO_WAPP_FOUND");
    const cur = await lockSettings(tx, whatsappId);
    const min = body.intervalMinMs ?? cur.interval_min_ms;
    const max = body.intervalMaxMs ?? cur.interval_max_ms;
    if (min > max) throw new AppError("ERR_VALIDATION", 400, { intervalMaxMs: ["Must be at least the minimum"] });
    const pmin = body.pauseMinMs ?? cur.pause_min_ms;
    const pmax = body.pauseMaxMs ?? cur.pause_max_ms;
    if (pmin > pmax) throw new AppError("ERR_VALIDATION", 400, { pauseMaxMs: ["Must be at least the minimum"] });
    const resume = body.paused === false;
    await tx.execute(sql`
      update disparo_settings set
        interval_min_ms = ${min}, interval_max_ms = ${max}, pause_every = ${body.pauseEvery ?? cur.pause_every},
        pause_min_ms = ${pmin}, pause_max_ms = ${pmax}, daily_cap = ${body.dailyCap ?? cur.daily_cap},
        window_start = ${body.windowStart ?? cur.window_start}, window_end = ${body.windowEnd ?? cur.window_end},
        paused = ${body.paused ?? cur.paused},
        paused_reason = ${body.paused === true ? "manual" : resume ? "" : cur.paused_reason},
        fail_streak = ${resume ? 0 : cur.fail_streak},
        -- a shorter pace applies at once: the wait decided with the old one is cut to the new maximum
        next_at = case when next_at is null then null
                       else least(next_at, ${new Date(deps.clock.now() + max).toISOString()}::timestamptz) end,
        updated_at = now()
      where whatsapp_id = ${whatsappId}`);
    await wakeJob(tx, whatsappId, deps.clock.now());
  });
  deps.wakeRunner();
  await publishChange(ctx, "settings");
  const found = (await listConnections(deps)).find((c) => c.whatsappId === whatsappId);
  if (!found) throw new AppError("ERR_NO_WAPP_FOUND");
  return found;
}

// ---------- sending ----------

type TakenRow = {
  id: number | string;
  number: string;
  message: string;
  url: string;
  mimetype: string;
  media_key: string | null;
  contact_id: number | null;
};

/**
 * One run of a connection's send job. Everything in one transaction: the run's own singleton key
 * is released (so the next run can be queued in it), the settings row locked (runs of a connection
 * and bulk actions never cross), the pace decides, one due row is taken and queued in the outbox,
 * and the next run is queued. A paused or disconnected connection queues no next run: Retomar and
 * the reconnect wake it (and the minute's sweep, for a wake that was missed).
 */
export async function runSend(deps: DisparoDeps, whatsappId: number, jobId: number): Promise<void> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const zone = await timeZoneOf(ctx.db);
  const outcome = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`update jobs set singleton_key = null where id = ${jobId} and singleton_key is not null`);
    const { rows: conn } = await tx.execute<{ status: string }>(sql`select status from whatsapps where id = ${whatsappId}`);
    if (!conn[0]) return undefined;
    const cfg = await lockSettings(tx, whatsappId);
    // a disconnected or logged-out number takes no rows (the stored status, and this process's live session)
    if (cfg.paused || conn[0].status !== "CONNECTED" || !deps.conv.channels.get(whatsappId)?.connected) return undefined;
    const decision = decidePace(paceOf(cfg), stateOf(cfg), now, zone, deps.random);
    const nowIso = new Date(now).toISOString();
    if (!decision.go) {
      const { rows } = await tx.execute(sql`select 1 from disparos where whatsapp_id = ${whatsappId} and status = 'a enviar' limit 1`);
      if (rows.length) await wakeJob(tx, whatsappId, decision.at);
      return undefined;
    }
    const { rows: taken } = await tx.execute<TakenRow>(sql`
      select id, number, message, url, mimetype, media_key, contact_id from disparos
      where whatsapp_id = ${whatsappId} and status = 'a enviar' and datetime <= ${nowIso}::timestamptz
      order by datetime, id limit 1 for update skip locked`);
    const row = taken[0];
    if (!row) {
      // nothing due now: rows starting later wake the job at their time
      const { rows: later } = await tx.execute<{ at: Date | string | null }>(
        sql`select min(datetime) as at from disparos where whatsapp_id = ${whatsappId} and status = 'a enviar'`,
      );
      if (later[0]?.at) await wakeJob(tx, whatsappId, new Date(later[0].at).getTime());
      return undefined;
    }
    const id = Number(row.id);
    const { contact, created } = await contactFor(tx, row.number);
    const ticket = await historyTicket(tx, contact.id, whatsappId);
    const text = renderDisparo(row.message, contact.name === contact.number ? null : contact, id);
    const linkOnly = row.url && !row.media_key;
    const body = linkOnly ? [text, row.url].filter(Boolean).join("\n") : text;
    let content: OutboxContent = { kind: "text", body };
    let media: StoredMedia | undefined;
    if (row.media_key) {
      const mimetype = row.mimetype || mimeOfKey(row.media_key);
      const mediaType = mediaTypeOf(mimetype);
      media = { key: row.media_key, mimetype, mediaType, size: 0 };
      const visual = mediaType === "image" || mediaType === "video" || mediaType === "audio" || mediaType === "sticker";
      content = {
        kind: "media",
        mediaType: visual ? (mediaType as "image" | "video" | "audio" | "sticker") : "document",
        mediaKey: row.media_key,
        mimetype,
        fileName: row.media_key,
        caption: mediaType === "audio" ? undefined : body || undefined,
        ptt: false,
      };
    }
    const q = await enqueueMessage(tx, {
      ticket: { id: ticket.id, whatsappId, contact: { number: contact.number, lid: contact.lid, isGroup: false } },
      source: "disparo",
      userId: null,
      body,
      content,
      media,
    });
    await tx.execute(sql`
      update disparos set status = 'enviando', message_id = ${q.id}, rendered = ${body}, contact_id = ${contact.id}, updated_at = now()
      where id = ${id}`);
    const s = decision.state;
    await tx.execute(sql`
      update disparo_settings set next_at = ${s.nextAt === null ? null : new Date(s.nextAt).toISOString()}::timestamptz,
             day = ${s.day}, day_count = ${s.dayCount}, streak = ${s.streak}, updated_at = now()
      where whatsapp_id = ${whatsappId}`);
    const { rows: more } = await tx.execute(sql`select 1 from disparos where whatsapp_id = ${whatsappId} and status = 'a enviar' limit 1`);
    if (more.length) await wakeJob(tx, whatsappId, s.nextAt ?? now);
    return { queued: { id: q.id, whatsappId } as Queued, created };
  });
  if (!outcome) return;
  if (outcome.created) ctx.events.publish("contact.saved", { action: "create", contact: contactOf(outcome.created) });
  await deps.conv.outbox.committed([outcome.queued]);
  await publishChange(ctx, "update");
}

type ContactRow = typeof contacts.$inferSelect;

/** The contact of a number, created (named by its number) when unknown. */
export async function contactFor(tx: DbOrTx, number: string): Promise<{ contact: ContactRow; created?: ContactRow }> {
  const [inserted] = await tx.insert(contacts).values({ name: number, number }).onConflictDoNothing().returning();
  if (inserted) return { contact: inserted, created: inserted };
  const { rows } = await tx.execute<{ id: number }>(sql`select id from contacts where number = ${number}`);
  const [found] = await tx
    .select()
    .from(contacts)
    .where(sql`${contacts.id} = ${rows[0]?.id ?? 0}`);
  if (!found) throw new Error("contact vanished");
  return { contact: found };
}

/**
 * Where a disparo is stored: the contact's live ticket on the connection when there is one (the
 * agent sees it in the conversation, nothing changes status), else its latest ticket there, else a
 * new CLOSED ticket. A disparo never opens a waiting ticket; the customer's answer does, as usual.
 */
export async function historyTicket(tx: DbOrTx, contactId: number, whatsappId: number): Promise<{ id: number }> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select id from tickets where contact_id = ${contactId} and whatsapp_id = ${whatsappId}
    order by (status in ('open', 'pending')) desc, updated_at desc nulls last, id desc limit 1`);
  if (rows[0]) return { id: rows[0].id };
  const { rows: created } = await tx.execute<{ id: number }>(sql`
    insert into tickets (contact_id, whatsapp_id, status, closed_at) values (${contactId}, ${whatsappId}, 'closed', now()) returning id`);
  await writeHistory(tx, {
    ticketId: created[0].id,
    to: { status: "closed", queueId: null, userId: null },
    actor: { kind: "system" },
    reason: "create",
  });
  return { id: created[0].id };
}

// ---------- outcomes: the outbox's events, and the reconcile ----------

/** The channel took a disparo's message: 'enviado' (also a 'com erro' row whose message an agent sent again). */
export async function onMessageSent(deps: DisparoDeps, messageId: number): Promise<void> {
  const { ctx } = deps.conv;
  // the connection's settings row is locked first, as every disparo transaction does (a send run,
  // a failure): taken in another order, a success and a failure landing together deadlocked
  const changed = await ctx.db.transaction(async (tx) => {
    const w = await connectionOfMessage(tx, messageId, ["enviando", "com erro"]);
    if (w === undefined) return false;
    const s = await lockSettings(tx, w);
    const { rows } = await tx.execute(sql`
      update disparos set status = 'enviado', reason = '', sent_at = now(), updated_at = now()
      where message_id = ${messageId} and status in ('enviando', 'com erro') returning id`);
    if (!rows.length) return false;
    if (s.fail_streak !== 0) await tx.execute(sql`update disparo_settings set fail_streak = 0 where whatsapp_id = ${w}`);
    return true;
  });
  if (changed) await publishChange(ctx, "update");
}

/** The connection of the disparo row a message belongs to, while the row is in one of `statuses`. */
async function connectionOfMessage(tx: DbOrTx, messageId: number, statuses: string[]): Promise<number | undefined> {
  const { rows } = await tx.execute<{ whatsapp_id: number }>(sql`
    select whatsapp_id from disparos where message_id = ${messageId} and status in (${sql.join(
      statuses.map((st) => sql`${st}`),
      sql`, `,
    )})`);
  return rows[0] ? Number(rows[0].whatsapp_id) : undefined;
}

/**
 * A disparo's message could not be sent: 'com erro' with the reason (never 'enviado'). After
 * DISPARO_FAILURE_BURST failures in a row the connection's disparos pause and admins are told.
 */
export async function onMessageFailed(deps: DisparoDeps, messageId: number, reason: string): Promise<void> {
  const { ctx } = deps.conv;
  const paused = await ctx.db.transaction(async (tx) => {
    // settings first (see onMessageSent), then the row
    const w = await connectionOfMessage(tx, messageId, ["enviando"]);
    if (w === undefined) return undefined;
    const s = await lockSettings(tx, w);
    const { rows } = await tx.execute(sql`
      update disparos set status = 'com erro', reason = ${reason.slice(0, 500)}, updated_at = now()
      where message_id = ${messageId} and status = 'enviando' returning id`);
    if (!rows.length) return undefined;
    const streak = s.fail_streak + 1;
    const pauseNow = !s.paused && streak >= DISPARO_FAILURE_BURST;
    await tx.execute(sql`
      update disparo_settings set fail_streak = ${streak}, updated_at = now()
        ${pauseNow ? sql`, paused = true, paused_reason = 'falhas'` : sql``}
      where whatsapp_id = ${w}`);
    return { whatsappId: w, pauseNow };
  });
  if (paused === undefined) return;
  if (paused.pauseNow) ctx.log.warn({ whatsappId: paused.whatsappId }, "disparos paused after a burst of failed sends");
  await publishChange(ctx, "update", paused.pauseNow ? { whatsappId: paused.whatsappId, reason: "falhas" } : undefined);
}

/**
 * 'enviando' rows set right from their messages: sent (sent_at) → 'enviado', failed (send_error)
 * → 'com erro', message gone or deleted unsent → 'com erro'. At start and every minute.
 */
export async function reconcile(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.execute<{ id: number }>(sql`
    with fixed as (
      update disparos d set
        status = case when m.id is not null and m.sent_at is not null then 'enviado' else 'com erro' end,
        reason = case when m.id is null then 'mensagem excluída'
                      when m.sent_at is not null then ''
                      when m.send_error is not null then m.send_error
                      else 'mensagem apagada antes do envio' end,
        sent_at = m.sent_at, updated_at = now()
      from disparos x left join messages m on m.id = x.message_id
      where d.id = x.id and x.status = 'enviando'
        and (m.id is null or m.sent_at is not null or m.send_error is not null or (m.is_deleted and not exists (select 1 from outbox o where o.message_id = m.id)))
      returning d.id
    )
    select id from fixed`);
  if (rows.length) await publishChange(ctx, "update");
  return rows.length;
}

/** Wakes every connection that has due rows and no queued run (a wake missed, a dead job). */
export async function sweep(deps: DisparoDeps): Promise<void> {
  const { ctx } = deps.conv;
  await reconcile(ctx);
  const { rows } = await ctx.db.execute<{ whatsapp_id: number }>(sql`
    select c.whatsapp_id from disparo_counts c
    join whatsapps w on w.id = c.whatsapp_id and w.status = 'CONNECTED'
    left join disparo_settings s on s.whatsapp_id = c.whatsapp_id
    where c.status = 'a enviar' and c.n > 0 and not coalesce(s.paused, false)`);
  let woke = false;
  for (const r of rows) {
    const id = await enqueueJob(ctx.db, SEND_JOB, { whatsappId: r.whatsapp_id }, { singletonKey: keyOf(r.whatsapp_id), maxAttempts: 5 });
    if (id !== undefined) woke = true;
  }
  if (woke) deps.wakeRunner();
}

/**
 * At start: runs of the send job this process was doing when it died are queued again at once
 * (they would otherwise wait for their lease; a run decides again under the settings lock, so a
 * second one is harmless), and 'enviando' rows are reconciled.
 */
export async function startDisparos(deps: DisparoDeps): Promise<void> {
  const { ctx } = deps.conv;
  await ctx.db.execute(sql`
    update jobs set state = 'queued', lease_until = null, run_at = ${new Date(deps.clock.now()).toISOString()}::timestamptz, updated_at = now()
    where name = ${SEND_JOB} and state = 'running'`);
  await reconcile(ctx);
}

/** The connection is back: its rows go on. */
export async function onConnected(deps: DisparoDeps, whatsappId: number): Promise<void> {
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute(
    sql`select 1 from disparo_counts where whatsapp_id = ${whatsappId} and status = 'a enviar' and n > 0`,
  );
  if (!rows.length) return;
  await wakeJob(ctx.db, whatsappId, deps.clock.now());
  deps.wakeRunner();
}

// ---------- opt-out ----------

/** Case, accents, spaces and punctuation around the word do not matter: "Sair!", " sáir " and "SAIR" are one. */
export function optOutKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * A customer's message equal to an opt-out word: the contact is marked (once), its waiting rows
 * are cancelled, and it gets the one-line confirmation (through the outbox, as a bot text).
 * Called after the inbound message is committed (the `message.created` event).
 */
export async function handleOptOut(deps: DisparoDeps, message: Message, ticket: Ticket): Promise<boolean> {
  if (message.fromMe || ticket.isGroup || message.mediaType !== "chat" || message.body.length > 60) return false;
  const key = optOutKey(message.body);
  if (!key) return false;
  const { ctx } = deps.conv;
  const s = await getSettingValues(ctx.db, ["disparoOptOutWords", "disparoOptOutReply"]);
  const words = s.disparoOptOutWords
    .split(/[,;\n]/)
    .map(optOutKey)
    .filter(Boolean);
  if (!words.includes(key)) return false;
  const contact = ticket.contact;
  const queued = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute(sql`
      insert into contact_opt_outs (contact_id, word) values (${contact.id}, ${message.body.slice(0, 60)})
      on conflict do nothing returning contact_id`);
    if (!rows.length) return undefined;
    await tx.execute(sql`
      update disparos set status = 'cancelado', reason = 'descadastrado', updated_at = now()
      where status = 'a enviar' and (contact_id = ${contact.id} ${contact.number ? sql`or number = ${contact.number}` : sql``})`);
    const reply = s.disparoOptOutReply.trim();
    if (!reply || ticket.whatsappId === null) return [] as Queued[];
    const q = await enqueueMessage(tx, {
      ticket: { id: ticket.id, whatsappId: ticket.whatsappId, contact: { number: contact.number, lid: contact.lid, isGroup: false } },
      source: "bot",
      userId: null,
      body: reply,
      content: { kind: "text", body: reply },
    });
    return [{ id: q.id, whatsappId: q.whatsappId }];
  });
  if (!queued) return false;
  ctx.log.info({ contactId: contact.id }, "contact opted out of disparos");
  await deps.conv.outbox.committed(queued);
  await publishChange(ctx, "update");
  return true;
}

/** GET /disparos/opt-outs: contacts who asked to stop, newest first. */
export async function listOptOuts(db: DbOrTx): Promise<DisparoOptOut[]> {
  const { rows } = await db.execute<{ contact_id: number; name: string; number: string | null; created_at: Date | string }>(sql`
    select o.contact_id, c.name, c.number, o.created_at from contact_opt_outs o join contacts c on c.id = o.contact_id
    order by o.created_at desc limit 500`);
  return rows.map((r) => ({ contactId: r.contact_id, name: r.name, number: r.number, createdAt: iso(r.created_at) }));
}

/** DELETE /disparos/opt-outs/:contactId: the admin clears the mark; later rows for it are sent again. */
export async function clearOptOut(ctx: AppContext, contactId: number): Promise<void> {
  const { rows } = await ctx.db.execute(sql`delete from contact_opt_outs where contact_id = ${contactId} returning contact_id`);
  if (!rows.length) throw new AppError("ERR_NOT_FOUND");
  await publishChange(ctx, "settings");
}
