import type { Disparo, DisparoStats, DisparoStatus, DisparosAnswer, DisparosUpdate } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { iso } from "../../lib/sql.js";
import { dayBound } from "../../lib/zoned-time.js";
import { timeZoneOf } from "../settings/service.js";

/** What the screen reads: the rows, a page at a time, and the counts; `disparos.changed` with the counts. */

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

/** GET /disparos: newest first, `limit` a page, 1-based `page`; `totalPages` at least 1. */
export async function listDisparos(
  db: DbOrTx,
  q: { limit: number; page: number; status?: DisparoStatus | ""; from?: string; to?: string; whatsappId?: number },
): Promise<DisparosAnswer> {
  const zone = await timeZoneOf(db);
  const from = dayBound(q.from, zone, false);
  const to = dayBound(q.to, zone, true);
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

/** Tells the admins' screens what changed, with the counts now. */
export async function publishChange(ctx: AppContext, action: DisparosUpdate["action"], alert?: DisparosUpdate["alert"]) {
  const stats = await disparoStats(ctx.db);
  ctx.events.publish("disparos.changed", { action, stats, ...(alert && { alert }) });
}
