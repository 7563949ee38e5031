import {
  INCIDENT_NORMALIZED_DEFAULT,
  type Incident,
  type IncidentCloseBody,
  type IncidentCreateBody,
  type IncidentStatus,
  type IncidentUpdateBody,
  type Message,
  type Ticket,
} from "@balcao/contract";
import { type SQL, sql } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { enqueueJob, queueOrMoveEarlier, releaseOwnKey } from "../../jobs/runner.js";
import { AppError } from "../../lib/errors.js";
import { canSee } from "../access/visibility.js";
import type { Clock } from "../../lib/pace.js";
import { iso } from "../../lib/sql.js";
import { historyTicket } from "../tickets/history-ticket.js";
import { lockSettings, paceOf, stateOf } from "../pacing/settings.js";
import { decidePace } from "../pacing/pacing.js";
import type { ConvDeps, Queued } from "../outbox/deps.js";
import { enqueueMessage } from "../outbox/enqueue.js";
import { LIVE_WINDOW_MS } from "../outbox/sender.js";
import { assertKnownVariables, type IncidentArea, inArea, incidentText, listOf, placesOf, resolveArea } from "./area.js";
import { timeZoneOf } from "../settings/service.js";
import { afterTransition, transitionTicket } from "../tickets/apply-transition.js";
import { findTicket } from "../tickets/queries.js";

/**
 * Outage mode (issue 32 §1). Every rule is a row, so it holds with several processes:
 * - the notice once: a customer's message while incidents are open inserts (incident, contact)
 *   rows ON CONFLICT DO NOTHING; only the inserted ones queue the notice, in the same transaction
 *   (through the outbox, before the bots' steps);
 * - the incident rows are read FOR SHARE by that transaction and locked FOR UPDATE by the close,
 *   so a customer is either linked before the close (and gets "normalizado") or not at all;
 * - "normalizado": the close marks the customers' rows pending; one job per connection
 *   (`incidents.notify`, singleton) takes them one at a time at the connection's unsolicited pace
 *   (the disparo pace and its state, shared with the disparos), skipping opted-out contacts;
 * - closing the tickets: one job (`incidents.closeTickets`) finishes each linked live ticket
 *   through the ticket state machine, as the user who closed the incident.
 */

export const NOTIFY_JOB = "incidents.notify";
export const CLOSE_TICKETS_JOB = "incidents.closeTickets";
const notifyKey = (whatsappId: number) => `incidents:${whatsappId}`;

export interface IncidentDeps {
  conv: ConvDeps;
  clock: Clock;
  random: () => number;
  /** the job runner looks for due jobs now (after a commit that queued one) */
  wakeRunner: () => void;
}

type IncidentRow = {
  id: number;
  title: string;
  message: string;
  area: string;
  audience: string;
  cities: unknown;
  pops: unknown;
  tags: unknown;
  expected_at: Date | string | null;
  status: IncidentStatus;
  close_message: string;
  created_by: number | null;
  creator_name: string | null;
  created_at: Date | string;
  closed_at: Date | string | null;
  ticket_count: number | string;
  contact_count: number | string;
  n_pending: number | string;
  n_sent: number | string;
  n_skipped: number | string;
};

const selectIncidents = (where: ReturnType<typeof sql>) => sql`
  select i.id, i.title, i.message, i.area, i.audience, i.cities, i.pops, i.tags, i.expected_at, i.status, i.close_message, i.created_by, u.name as creator_name,
         i.created_at, i.closed_at,
         (select count(*) from incident_tickets it where it.incident_id = i.id) as ticket_count,
         c.contact_count, c.n_pending, c.n_sent, c.n_skipped
  from incidents i
  left join users u on u.id = i.created_by
  cross join lateral (
    select count(*) as contact_count,
           count(*) filter (where normal_state = 'pending') as n_pending,
           count(*) filter (where normal_state = 'sent') as n_sent,
           count(*) filter (where normal_state = 'skipped') as n_skipped
    from incident_contacts ic where ic.incident_id = i.id
  ) c
  where ${where}
  order by (i.status = 'open') desc, i.created_at desc, i.id desc
  limit 200`;

function toIncident(r: IncidentRow): Incident {
  return {
    id: Number(r.id),
    title: r.title,
    message: r.message,
    area: r.area,
    audience: r.audience === "area" ? "area" : "all",
    cities: listOf(r.cities),
    pops: listOf(r.pops),
    tags: listOf(r.tags),
    expectedAt: r.expected_at ? iso(r.expected_at) : null,
    status: r.status,
    closeMessage: r.close_message,
    createdBy: r.created_by !== null && r.creator_name !== null ? { id: Number(r.created_by), name: r.creator_name } : null,
    createdAt: iso(r.created_at),
    closedAt: r.closed_at ? iso(r.closed_at) : null,
    ticketCount: Number(r.ticket_count),
    contactCount: Number(r.contact_count),
    normalized: { pending: Number(r.n_pending), sent: Number(r.n_sent), skipped: Number(r.n_skipped) },
  };
}

export async function listIncidents(db: DbOrTx, status?: IncidentStatus): Promise<Incident[]> {
  const { rows } = await db.execute<IncidentRow>(selectIncidents(status ? sql`i.status = ${status}` : sql`true`));
  return rows.map(toIncident);
}

export async function getIncident(db: DbOrTx, id: number): Promise<Incident> {
  const { rows } = await db.execute<IncidentRow>(selectIncidents(sql`i.id = ${id}`));
  if (!rows[0]) throw new AppError("ERR_NO_INCIDENT_FOUND");
  return toIncident(rows[0]);
}

function publish(ctx: AppContext, action: "create" | "update" | "close", incident: Incident) {
  forgetOpenLook(ctx);
  ctx.events.publish("incident.changed", { action, incident });
}

/** POST /incidents (admins, supervisors): opened at once; customers who write from now get its notice once. */
export async function createIncident(ctx: AppContext, user: SessionUser, input: IncidentCreateBody): Promise<Incident> {
  assertKnownVariables({ message: input.message });
  const a = resolveArea(input);
  const { rows } = await ctx.db.execute<{ id: number }>(sql`
    insert into incidents (title, message, area, audience, cities, pops, tags, expected_at, created_by)
    values (${input.title}, ${input.message}, ${input.area ?? ""}, ${a.audience}, ${JSON.stringify(a.cities)}::jsonb,
            ${JSON.stringify(a.pops)}::jsonb, ${JSON.stringify(a.tags)}::jsonb, ${input.expectedAt ?? null}::timestamptz, ${user.id})
    returning id`);
  const incident = await getIncident(ctx.db, Number(rows[0].id));
  ctx.log.info({ incidentId: incident.id, userId: user.id }, "incident opened");
  publish(ctx, "create", incident);
  return incident;
}

/** PUT /incidents/:id: the texts and the expected return of an open incident. */
export async function updateIncident(ctx: AppContext, id: number, input: IncidentUpdateBody): Promise<Incident> {
  assertKnownVariables({ message: input.message });
  await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ status: string; audience: string; cities: unknown; pops: unknown; tags: unknown }>(
      sql`select status, audience, cities, pops, tags from incidents where id = ${id} for update`,
    );
    if (!rows[0]) throw new AppError("ERR_NO_INCIDENT_FOUND");
    if (rows[0].status !== "open") throw new AppError("ERR_INCIDENT_CLOSED");
    const r = rows[0];
    const a = resolveArea(input, {
      audience: r.audience === "area" ? "area" : "all",
      cities: listOf(r.cities),
      pops: listOf(r.pops),
      tags: listOf(r.tags),
    });
    await tx.execute(sql`
      update incidents set
        title = coalesce(${input.title ?? null}, title),
        message = coalesce(${input.message ?? null}, message),
        area = coalesce(${input.area ?? null}, area),
        audience = ${a.audience},
        cities = ${JSON.stringify(a.cities)}::jsonb,
        pops = ${JSON.stringify(a.pops)}::jsonb,
        tags = ${JSON.stringify(a.tags)}::jsonb,
        expected_at = ${input.expectedAt === undefined ? sql`expected_at` : sql`${input.expectedAt}::timestamptz`},
        updated_at = now()
      where id = ${id}`);
  });
  const incident = await getIncident(ctx.db, id);
  publish(ctx, "update", incident);
  return incident;
}

/**
 * POST /incidents/:id/close: closed once (a second close is ERR_INCIDENT_CLOSED); every customer
 * who wrote during it is queued for the "normalizado" notice, and the linked live tickets are
 * closed by a job when `closeTickets`.
 */
export async function closeIncident(deps: IncidentDeps, user: SessionUser, id: number, input: IncidentCloseBody): Promise<Incident> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  assertKnownVariables({ message: input.message });
  const zone = await timeZoneOf(ctx.db);
  await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ status: string; title: string; area: string; expected_at: Date | string | null }>(
      sql`select status, title, area, expected_at from incidents where id = ${id} for update`,
    );
    const row = rows[0];
    if (!row) throw new AppError("ERR_NO_INCIDENT_FOUND");
    if (row.status !== "open") throw new AppError("ERR_INCIDENT_CLOSED");
    const template = input.message?.trim() || INCIDENT_NORMALIZED_DEFAULT;
    await tx.execute(sql`
      update incidents set status = 'closed', close_message = ${incidentText(template, row, zone, now)},
             closed_at = now(), closed_by = ${user.id}, updated_at = now()
      where id = ${id}`);
    const { rows: conns } = await tx.execute<{ whatsapp_id: number }>(sql`
      with marked as (
        update incident_contacts set normal_state = 'pending'
        where incident_id = ${id} and normal_state = 'none' and whatsapp_id is not null
        returning whatsapp_id
      )
      select distinct whatsapp_id from marked`);
    for (const c of conns) await wakeNotify(tx, Number(c.whatsapp_id), now);
    if (input.closeTickets)
      await enqueueJob(tx, CLOSE_TICKETS_JOB, { incidentId: id, userId: user.id }, { runAt: new Date(now), maxAttempts: 3 });
  });
  deps.wakeRunner();
  const incident = await getIncident(ctx.db, id);
  ctx.log.info({ incidentId: id, userId: user.id, customers: incident.normalized.pending }, "incident closed");
  publish(ctx, "close", incident);
  return incident;
}

/** Queues the connection's notify job for `at`, or moves a queued one earlier (as the disparos' send job). */
export async function wakeNotify(tx: DbOrTx, whatsappId: number, at: number): Promise<void> {
  await queueOrMoveEarlier(tx, NOTIFY_JOB, { whatsappId }, { singletonKey: notifyKey(whatsappId), runAt: new Date(at) });
}

/**
 * The first thing a customer's message meets (before the bots and the queue menu): while
 * incidents are open the ticket is linked to each, and the customer gets each incident's notice
 * once — the (incident, contact) row inserted here is the "once", whatever process runs this.
 */
export async function noticeOpenIncidents(conv: ConvDeps, message: Message, ticket: Ticket): Promise<void> {
  if (message.fromMe || ticket.isGroup || ticket.whatsappId === null || message.mediaType === "call_log") return;
  const whatsappId = ticket.whatsappId;
  const { ctx } = conv;
  // almost always none is open: a look shared by the messages of 2 s instead of a transaction per
  // customer message (an incident opened after this look is as one opened after the message: the
  // next message meets it; an incident opened or closed on any process is heard at once)
  if (!(await anyOpenIncident(ctx))) return;
  const zone = await timeZoneOf(ctx.db);
  const queued = await ctx.db.transaction(async (tx) => {
    // the open incidents, held against a close until this commits
    const { rows: all } = await tx.execute<OpenRow>(
      sql`select id, message, title, area, expected_at, audience, cities, pops, tags from incidents where status = 'open' order by id for share`,
    );
    // an incident for an area: only a customer placed in it (todos os clientes: everyone)
    const places = all.some((o) => o.audience === "area") ? await placesOf(tx, ticket.contactId) : undefined;
    const open = all.filter((o) => !places || inArea(areaOf(o), places));
    if (!open.length) return { queued: [] as Queued[], linked: false };
    const ids = sql.join(
      open.map((o) => sql`${o.id}`),
      sql`, `,
    );
    const { rows: linked } = await tx.execute(sql`
      insert into incident_tickets (incident_id, ticket_id) select id, ${ticket.id} from incidents where id in (${ids})
      on conflict do nothing returning incident_id`);
    const { rows: fresh } = await tx.execute<{ incident_id: number }>(sql`
      insert into incident_contacts (incident_id, contact_id, whatsapp_id, ticket_id)
      select id, ${ticket.contactId}, ${whatsappId}, ${ticket.id} from incidents where id in (${ids})
      on conflict do nothing returning incident_id`);
    const out: Queued[] = [];
    for (const f of fresh) {
      const incident = open.find((o) => Number(o.id) === Number(f.incident_id));
      if (!incident?.message.trim()) continue;
      const body = incidentText(incident.message, incident, zone, Date.now());
      const q = await enqueueMessage(tx, {
        ticket: { id: ticket.id, whatsappId, contact: ticket.contact },
        source: "bot",
        userId: null,
        body,
        content: { kind: "text", body },
      });
      await tx.execute(sql`
        update incident_contacts set notice_message_id = ${q.id} where incident_id = ${f.incident_id} and contact_id = ${ticket.contactId}`);
      out.push({ id: q.id, whatsappId: q.whatsappId });
    }
    return { queued: out, linked: linked.length > 0 };
  });
  if (queued.linked) await publishLinked(ctx, ticket.id);
  await conv.outbox.committed(queued.queued);
}

type OpenRow = {
  id: number;
  message: string;
  title: string;
  area: string;
  expected_at: Date | string | null;
  audience: string;
  cities: unknown;
  pops: unknown;
  tags: unknown;
};

const areaOf = (o: OpenRow): IncidentArea => ({
  audience: o.audience === "area" ? "area" : "all",
  cities: listOf(o.cities),
  pops: listOf(o.pops),
  tags: listOf(o.tags),
});

/** A ticket newly grouped under an incident: its lists hear it (the ticket carries its incidents). */
async function publishLinked(ctx: AppContext, ticketId: number): Promise<void> {
  const fresh = await findTicket(ctx.db, ticketId);
  if (fresh)
    ctx.events.publish("ticket.updated", {
      ticket: fresh,
      previous: { status: fresh.status, queueId: fresh.queueId, userId: fresh.userId },
    });
}

/** How long a process trusts its answer to "is an incident open?" when no change was heard. */
const OPEN_LOOK_MS = 2000;
const openLooks = new WeakMap<AppContext, { open: boolean; until: number; generation: number; reading?: Promise<boolean> }>();

/**
 * Whether an incident is open: read from the database at most every 2 s per process (each customer
 * message asks), and again at once after `incident.changed` is heard (`forgetOpenLook`, on every
 * process). A read that started before a change does not keep its answer.
 */
export async function anyOpenIncident(ctx: AppContext): Promise<boolean> {
  const now = Date.now();
  const look = openLooks.get(ctx) ?? { open: false, until: 0, generation: 0 };
  openLooks.set(ctx, look);
  if (look.until > now) return look.open;
  // the messages that ask while a read is in flight wait for it (before: each read on its own, every
  // message in flight when the look expired; 0.14 statements per message on the inbound bench)
  if (look.reading) return look.reading;
  const generation = look.generation;
  const reading = ctx.db.execute(sql`select 1 from incidents where status = 'open' limit 1`).then(({ rows }) => {
    if (look.generation === generation) {
      look.open = rows.length > 0;
      look.until = now + OPEN_LOOK_MS;
    }
    return rows.length > 0;
  });
  look.reading = reading;
  const clear = () => {
    if (look.reading === reading) look.reading = undefined;
  };
  reading.then(clear, clear);
  return reading;
}

/** An incident was opened, changed or closed (on any process): the next look reads the database. */
export function forgetOpenLook(ctx: AppContext): void {
  const look = openLooks.get(ctx);
  if (!look) return;
  look.generation++;
  look.until = 0;
  // a read that started before the change is not shared with the looks after it
  look.reading = undefined;
}

/**
 * The billing system says the customer's connection is in maintenance (SGP `verificaacesso` 8/9):
 * the customer and ticket are linked to the open incident (the latest), and get its notice if they
 * had not. No incident open: nothing.
 */
export async function linkMaintenance(conv: ConvDeps, ticket: Ticket): Promise<number | undefined> {
  if (ticket.whatsappId === null || ticket.isGroup) return undefined;
  const whatsappId = ticket.whatsappId;
  const { ctx } = conv;
  const zone = await timeZoneOf(ctx.db);
  const result = await ctx.db.transaction(async (tx) => {
    // the billing system itself says this customer's connection is in maintenance: no area to check
    const { rows } = await tx.execute<OpenRow>(
      sql`select id, message, title, area, expected_at, audience, cities, pops, tags from incidents
          where status = 'open' order by created_at desc, id desc limit 1 for share`,
    );
    const incident = rows[0];
    if (!incident) return undefined;
    const { rows: linked } = await tx.execute(
      sql`insert into incident_tickets (incident_id, ticket_id) values (${incident.id}, ${ticket.id}) on conflict do nothing returning ticket_id`,
    );
    const { rows: fresh } = await tx.execute(sql`
      insert into incident_contacts (incident_id, contact_id, whatsapp_id, ticket_id, via)
      values (${incident.id}, ${ticket.contactId}, ${whatsappId}, ${ticket.id}, 'sgp')
      on conflict do nothing returning incident_id`);
    const queued: Queued[] = [];
    if (fresh.length && incident.message.trim()) {
      const body = incidentText(incident.message, incident, zone, Date.now());
      const q = await enqueueMessage(tx, {
        ticket: { id: ticket.id, whatsappId, contact: ticket.contact },
        source: "bot",
        userId: null,
        body,
        content: { kind: "text", body },
      });
      await tx.execute(
        sql`update incident_contacts set notice_message_id = ${q.id} where incident_id = ${incident.id} and contact_id = ${ticket.contactId}`,
      );
      queued.push({ id: q.id, whatsappId: q.whatsappId });
    }
    return { id: Number(incident.id), queued, linked: linked.length > 0 };
  });
  if (!result) return undefined;
  if (result.linked) await publishLinked(ctx, ticket.id);
  await conv.outbox.committed(result.queued);
  return result.id;
}

/** "Normalizado" notices to live chats queued by one run (the next run takes the next ones at once). */
const LIVE_BATCH = 10;

type PendingRow = {
  incident_id: number;
  contact_id: number;
  close_message: string;
  number: string | null;
  lid: string | null;
  opted_out: boolean;
};

const pendingSelect = (whatsappId: number, live: SQL) => sql`
  select ic.incident_id, ic.contact_id, i.close_message, c.number, c.lid,
         exists (select 1 from contact_opt_outs o where o.contact_id = ic.contact_id) as opted_out
  from incident_contacts ic
  join incidents i on i.id = ic.incident_id
  join contacts c on c.id = ic.contact_id
  where ic.whatsapp_id = ${whatsappId} and ic.normal_state = 'pending' ${live}
  order by i.closed_at, ic.created_at, ic.contact_id`;

/**
 * The live chats' "normalizado" (issue 53 item 2c): a customer who wrote to the connection within
 * the outbox's live window (LIVE_WINDOW_MS, WhatsApp's 24 h customer-service window) has a live
 * chat, so the notice goes as a reply does — queued at once (the sender sends it without the
 * unsolicited pace, with the chat's typing gap), not one every 8–15 s. Up to LIVE_BATCH a run, each
 * marked sent in the transaction that queues it (once per customer, whatever crashes).
 */
async function takeLive(tx: DbOrTx, whatsappId: number, now: number): Promise<Queued[]> {
  const since = new Date(now - LIVE_WINDOW_MS).toISOString();
  const { rows } = await tx.execute<PendingRow>(sql`
    ${pendingSelect(
      whatsappId,
      sql`and exists (select 1 from tickets t join messages m on m.ticket_id = t.id
                      where t.contact_id = ic.contact_id and t.whatsapp_id = ${whatsappId} and not m.from_me
                        and m.created_at > ${since}::timestamptz)`,
    )}
    limit ${LIVE_BATCH}
    for update of ic skip locked`);
  const out: Queued[] = [];
  for (const r of rows) {
    const q = await notifyOne(tx, whatsappId, r, "bot");
    if (q) out.push(q);
  }
  return out;
}

/** One pending customer: skipped (opted out, no address, no text) or its notice queued and the row marked sent. */
async function notifyOne(tx: DbOrTx, whatsappId: number, r: PendingRow, source: "bot" | "disparo"): Promise<Queued | undefined> {
  const key = sql`incident_id = ${r.incident_id} and contact_id = ${r.contact_id}`;
  if (r.opted_out || (!r.number && !r.lid) || !r.close_message.trim()) {
    await tx.execute(sql`update incident_contacts set normal_state = 'skipped' where ${key}`);
    return undefined;
  }
  const ticket = await historyTicket(tx, Number(r.contact_id), whatsappId);
  const q = await enqueueMessage(tx, {
    ticket: { id: ticket.id, whatsappId, contact: { number: r.number, lid: r.lid, isGroup: false } },
    source,
    userId: null,
    body: r.close_message,
    content: { kind: "text", body: r.close_message },
  });
  await tx.execute(sql`update incident_contacts set normal_state = 'sent', normal_message_id = ${q.id} where ${key}`);
  return { id: q.id, whatsappId };
}

/**
 * One run of a connection's notify job: in ONE transaction the connection's disparo settings row
 * is locked (the unsolicited pace and its state, shared with the disparos) and the job's singleton
 * key released; then the customers whose chat is live get theirs at once, as replies (`takeLive`:
 * a batch, and the next run at once); when none is left, the pace decides, one pending customer is
 * taken (opted-out ones and ones without an address are skipped without using the pace), the
 * notice queued in the outbox at the bulk priority, and the next run queued for when the pace allows.
 */
export async function runNotify(deps: IncidentDeps, whatsappId: number, jobId: number): Promise<void> {
  const { ctx } = deps.conv;
  const now = deps.clock.now();
  const zone = await timeZoneOf(ctx.db);
  const queued = await ctx.db.transaction(async (tx) => {
    const { rows: conn } = await tx.execute<{ status: string }>(sql`select status from whatsapps where id = ${whatsappId}`);
    if (!conn[0]) {
      await tx.execute(
        sql`update incident_contacts set normal_state = 'skipped' where whatsapp_id = ${whatsappId} and normal_state = 'pending'`,
      );
      return undefined;
    }
    // the settings row first (shared with the disparos, whose transactions lock it before queueing their job)
    const cfg = await lockSettings(tx, whatsappId);
    await releaseOwnKey(tx, jobId);
    if (conn[0].status !== "CONNECTED" || !deps.conv.channels.get(whatsappId)?.connected) return undefined;
    // live chats: replies, whatever the pace (and the disparos' pause)
    const live = await takeLive(tx, whatsappId, now);
    if (live.length) {
      await wakeNotify(tx, whatsappId, now);
      return live;
    }
    // a paused or disconnected number sends nothing unsolicited: the sweep and the reconnect wake it again
    if (cfg.paused) return undefined;
    const decision = decidePace(paceOf(cfg, now, zone), stateOf(cfg), now, zone, deps.random);
    if (!decision.go) {
      await wakeNotify(tx, whatsappId, decision.at);
      return undefined;
    }
    for (;;) {
      const { rows } = await tx.execute<PendingRow>(sql`${pendingSelect(whatsappId, sql``)} limit 1 for update of ic skip locked`);
      const r = rows[0];
      if (!r) return undefined;
      const q = await notifyOne(tx, whatsappId, r, "disparo");
      if (!q) continue;
      const s = decision.state;
      await tx.execute(sql`
        update disparo_settings set next_at = ${s.nextAt === null ? null : new Date(s.nextAt).toISOString()}::timestamptz,
               day = ${s.day}, day_count = ${s.dayCount}, streak = ${s.streak}, updated_at = now()
        where whatsapp_id = ${whatsappId}`);
      const { rows: more } = await tx.execute(
        sql`select 1 from incident_contacts where whatsapp_id = ${whatsappId} and normal_state = 'pending' limit 1`,
      );
      if (more.length) await wakeNotify(tx, whatsappId, s.nextAt ?? now);
      return [q];
    }
  });
  if (queued?.length) {
    deps.wakeRunner();
    await deps.conv.outbox.committed(queued);
  }
}

/** Every minute, and when a number connects: connections with customers still to tell get their job (a wake missed, a paused number resumed). */
export async function sweepNotify(deps: IncidentDeps, whatsappId?: number): Promise<void> {
  const { ctx } = deps.conv;
  const { rows } = await ctx.db.execute<{ whatsapp_id: number }>(sql`
    select distinct whatsapp_id from incident_contacts
    where normal_state = 'pending' ${whatsappId === undefined ? sql`` : sql`and whatsapp_id = ${whatsappId}`}`);
  if (!rows.length) return;
  for (const r of rows) await wakeNotify(ctx.db, Number(r.whatsapp_id), deps.clock.now());
  deps.wakeRunner();
}

/** The close's "close their tickets": each linked live ticket finished through the state machine, as the user who closed the incident. */
export async function runCloseTickets(deps: IncidentDeps, p: { incidentId: number; userId: number }): Promise<void> {
  const { ctx } = deps.conv;
  const { rows: users } = await ctx.db.execute<{ id: number; profile: "admin" | "superv" | "user" }>(
    sql`select id, profile from users where id = ${p.userId}`,
  );
  const u = users[0];
  // the bulk close acts as its closer would one ticket at a time: a closer gone since closes nothing
  if (!u) {
    ctx.log.warn({ incidentId: p.incidentId, userId: p.userId }, "incident tickets not closed: the user who asked is gone");
    return;
  }
  const { rows: queueRows } = await ctx.db.execute<{ queue_id: number }>(sql`select queue_id from user_queues where user_id = ${p.userId}`);
  const actor = { kind: "user" as const, id: Number(u.id), profile: u.profile, queueIds: queueRows.map((q) => Number(q.queue_id)) };
  const { rows } = await ctx.db.execute<{ ticket_id: number; queue_id: number | null; user_id: number | null }>(sql`
    select it.ticket_id, t.queue_id, t.user_id from incident_tickets it join tickets t on t.id = it.ticket_id
    where it.incident_id = ${p.incidentId} and t.status in ('open', 'pending') order by it.ticket_id`);
  let closed = 0;
  let skipped = 0;
  for (const r of rows) {
    // the same rule as PUT /tickets/{id}: a ticket its closer may not see (another queue's) stays open
    // (the transition checks it again under the row's lock, in case it moved since)
    if (
      !canSee(actor, { queueId: r.queue_id === null ? null : Number(r.queue_id), userId: r.user_id === null ? null : Number(r.user_id) })
    ) {
      skipped++;
      continue;
    }
    try {
      const done = await ctx.db.transaction((tx) => transitionTicket(tx, Number(r.ticket_id), actor, { type: "finish" }));
      await afterTransition(deps.conv, done);
      if (done.changed) closed++;
    } catch (err) {
      if (err instanceof AppError && err.code === "ERR_NO_PERMISSION") skipped++;
      else ctx.log.warn({ err, ticketId: r.ticket_id, incidentId: p.incidentId }, "closing an incident's ticket failed");
    }
  }
  ctx.log.info({ incidentId: p.incidentId, closed, skipped }, "incident tickets closed");
}
