import { statfs } from "node:fs/promises";
import os from "node:os";
import {
  type AgentTickets,
  type DurationStats,
  type Metrics,
  metricsAnswer,
  type MetricsQuery,
  type ServerMetrics,
  TOP_AGENTS_LIMIT,
  type Times,
} from "@balcao/contract";
import { type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import type { Clock } from "../../lib/pace.js";
import { addLocalDays, parseLocalDateTime, startOfLocalDay, startOfLocalMonth, startOfLocalWeek } from "../../lib/zoned-time.js";
import { timeZoneOf } from "../settings/service.js";

/**
 * The dashboard's figures, computed in SQL (definitions in docs/dashboard.md):
 * - cards: tickets CREATED today / this week (from Monday) / this month / ever, with the day,
 *   week and month cut at local midnight of the `timezone` setting;
 * - topAtendentes: per period, the tickets each agent handled in it: took (accepted, reopened,
 *   was transferred or handed them), passed on (transfer, back to waiting) or closed (Finalizar, or
 *   auto-closed while theirs) — not who holds them now: a ticket finished and then reopened by the
 *   customer still counts for the agent who finished it;
 * - closed / pending: tickets in that status now;
 * - a ticket's "cycle" starts when it is created or when the customer reopens it by writing to it
 *   closed, and ends at its first close after that. First response time of a cycle: from its
 *   first customer message to the first human reply (an agent in Balcão or someone on the paired
 *   phone; bot texts, greetings and farewells do not count) before it ends. Resolution time: from
 *   the cycle's start to that close. A cycle belongs to the period its start falls in; its agent
 *   is the replying agent (first response) or the ticket's agent at the close (resolution), its
 *   queue the ticket's queue at that moment.
 */

export interface MetricsDeps {
  ctx: AppContext;
  clock: Clock;
  /** ids of the users with a live socket now, on any process (`realtime/server.ts` trackPresence) */
  onlineUserIds: () => Promise<number[]>;
}

interface Period {
  from: Date;
  to: Date;
  timeZone: string;
}

function resolvePeriod(q: MetricsQuery, now: Date, timeZone: string): Period {
  const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v.trim());
  const parse = (v: string, field: "from" | "to") => {
    const d = parseLocalDateTime(v, timeZone);
    if (!d) throw new AppError("ERR_VALIDATION", 400, { [field]: ["Invalid date"] });
    return d;
  };
  // default: the last 7 local days, today included
  const to = q.to ? (isDay(q.to) ? addLocalDays(parse(q.to, "to"), 1, timeZone) : parse(q.to, "to")) : addLocalDays(now, 1, timeZone);
  // without `from`: the 7 local days up to the last one of the period (today at the latest)
  const from = q.from ? parse(q.from, "from") : addLocalDays(new Date(Math.min(to.getTime() - 1, now.getTime())), -6, timeZone);
  if (from.getTime() >= to.getTime()) throw new AppError("ERR_VALIDATION", 400, { from: ["Must be before to"] });
  return { from, to, timeZone };
}

const num = (v: unknown) => Number(v ?? 0);
const iso = (v: unknown) => new Date(v as string | Date).toISOString();

/** The spec's keys: cards, top agents, closed versus pending. */
async function specFigures(db: DbOrTx, now: Date, timeZone: string) {
  const day = startOfLocalDay(now, timeZone);
  const week = startOfLocalWeek(now, timeZone);
  const month = startOfLocalMonth(now, timeZone);
  const { rows: cards } = await db.execute<Record<string, number>>(sql`
    select count(*) filter (where created_at >= ${day})::int as today,
           count(*) filter (where created_at >= ${week})::int as week,
           count(*) filter (where created_at >= ${month})::int as month,
           count(*)::int as total,
           count(*) filter (where status = 'closed')::int as closed,
           count(*) filter (where status = 'pending')::int as pending
    from tickets`);
  // one row per (agent, ticket) with the last time the agent handled it (ticket_agents, kept by a trigger)
  const { rows: agents } = await db.execute<{ name: string; day: number; week: number; month: number; total: number }>(sql`
    select u.name, a.day, a.week, a.month, a.total
    from (select user_id,
                 count(*) filter (where handled_at >= ${day})::int as day,
                 count(*) filter (where handled_at >= ${week})::int as week,
                 count(*) filter (where handled_at >= ${month})::int as month,
                 count(*)::int as total
          from ticket_agents group by user_id) a
    join users u on u.id = a.user_id`);
  const top = (key: "day" | "week" | "month" | "total"): AgentTickets[] =>
    agents
      .map((a) => ({ name: a.name, tickets: num(a[key]) }))
      .filter((a) => a.tickets > 0)
      .sort((a, b) => b.tickets - a.tickets || a.name.localeCompare(b.name))
      .slice(0, TOP_AGENTS_LIMIT);
  const c = cards[0];
  return {
    today: num(c.today),
    week: num(c.week),
    month: num(c.month),
    total: num(c.total),
    topAtendentes: { day: top("day"), week: top("week"), month: top("month"), total: top("total") },
    closed: num(c.closed),
    pending: num(c.pending),
  };
}

type StatsRow = { kind: string; key: number | null; name: string | null; n: number; p: number[] | string | null };

/** percentile_cont answers a float8[]; drivers give it as an array or as its text form. */
function quantiles(p: StatsRow["p"]): [number | null, number | null] {
  if (p == null) return [null, null];
  const arr = Array.isArray(p) ? p : p.replace(/[{}]/g, "").split(",");
  const r = (v: unknown) => (v == null || v === "" ? null : Math.round(Number(v)));
  return [r(arr[0]), r(arr[1])];
}

function toTimes(rows: StatsRow[]): Times {
  const stats = (r: StatsRow | undefined): DurationStats => {
    const [median, p90] = quantiles(r?.p ?? null);
    return { median, p90, count: num(r?.n) };
  };
  const overall = rows.find((r) => r.kind === "all");
  return {
    overall: stats(overall && num(overall.n) > 0 ? overall : undefined),
    byAgent: rows
      .filter((r) => r.kind === "agent" && r.key !== null)
      .map((r) => ({ userId: num(r.key), name: r.name ?? "", ...stats(r) }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    byQueue: rows
      .filter((r) => r.kind === "queue")
      .map((r) => ({ queueId: r.key === null ? null : num(r.key), name: r.name ?? "", ...stats(r) }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  };
}

/** First response and resolution times of the cycles that started in the period (ticket_cycles, kept by triggers). */
async function responseTimes(db: DbOrTx, p: Period, q: MetricsQuery) {
  const filters = (agent: SQL, queue: SQL) =>
    sql.join(
      [sql`true`, ...(q.userId ? [sql`${agent} = ${q.userId}`] : []), ...(q.queueId ? [sql`${queue} = ${q.queueId}`] : [])],
      sql` and `,
    );
  const aggregate = (table: SQL) => sql`
    select 'all' as kind, null::int as key, null::text as name, count(*)::int as n,
           percentile_cont(array[0.5, 0.9]) within group (order by secs) as p
    from ${table}
    union all
    select 'agent', s.agent, u.name, count(*)::int, percentile_cont(array[0.5, 0.9]) within group (order by secs)
    from ${table} s left join users u on u.id = s.agent where s.agent is not null group by s.agent, u.name
    union all
    select 'queue', s.queue, coalesce(qu.name, ''), count(*)::int, percentile_cont(array[0.5, 0.9]) within group (order by secs)
    from ${table} s left join queues qu on qu.id = s.queue group by s.queue, qu.name`;
  const { rows } = await db.execute<StatsRow & { metric: string }>(sql`
    with cycles as materialized (
      select started_at, customer_at, reply_at, reply_user_id, reply_queue_id, ended_at, end_user_id, end_queue_id
      from ticket_cycles where started_at >= ${p.from} and started_at < ${p.to}
    ),
    frt as (
      select extract(epoch from (reply_at - customer_at))::float8 as secs, reply_user_id as agent, reply_queue_id as queue
      from cycles where reply_at is not null and ${filters(sql`reply_user_id`, sql`reply_queue_id`)}
    ),
    res as (
      select extract(epoch from (ended_at - started_at))::float8 as secs, end_user_id as agent, end_queue_id as queue
      from cycles where ended_at is not null and ${filters(sql`end_user_id`, sql`end_queue_id`)}
    )
    select 'frt' as metric, * from (${aggregate(sql`frt`)}) a
    union all
    select 'res' as metric, * from (${aggregate(sql`res`)}) b`);
  return {
    firstResponseTime: toTimes(rows.filter((r) => r.metric === "frt")),
    resolutionTime: toTimes(rows.filter((r) => r.metric === "res")),
  };
}

/** Tickets created in the period by local weekday (0 = Monday) × hour. */
async function ticketsByHour(db: DbOrTx, p: Period, q: MetricsQuery): Promise<number[][]> {
  const { rows } = await db.execute<{ dow: number; h: number; n: number }>(sql`
    select extract(isodow from created_at at time zone ${p.timeZone})::int as dow,
           extract(hour from created_at at time zone ${p.timeZone})::int as h, count(*)::int as n
    from tickets
    where created_at >= ${p.from} and created_at < ${p.to}
      ${q.queueId ? sql`and queue_id = ${q.queueId}` : sql``}
      ${q.userId ? sql`and user_id = ${q.userId}` : sql``}
    group by 1, 2`);
  const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const r of rows) grid[num(r.dow) - 1][num(r.h)] = num(r.n);
  return grid;
}

/** Right now: waiting tickets per queue (since they last became pending), agents online with their open tickets. */
async function rightNow(db: DbOrTx, now: Date, q: MetricsQuery, online: number[]): Promise<Metrics["now"]> {
  const { rows: waiting } = await db.execute<{
    queue_id: number | null;
    name: string | null;
    color: string | null;
    n: number;
    oldest: Date;
  }>(sql`
    select t.queue_id, qu.name, qu.color, count(*)::int as n, min(coalesce(w.since, t.created_at)) as oldest
    from tickets t
    left join queues qu on qu.id = t.queue_id
    left join lateral (
      select h.created_at as since from ticket_history h
      where h.ticket_id = t.id and h.to_status = 'pending' and h.from_status is distinct from 'pending'
      order by h.created_at desc, h.id desc limit 1) w on true
    where t.status = 'pending' ${q.queueId ? sql`and t.queue_id = ${q.queueId}` : sql``}
    group by t.queue_id, qu.name, qu.color
    order by min(coalesce(w.since, t.created_at))`);
  const ids = q.userId ? online.filter((id) => id === q.userId) : online;
  const agents = ids.length
    ? (
        await db.execute<{ id: number; name: string; n: number }>(sql`
          select u.id, u.name, count(t.id)::int as n
          from users u
          left join tickets t on t.user_id = u.id and t.status = 'open' ${q.queueId ? sql`and t.queue_id = ${q.queueId}` : sql``}
          where u.id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})
          group by u.id, u.name
          order by count(t.id) desc, u.name`)
      ).rows
    : [];
  return {
    waiting: waiting.map((r) => ({
      queueId: r.queue_id,
      name: r.name ?? "",
      color: r.color ?? "",
      tickets: num(r.n),
      oldestSince: iso(r.oldest),
      oldestWaitSeconds: Math.max(0, Math.round((now.getTime() - new Date(r.oldest).getTime()) / 1000)),
    })),
    agents: agents.map((a) => ({ userId: num(a.id), name: a.name, openTickets: num(a.n) })),
  };
}

export async function serverMetrics(dataDir: string): Promise<ServerMetrics> {
  const total = os.totalmem();
  const free = os.freemem();
  let disk = { total: 0, free: 0, used: 0 };
  try {
    const s = await statfs(dataDir);
    disk = { total: s.blocks * s.bsize, free: s.bavail * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
  } catch {
    // the figures stay 0 when the platform cannot tell
  }
  const cpus = os.cpus();
  const [load1, load5, load15] = os.loadavg();
  return {
    memory: { total, free, used: total - free, process: process.memoryUsage().rss },
    disk,
    cpu: { model: cpus[0]?.model ?? "", cores: cpus.length, load1, load5, load15 },
    platform: os.platform(),
    arch: os.arch(),
    uptimeHours: Math.round((os.uptime() / 3600) * 10) / 10,
    release: os.release(),
  };
}

/** Every figure of GET /metrics, from the database as it is now. */
export async function computeMetrics(deps: MetricsDeps, q: MetricsQuery): Promise<Metrics> {
  const { ctx } = deps;
  const now = new Date(deps.clock.now());
  const timeZone = await timeZoneOf(ctx.db);
  const period = resolvePeriod(q, now, timeZone);
  const [spec, times, byHour, live, server, incidents] = await Promise.all([
    specFigures(ctx.db, now, timeZone),
    responseTimes(ctx.db, period, q),
    ticketsByHour(ctx.db, period, q),
    deps.onlineUserIds().then((online) => rightNow(ctx.db, now, q, online)),
    serverMetrics(ctx.config.dataDir),
    ticketsPerIncident(ctx.db, period, q),
  ]);
  return {
    ...spec,
    serverMetrics: server,
    period: { from: period.from.toISOString(), to: period.to.toISOString(), timeZone },
    ...times,
    ticketsByHour: byHour,
    now: live,
    incidents,
  };
}

/** Incidents open at some time in the period, with the tickets linked to each (of the queue / agent filtered). */
async function ticketsPerIncident(db: DbOrTx, p: Period, q: MetricsQuery): Promise<NonNullable<Metrics["incidents"]>> {
  const { rows } = await db.execute<{
    id: number;
    title: string;
    status: "open" | "closed";
    created_at: Date | string;
    tickets: number | string;
  }>(sql`
    select i.id, i.title, i.status, i.created_at,
           (select count(*) from incident_tickets it join tickets t on t.id = it.ticket_id
            where it.incident_id = i.id ${q.queueId ? sql`and t.queue_id = ${q.queueId}` : sql``}
              ${q.userId ? sql`and t.user_id = ${q.userId}` : sql``}) as tickets
    from incidents i
    where i.created_at < ${p.to} and (i.closed_at is null or i.closed_at >= ${p.from})
    order by i.created_at desc limit 50`);
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    status: r.status,
    createdAt: new Date(r.created_at).toISOString(),
    tickets: Number(r.tickets),
  }));
}

/**
 * GET /metrics answers from a short cache (per query, the answer checked against the contract and
 * serialized once), dropped by every ticket change and every agent reply: a dashboard left open by
 * several supervisors costs one computation, and what changed shows at once. Past its few seconds an
 * answer is still served while its refresh is computed (what moves without ticket events — waits,
 * who is online, the server's figures — is then at most a few seconds older).
 */
export class MetricsCache {
  private readonly entries = new Map<string, { at: number; json: Promise<string>; refreshing: boolean }>();
  static readonly TTL_MS = 5_000;
  static readonly MAX_ENTRIES = 50;

  constructor(private readonly deps: MetricsDeps) {
    // every process's cache is dropped, whichever process the change happened on
    const drop = () => this.entries.clear();
    const { events } = deps.ctx;
    events.onEverywhere("ticket.updated", drop);
    events.onEverywhere("tickets.changed", drop);
    events.onEverywhere("ticket.deleted", drop);
    events.onEverywhere("message.created", (p) => (p.message.fromMe ? drop() : undefined));
    events.onEverywhere("setting.updated", (p) => (p.setting.key === "timezone" ? drop() : undefined));
  }

  private compute(q: MetricsQuery): Promise<string> {
    return computeMetrics(this.deps, q).then((m) => JSON.stringify(metricsAnswer.parse(m)));
  }

  /** The answer as JSON text. */
  get(q: MetricsQuery): Promise<string> {
    const key = JSON.stringify([q.from ?? "", q.to ?? "", q.queueId ?? 0, q.userId ?? 0]);
    const now = this.deps.clock.now();
    const hit = this.entries.get(key);
    if (hit) {
      if (now - hit.at >= MetricsCache.TTL_MS && !hit.refreshing) {
        hit.refreshing = true;
        const next = this.compute(q);
        next.then(
          () => this.entries.get(key) === hit && this.entries.set(key, { at: this.deps.clock.now(), json: next, refreshing: false }),
          () => {
            hit.refreshing = false;
          },
        );
      }
      return hit.json;
    }
    const json = this.compute(q);
    const entry = { at: now, json, refreshing: false };
    this.entries.set(key, entry);
    json.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    while (this.entries.size > MetricsCache.MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return json;
  }
}
