import {
  type ConnectionHealth,
  type ConnectionStatus,
  DEFAULT_DAILY_CAP,
  HEALTH_BLOCK_LIMIT,
  HEALTH_FAILURE_BURST,
  HEALTH_FAILURE_WINDOW_MINUTES,
  HEALTH_PAUSE_BLOCKS,
  HEALTH_PAUSE_FAILURES,
  type WhatsappBody,
  type WhatsappUpdateBody,
} from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { enqueueJob } from "../../jobs/runner.js";
import { AppError } from "../../lib/errors.js";
import { iso } from "../../lib/sql.js";
import { localDate } from "../../lib/zoned-time.js";
import { timeZoneOf } from "../settings/service.js";
import { capToday, isBanSignal, isRefusal } from "./rules.js";

/**
 * A number's health, all of it in the database (several processes share it): the settings
 * (`connection_health`), what happened (`connection_events`), unsolicited sends per day
 * (`connection_daily_sends`). The outbox sender asks `gate.ts` whether unsolicited rows may go;
 * the session's status events (`whatsapp.session`) come through `statusChanged`; disparos, schedules
 * and the message API ask `routeOf` which connection sends for a number that is down or paused, and
 * follow its events (`whatsapp.health`, `whatsapp.reroute`) to move their own rows. Health imports none of them.
 */

export const ALERT_MAIL_JOB = "health.alertMail";
/** disparo_settings.paused_reason of a disparo paused with its number (cleared when the number resumes) */
export const DISPARO_PAUSE_REASON = "saúde";

type HealthRow = {
  id: number;
  name: string;
  type: string;
  status: ConnectionStatus;
  backup_whatsapp_id: number | null;
  backup_name: string | null;
  backup_status: ConnectionStatus | null;
  backup_paused: boolean | null;
  daily_cap: number | null;
  warmup_enabled: boolean | null;
  paired_at: Date | string | null;
  paused: boolean | null;
  paused_reason: string | null;
  paused_at: Date | string | null;
};

async function healthRows(db: DbOrTx, ids?: number[]): Promise<HealthRow[]> {
  const { rows } = await db.execute<HealthRow>(sql`
    select w.id, w.name, w.type, w.status, h.backup_whatsapp_id, b.name as backup_name, b.status as backup_status, bh.paused as backup_paused,
           h.daily_cap, h.warmup_enabled, h.paired_at, h.paused, h.paused_reason, h.paused_at
    from whatsapps w
    left join connection_health h on h.whatsapp_id = w.id
    left join whatsapps b on b.id = h.backup_whatsapp_id
    left join connection_health bh on bh.whatsapp_id = b.id
    ${
      ids
        ? sql`where w.id in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`
        : sql``
    }`);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    backup_whatsapp_id: r.backup_whatsapp_id === null ? null : Number(r.backup_whatsapp_id),
  }));
}

/** Down: not connected, or its unsolicited sends paused. */
const down = (status: string | null, paused: boolean | null) => status !== "CONNECTED" || paused === true;

/** The backup carries this connection's unsolicited sends now: it is down or paused, its backup is up. */
function backupActive(r: HealthRow): boolean {
  return r.backup_whatsapp_id !== null && down(r.status, r.paused) && !down(r.backup_status, r.backup_paused);
}

/** What the connection list shows of each connection's health settings (and today's cap, as the panel says it). */
export interface HealthSettings {
  backupWhatsappId: number | null;
  dailyCap: number;
  dailyCapToday: number;
  warmupDay: number | null;
  warmupEnabled: boolean;
  pairedAt: string | null;
}

export async function healthSettingsOf(db: DbOrTx, ids: number[], now = Date.now()): Promise<Map<number, HealthSettings>> {
  const out = new Map<number, HealthSettings>();
  if (!ids.length) return out;
  const { rows } = await db.execute<{
    whatsapp_id: number;
    type: string;
    backup_whatsapp_id: number | null;
    daily_cap: number;
    warmup_enabled: boolean;
    paired_at: Date | string | null;
  }>(sql`select h.whatsapp_id, w.type, h.backup_whatsapp_id, h.daily_cap, h.warmup_enabled, h.paired_at
         from connection_health h join whatsapps w on w.id = h.whatsapp_id
         where h.whatsapp_id in (${sql.join(
           ids.map((i) => sql`${i}`),
           sql`, `,
         )})`);
  const zone = rows.length ? await timeZoneOf(db) : "";
  for (const r of rows) {
    const today = capToday({ dailyCap: r.daily_cap, warmupEnabled: r.warmup_enabled, pairedAt: r.paired_at, type: r.type }, now, zone);
    out.set(Number(r.whatsapp_id), {
      backupWhatsappId: r.backup_whatsapp_id === null ? null : Number(r.backup_whatsapp_id),
      dailyCap: Number(r.daily_cap),
      dailyCapToday: today.cap,
      warmupDay: today.warmupDay,
      warmupEnabled: r.warmup_enabled,
      pairedAt: r.paired_at ? iso(r.paired_at) : null,
    });
  }
  return out;
}

export const DEFAULT_HEALTH_SETTINGS: HealthSettings = {
  backupWhatsappId: null,
  dailyCap: DEFAULT_DAILY_CAP,
  dailyCapToday: DEFAULT_DAILY_CAP,
  warmupDay: null,
  warmupEnabled: true,
  pairedAt: null,
};

/**
 * The health settings of POST / PUT /whatsapp, in the caller's transaction: the backup must be
 * another connection that exists.
 */
export async function saveHealthSettings(
  tx: DbOrTx,
  whatsappId: number,
  input: Pick<WhatsappBody | WhatsappUpdateBody, "backupWhatsappId" | "dailyCap" | "warmupEnabled">,
): Promise<void> {
  const { backupWhatsappId, dailyCap, warmupEnabled } = input;
  if (backupWhatsappId === undefined && dailyCap === undefined && warmupEnabled === undefined) return;
  if (backupWhatsappId !== undefined && backupWhatsappId !== null) {
    if (backupWhatsappId === whatsappId)
      throw new AppError("ERR_VALIDATION", 400, { backupWhatsappId: ["A connection cannot be its own backup"] });
    const { rows } = await tx.execute(sql`select 1 from whatsapps where id = ${backupWhatsappId}`);
    if (!rows.length) throw new AppError("ERR_VALIDATION", 400, { backupWhatsappId: ["No such connection"] });
  }
  await tx.execute(sql`insert into connection_health (whatsapp_id) values (${whatsappId}) on conflict do nothing`);
  await tx.execute(sql`
    update connection_health set
      ${backupWhatsappId !== undefined ? sql`backup_whatsapp_id = ${backupWhatsappId},` : sql``}
      ${dailyCap !== undefined ? sql`daily_cap = ${dailyCap},` : sql``}
      ${warmupEnabled !== undefined ? sql`warmup_enabled = ${warmupEnabled},` : sql``}
      updated_at = now()
    where whatsapp_id = ${whatsappId}`);
}

/**
 * The connection that sends `whatsappId`'s unsolicited messages now: itself, or its backup while
 * it is down (not CONNECTED) or paused and the backup is up and not paused.
 */
export async function routeOf(db: DbOrTx, whatsappId: number): Promise<{ whatsappId: number; viaBackup: boolean }> {
  const [r] = await healthRows(db, [whatsappId]);
  if (r && backupActive(r) && r.backup_whatsapp_id !== null) return { whatsappId: r.backup_whatsapp_id, viaBackup: true };
  return { whatsappId, viaBackup: false };
}

/** Unsolicited sends of the connection on the local day `day`. */
export async function sentOn(db: DbOrTx, whatsappId: number, day: string): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select unsolicited as n from connection_daily_sends where whatsapp_id = ${whatsappId} and day = ${day}`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** What the sender needs to decide: paused, today's cap and the sends counted so far. */
export async function gateState(db: DbOrTx, whatsappId: number, now: number, zone: string) {
  const [r] = await healthRows(db, [whatsappId]);
  const day = localDate(now, zone);
  if (!r) return { paused: false, cap: Number.POSITIVE_INFINITY, sent: 0, day };
  const { cap } = capToday({ dailyCap: r.daily_cap, warmupEnabled: r.warmup_enabled, pairedAt: r.paired_at, type: r.type }, now, zone);
  return { paused: r.paused === true, cap, sent: await sentOn(db, whatsappId, day), day };
}

/** One more unsolicited send today (the sender, after the channel took it). */
export async function countUnsolicited(db: DbOrTx, whatsappId: number, day: string): Promise<void> {
  await db.execute(sql`
    insert into connection_daily_sends (whatsapp_id, day, unsolicited) values (${whatsappId}, ${day}, 1)
    on conflict (whatsapp_id, day) do update set unsolicited = connection_daily_sends.unsolicited + 1`);
}

/** Refusals in 24 h: phones that did not take the number's messages, and opt-outs of its customers. */
async function blocks24h(db: DbOrTx, whatsappId: number, since: string): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    select (select count(*) from connection_events where whatsapp_id = ${whatsappId} and kind = 'block' and at > ${since}::timestamptz)
         + (select count(*) from contact_opt_outs o where o.created_at > ${since}::timestamptz
              and exists (select 1 from tickets t where t.contact_id = o.contact_id and t.whatsapp_id = ${whatsappId})) as n`);
  return Number(rows[0]?.n ?? 0);
}

/** GET /whatsapp/:id/health */
export async function getHealth(db: DbOrTx, whatsappId: number, now: number): Promise<ConnectionHealth> {
  const [r] = await healthRows(db, [whatsappId]);
  if (!r) throw new AppError("ERR_NO_WAPP_FOUND");
  const zone = await timeZoneOf(db);
  const { cap, full, warmupDay } = capToday(
    { dailyCap: r.daily_cap, warmupEnabled: r.warmup_enabled, pairedAt: r.paired_at, type: r.type },
    now,
    zone,
  );
  const since = new Date(now - 24 * 3600_000).toISOString();
  const { rows: counts } = await db.execute<{ failures: number; disconnects: number }>(sql`
    select count(*) filter (where kind = 'failure') as failures, count(*) filter (where kind = 'disconnect') as disconnects
    from connection_events where whatsapp_id = ${whatsappId} and kind in ('failure', 'disconnect') and at > ${since}::timestamptz`);
  const { rows: recent } = await db.execute<{ at: Date | string; kind: string; status: string; reason: string }>(sql`
    select at, kind, status, reason from connection_events
    where whatsapp_id = ${whatsappId} and kind in ('disconnect', 'pause', 'resume')
    order by at desc, id desc limit 5`);
  return {
    whatsappId,
    sentToday: await sentOn(db, whatsappId, localDate(now, zone)),
    dailyCap: cap,
    fullDailyCap: full,
    warmupEnabled: r.warmup_enabled ?? true,
    warmupDay,
    failures24h: Number(counts[0]?.failures ?? 0),
    blocks24h: await blocks24h(db, whatsappId, since),
    disconnects24h: Number(counts[0]?.disconnects ?? 0),
    pairedAt: r.paired_at ? iso(r.paired_at) : null,
    paused: r.paused === true,
    pausedReason: r.paused_reason ?? "",
    pausedAt: r.paused_at ? iso(r.paused_at) : null,
    backupWhatsappId: r.backup_whatsapp_id,
    backupName: r.backup_name,
    backupActive: backupActive(r),
    recent: recent.map((e) => ({ at: iso(e.at), kind: e.kind, status: e.status, reason: e.reason })),
  };
}

/** The health now, to the admins' sockets (and to this module's follow-ups: reroute, wake the sender). */
export async function publishHealth(
  ctx: AppContext,
  whatsappId: number,
  extra: { alert?: { reason: string; name: string }; left?: boolean; joined?: boolean } = {},
): Promise<void> {
  const health = await getHealth(ctx.db, whatsappId, Date.now()).catch(() => undefined);
  if (!health) return;
  ctx.events.publish("whatsapp.health", { whatsappId, health, ...extra });
}

/**
 * The channel reported a status (connections/service.ts applyStatus, after storing it): a change
 * is recorded (leaving CONNECTED is a disconnect, with its reason); CONNECTED right after a QR code
 * is a new pairing (its date starts the warm-up); a ban signal pauses the number.
 */
export async function statusChanged(
  ctx: AppContext,
  whatsappId: number,
  previous: ConnectionStatus | undefined,
  s: { status: ConnectionStatus; reason?: string },
): Promise<void> {
  const reason = (s.reason ?? "").slice(0, 200);
  const ban = isBanSignal(s.reason);
  const change = await ctx.db.transaction(async (tx) => {
    // one status change at a time per number (a logout's own event and the route's may cross):
    // the last recorded status, under the number's health row lock, says what changed
    await tx.execute(sql`insert into connection_health (whatsapp_id) values (${whatsappId}) on conflict do nothing`);
    await tx.execute(sql`select 1 from connection_health where whatsapp_id = ${whatsappId} for update`);
    const { rows } = await tx.execute<{ status: ConnectionStatus }>(sql`
      select status from connection_events where whatsapp_id = ${whatsappId} and kind = 'status' order by id desc limit 1`);
    const last = rows[0]?.status ?? previous;
    const changed = last !== s.status;
    const left = last === "CONNECTED" && s.status !== "CONNECTED";
    if (changed) await event(tx, whatsappId, "status", s.status, reason);
    if (left) await event(tx, whatsappId, "disconnect", s.status, reason);
    if (s.status === "CONNECTED" && last === "qrcode")
      await tx.execute(sql`update connection_health set paired_at = now(), updated_at = now() where whatsapp_id = ${whatsappId}`);
    return { changed, left };
  });
  if (!change.changed && !ban) return;
  const paused = ban ? await pauseNumber(ctx, whatsappId, reason) : false;
  if (!paused) await publishHealth(ctx, whatsappId, { left: change.left, joined: change.changed && s.status === "CONNECTED" });
}

async function event(tx: DbOrTx, whatsappId: number, kind: string, status = "", reason = "") {
  await tx.execute(
    sql`insert into connection_events (whatsapp_id, kind, status, reason) values (${whatsappId}, ${kind}, ${status}, ${reason})`,
  );
}

/**
 * A ban signal: the number's unsolicited sends stop (the sender skips them, its disparos pause),
 * admins are told (socket, and e-mail through the job runner). Answers whether it was paused now
 * (false when it already was).
 */
export async function pauseNumber(ctx: AppContext, whatsappId: number, reason: string): Promise<boolean> {
  const name = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`insert into connection_health (whatsapp_id) values (${whatsappId}) on conflict do nothing`);
    const { rows } = await tx.execute(sql`
      update connection_health set paused = true, paused_reason = ${reason}, paused_at = now(), updated_at = now()
      where whatsapp_id = ${whatsappId} and not paused returning whatsapp_id`);
    if (!rows.length) return undefined;
    await event(tx, whatsappId, "pause", "", reason);
    // its disparos pause with it (modules/disparos follows the health event; Retomar resumes both)
    await enqueueJob(tx, ALERT_MAIL_JOB, { whatsappId, reason }, { maxAttempts: 5 });
    const { rows: w } = await tx.execute<{ name: string }>(sql`select name from whatsapps where id = ${whatsappId}`);
    return w[0]?.name ?? "";
  });
  if (name === undefined) return false;
  ctx.log.warn({ whatsappId, reason }, "number health: unsolicited sends paused");
  await publishHealth(ctx, whatsappId, { alert: { reason, name } });
  return true;
}

/** POST /whatsapp/:id/health/resume — an admin resumes the number's unsolicited sends (and the disparos paused with it). */
export async function resumeNumber(ctx: AppContext, whatsappId: number): Promise<ConnectionHealth> {
  await ctx.db.transaction(async (tx) => {
    const { rows: w } = await tx.execute(sql`select 1 from whatsapps where id = ${whatsappId}`);
    if (!w.length) throw new AppError("ERR_NO_WAPP_FOUND");
    const { rows } = await tx.execute(sql`
      update connection_health set paused = false, paused_reason = '', paused_at = null, updated_at = now()
      where whatsapp_id = ${whatsappId} and paused returning whatsapp_id`);
    if (!rows.length) return;
    await event(tx, whatsappId, "resume");
  });
  // the disparos paused with it resume with it (modules/disparos follows the health event)
  await publishHealth(ctx, whatsappId, { joined: true });
  return getHealth(ctx.db, whatsappId, Date.now());
}

/**
 * A final send failure (the sender): recorded, a refusal also as a block; a burst of failures, or
 * too many refusals in 24 h, pauses the number.
 */
export async function recordFailure(ctx: AppContext, whatsappId: number, reason: string, permanent: boolean): Promise<void> {
  const since = new Date(Date.now() - HEALTH_FAILURE_WINDOW_MINUTES * 60_000).toISOString();
  const { rows } = await ctx.db.transaction(async (tx) => {
    await event(tx, whatsappId, "failure", "", reason.slice(0, 200));
    if (isRefusal(reason, permanent)) await event(tx, whatsappId, "block", "", reason.slice(0, 200));
    return tx.execute<{ n: number }>(
      sql`select count(*) as n from connection_events where whatsapp_id = ${whatsappId} and kind = 'failure' and at > ${since}::timestamptz`,
    );
  });
  if (Number(rows[0]?.n ?? 0) >= HEALTH_FAILURE_BURST && (await pauseNumber(ctx, whatsappId, HEALTH_PAUSE_FAILURES))) return;
  if (await checkBlocks(ctx, whatsappId)) return;
  await publishHealth(ctx, whatsappId);
}

/** Too many customers refused the number in 24 h: it pauses. Answers whether it paused now. */
export async function checkBlocks(ctx: AppContext, whatsappId: number): Promise<boolean> {
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  if ((await blocks24h(ctx.db, whatsappId, since)) < HEALTH_BLOCK_LIMIT) return false;
  return pauseNumber(ctx, whatsappId, HEALTH_PAUSE_BLOCKS);
}

/**
 * The number is down or paused and its backup is up: the work waiting to go unsolicited from it moves
 * to the backup (its pace, cap and warm-up apply there). Health decides; each module moves its own
 * (the `whatsapp.reroute` event: disparos move their rows, schedules look at their due ones now).
 * Answers the backup, when there is one to move to.
 */
export async function rerouteFrom(ctx: AppContext, whatsappId: number, now: number): Promise<number | undefined> {
  const route = await routeOf(ctx.db, whatsappId);
  if (!route.viaBackup) return undefined;
  ctx.events.publish("whatsapp.reroute", { from: whatsappId, to: route.whatsappId, at: now });
  return route.whatsappId;
}

/** Connections that name `whatsappId` as their backup. */
export async function primariesOf(db: DbOrTx, whatsappId: number): Promise<number[]> {
  const { rows } = await db.execute<{ whatsapp_id: number }>(
    sql`select whatsapp_id from connection_health where backup_whatsapp_id = ${whatsappId}`,
  );
  return rows.map((r) => Number(r.whatsapp_id));
}

/** Connections with a backup (the sweep reroutes those that are down). */
export async function withBackup(db: DbOrTx): Promise<number[]> {
  const { rows } = await db.execute<{ whatsapp_id: number }>(
    sql`select whatsapp_id from connection_health where backup_whatsapp_id is not null`,
  );
  return rows.map((r) => Number(r.whatsapp_id));
}

/** Connections not paused (the sweep checks their refusals). */
export async function unpaused(db: DbOrTx): Promise<number[]> {
  const { rows } = await db.execute<{ id: number }>(sql`
    select w.id from whatsapps w left join connection_health h on h.whatsapp_id = w.id where not coalesce(h.paused, false)`);
  return rows.map((r) => Number(r.id));
}

/** Events older than 30 days and day counts older than 40 go. */
export async function cleanup(db: DbOrTx, now: number): Promise<void> {
  await db.execute(sql`delete from connection_events where at < ${new Date(now - 30 * 86_400_000).toISOString()}::timestamptz`);
  const zoneDay = new Date(now - 40 * 86_400_000).toISOString().slice(0, 10);
  await db.execute(sql`delete from connection_daily_sends where day < ${zoneDay}`);
}

/** The alert e-mail's recipients: the admins' addresses. */
export async function adminEmails(db: DbOrTx): Promise<string[]> {
  const { rows } = await db.execute<{ email: string }>(sql`select email from users where profile = 'admin' and email <> '' order by id`);
  return rows.map((r) => r.email);
}
