import { eq, type SQL, sql } from "drizzle-orm";
import { ChannelSendError, type OutboundContent } from "../../channels/channel.js";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import { whatsapps } from "../../db/schema/index.js";
import type { MediaStore } from "../../lib/media.js";
import { type Clock, createPace, DEFAULT_RATE_LIMIT, type Pace, type RateLimitOptions, realClock } from "../../lib/pace.js";
import type { OutboxPayload } from "./enqueue.js";

/**
 * The sender of each connection: takes the connection's outbox rows and sends them with the id
 * they were stored with, one at a time.
 *
 * - Replies go at once. A row whose chat is live — the customer wrote to it (a message of theirs
 *   in any ticket of the contact on this connection) in the last 24 h, as the messages table says
 *   when the row is claimed, whoever queued it — is a reply: agents' answers, greetings, menus,
 *   bot answers, farewells, and schedules or API sends to that chat. It waits for nothing but its
 *   chat: the chat's earlier rows, and `replyGapMs` (a typing gap) after the chat's previous send.
 * - Unsolicited rows (a quiet chat: disparos, schedules, API sends, an agent starting a
 *   conversation) keep the number's pace (lib/pace.ts): one goes only when the pace allows, and
 *   it never holds a reply back; the sender sets a timer for the pace instead of sleeping.
 * - Order: a chat's rows go out in the order they were stored (a row waits while an earlier row
 *   of its chat is pending); across chats the lowest priority goes first (agent, bot, schedule
 *   and API, disparo), then the oldest.
 * - A row is claimed with FOR UPDATE SKIP LOCKED and a lease; once the channel took it, it is
 *   removed. A transient failure is retried with backoff; a permanent one, or the last attempt,
 *   marks the message failed with its reason.
 * - Only while the session is connected: a disconnected connection keeps its queue, and the
 *   sender resumes on reconnect. After a crash, rows claimed but not confirmed are sent again
 *   with the same id (WhatsApp and the simulator keep one message per id).
 */

/** A chat is live while the customer's last message in it is younger than this: WhatsApp's own customer-service window. */
export const LIVE_WINDOW_MS = 24 * 3600_000;

export interface SenderOptions {
  clock?: Clock;
  random?: () => number;
  /** how long a claimed row is held before another sender may take it */
  leaseMs?: number;
  maxAttempts?: number;
  /** delay before attempt n + 1 after n transient failures */
  backoffMs?: (attempts: number) => number;
}

type Claimed = {
  id: number;
  message_id: number;
  whatsapp_id: number;
  wid: string;
  payload: OutboxPayload | string;
  attempts: number;
  priority: number;
  chat: string;
  /** the chat is live (a reply): it went without the pace */
  live: boolean;
};

/** A connection's send settings as the sender keeps them. */
type Settings = { pace: Pace; options: RateLimitOptions; replyGapMs: number };

export type SendFailure = { messageId: number; reason: string };

/**
 * The number's health (modules/health/gate.ts): whether its unsolicited rows may go now (paused:
 * never until woken; past its daily cap: the next day), and what it is told of sends and failures.
 */
export interface SendGate {
  /** undefined: they may go; a time: not before it (Infinity: until something wakes the sender) */
  unsolicitedBlockedUntil(whatsappId: number, now: number): Promise<number | undefined>;
  sentUnsolicited(whatsappId: number, now: number): Promise<void>;
  failed(whatsappId: number, reason: string, permanent: boolean): Promise<void>;
}

export const DEFAULT_SENDER = { leaseMs: 60_000, maxAttempts: 6 };
export const defaultBackoff = (attempts: number) => Math.min(300_000, 2000 * 2 ** (attempts - 1));

export class OutboxSender {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: (attempts: number) => number;
  private readonly running = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();
  private readonly settings = new Map<number, Settings>();
  /** per connection: when each chat recently sent to may send again (its typing gap) */
  private readonly gaps = new Map<number, Map<string, number>>();
  private readonly timers = new Map<number, { at: number; cancel: () => void }>();
  private readonly stale = new Set<number>();
  /** connections with unsolicited rows waiting for the pace: a customer's message may make one a reply */
  private readonly pacedWaiting = new Set<number>();
  private stopped = false;
  private gate?: SendGate;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly channels: ChannelManager,
    private readonly media: MediaStore,
    /** told after a message finally failed (the messages module publishes it) */
    private readonly onFailed: (failure: SendFailure) => Promise<void>,
    opts: SenderOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.leaseMs = opts.leaseMs ?? DEFAULT_SENDER.leaseMs;
    this.maxAttempts = opts.maxAttempts ?? DEFAULT_SENDER.maxAttempts;
    this.backoffMs = opts.backoffMs ?? defaultBackoff;
    channels.onStatus((whatsappId, e) => {
      if (e.status === "CONNECTED") this.wake(whatsappId);
    });
    // settings changed: read again at the next send (a pace left unchanged keeps its state)
    ctx.events.onEverywhere("whatsapp.saved", ({ whatsapp }) => this.stale.add(whatsapp.id));
    // a customer wrote: a row of theirs waiting for the pace is a reply now
    ctx.events.onEverywhere("message.created", ({ message, ticket }) => {
      if (!message.fromMe && ticket.whatsappId !== null && this.pacedWaiting.has(ticket.whatsappId)) this.wake(ticket.whatsappId);
    });
    ctx.events.onEverywhere("whatsapp.deleted", ({ whatsappId }) => {
      this.settings.delete(whatsappId);
      this.gaps.delete(whatsappId);
    });
  }

  /**
   * At start: this process owns the sessions it runs, so claims left by a previous run of it (a
   * crash) are released at once instead of waiting for their lease; then every connection with
   * queued rows is woken.
   */
  async start(): Promise<void> {
    await this.ctx.db.execute(sql`update outbox set lease_until = null where lease_until is not null`);
    const { rows } = await this.ctx.db.execute<{ whatsapp_id: number }>(
      sql`select distinct whatsapp_id from outbox where failed_at is null`,
    );
    for (const r of rows) this.wake(Number(r.whatsapp_id));
  }

  /**
   * Several processes: this process took the connection over (its previous owner died or handed
   * it over): the rows that owner had claimed are released at once, then its queue is sent.
   */
  async adopt(whatsappId: number): Promise<void> {
    await this.ctx.db.execute(sql`update outbox set lease_until = null where whatsapp_id = ${whatsappId} and lease_until is not null`);
    this.wake(whatsappId);
  }

  /** The number-health gate (set once by the health module). */
  setGate(gate: SendGate): void {
    this.gate = gate;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }

  /** Something was queued for the connection (or it reconnected): its sender runs until nothing is due. */
  wake(whatsappId: number): void {
    if (this.stopped) return;
    if (this.running.has(whatsappId)) {
      this.again.add(whatsappId);
      return;
    }
    const run = (async () => {
      do {
        this.again.delete(whatsappId);
        try {
          await this.drain(whatsappId);
        } catch (err) {
          this.ctx.log.error({ err, whatsappId }, "outbox sender failed");
          this.later(whatsappId, this.clock.now() + 5000);
        }
      } while (this.again.has(whatsappId) && !this.stopped);
    })().finally(() => {
      this.running.delete(whatsappId);
      // a wake between the loop's last look and this callback (a later microtask) found the sender
      // still running and only marked it: without this its message waited for an unrelated wake
      if (this.again.has(whatsappId) && !this.stopped) return this.wake(whatsappId);
      if (this.running.size === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
    });
    this.running.set(whatsappId, run);
  }

  /** Resolves when no sender is running (tests, shutdown). */
  idle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(whatsappId: number): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const session = this.channels.get(whatsappId);
      if (!session?.connected) return;
      const settings = await this.settingsOf(whatsappId);
      // the number's health first (an await): `now` is taken after it, as the pace reads the clock
      const blockedUntil = await this.gate?.unsolicitedBlockedUntil(whatsappId, this.clock.now());
      const now = this.clock.now();
      const gaps = this.gapsOf(whatsappId, now);
      const paceOpen = blockedUntil === undefined && settings.pace.readyAt() <= now;
      // a reply goes whatever the pace; an unsolicited row only when the pace allows
      const row = await this.claim(whatsappId, now, [...gaps.keys()], paceOpen);
      if (row) {
        if (!row.live) settings.pace.took();
        if ((await this.attempt(whatsappId, row)) && !row.live)
          await this.gate
            ?.sentUnsolicited(whatsappId, this.clock.now())
            .catch((e) => this.ctx.log.error({ err: e }, "number health: a send not counted"));
        if (settings.replyGapMs > 0) gaps.set(row.chat, this.clock.now() + settings.replyGapMs);
        continue;
      }
      // nothing may go now: look again when something may
      this.pacedWaiting.delete(whatsappId);
      const next = await this.nextDue(whatsappId, now, gaps, paceOpen ? undefined : (blockedUntil ?? settings.pace.readyAt()));
      if (next !== undefined) this.later(whatsappId, next);
      return;
    }
  }

  /** The chats of the connection still in their typing gap (the others forgotten). */
  private gapsOf(whatsappId: number, now: number): Map<string, number> {
    let gaps = this.gaps.get(whatsappId);
    if (!gaps) {
      gaps = new Map();
      this.gaps.set(whatsappId, gaps);
    }
    for (const [chat, until] of gaps) if (until <= now) gaps.delete(chat);
    return gaps;
  }

  /**
   * When to look again, after a claim found nothing: the end of a waiting chat's typing gap, the
   * pace (`paceAt`, when it is closed) if an unsolicited row waits, a backoff or a lease ending;
   * undefined when nothing waits.
   */
  private async nextDue(
    whatsappId: number,
    now: number,
    gaps: Map<string, number>,
    paceAt: number | undefined,
  ): Promise<number | undefined> {
    const at = new Date(now).toISOString();
    const { rows } = await this.ctx.db.execute<{ due_now: boolean | null; later_at: string | Date | null; gapped: string[] | null }>(sql`
      with heads as (
        select o.chat, (o.next_attempt_at is null or o.next_attempt_at <= ${at}::timestamptz)
                   and (o.lease_until is null or o.lease_until < ${at}::timestamptz) as due,
               greatest(o.next_attempt_at, o.lease_until) as due_at
        from outbox o
        where o.whatsapp_id = ${whatsappId} and o.failed_at is null
          and not exists (select 1 from outbox p where p.whatsapp_id = o.whatsapp_id and p.chat = o.chat and p.id < o.id and p.failed_at is null)
      )
      select bool_or(due and ${notIn(sql`chat`, [...gaps.keys()])}) as due_now,
             min(due_at) filter (where not due) as later_at,
             array_agg(distinct chat) filter (where due and not ${notIn(sql`chat`, [...gaps.keys()])}) as gapped
      from heads`);
    const r = rows[0];
    const candidates: number[] = [];
    // due rows the claim left: unsolicited ones waiting for the pace (or, with the pace open, a
    // row another transaction held for a moment; a row queued meanwhile wakes the sender anyway)
    if (r?.due_now) {
      // a paused number's unsolicited rows wait for its resume (which wakes the sender)
      if (paceAt !== Number.POSITIVE_INFINITY) candidates.push(paceAt ?? now + 1000);
      if (paceAt !== undefined) this.pacedWaiting.add(whatsappId);
    }
    if (r?.later_at) candidates.push(new Date(r.later_at).getTime());
    for (const chat of r?.gapped ?? []) {
      const until = gaps.get(chat);
      if (until !== undefined) candidates.push(until);
    }
    return candidates.length ? Math.min(...candidates) : undefined;
  }

  private async claim(whatsappId: number, now: number, gapped: string[], paceOpen: boolean): Promise<Claimed | undefined> {
    const at = new Date(now).toISOString();
    const since = new Date(now - LIVE_WINDOW_MS).toISOString();
    const { rows } = await this.ctx.db.execute<Claimed>(sql`
      with next as (
        select o.id from outbox o
        where o.whatsapp_id = ${whatsappId} and o.failed_at is null
          and (o.next_attempt_at is null or o.next_attempt_at <= ${at}::timestamptz)
          and (o.lease_until is null or o.lease_until < ${at}::timestamptz)
          and ${notIn(sql`o.chat`, gapped)}
          and not exists (select 1 from outbox p where p.whatsapp_id = o.whatsapp_id and p.chat = o.chat and p.id < o.id and p.failed_at is null)
          ${paceOpen ? sql`` : sql`and ${liveChat(sql`o`, since)}`}
        order by o.priority, o.id
        limit 1
        for update skip locked
      )
      update outbox set lease_until = ${new Date(now + this.leaseMs).toISOString()}::timestamptz, attempts = outbox.attempts + 1
      from next where outbox.id = next.id
      returning outbox.id, outbox.message_id, outbox.whatsapp_id, outbox.wid, outbox.payload, outbox.attempts, outbox.priority,
                outbox.chat, ${paceOpen ? liveChat(sql`outbox`, since) : sql`true`} as live`);
    const r = rows[0];
    return r
      ? {
          ...r,
          id: Number(r.id),
          message_id: Number(r.message_id),
          priority: Number(r.priority),
          live: r.live === true || String(r.live) === "t",
        }
      : undefined;
  }

  /** Sends a claimed row; answers whether the channel took it. */
  private async attempt(whatsappId: number, row: Claimed): Promise<boolean> {
    const session = this.channels.get(whatsappId);
    const payload = (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as OutboxPayload;
    try {
      if (!session) throw new ChannelSendError("ERR_WAPP_NOT_INITIALIZED", false);
      const content = await this.contentOf(payload);
      await session.send(payload.to, content, payload.quoted, { id: row.wid, live: row.live, automatic: row.priority > 0 });
    } catch (err) {
      const permanent = err instanceof ChannelSendError && err.permanent;
      if (err instanceof ChannelSendError && !permanent && err.retryAt !== undefined) {
        // the channel said when (a send of unknown outcome waits for its statuses, a rate limit): no attempt used
        await this.ctx.db.execute(sql`
          update outbox set lease_until = null, attempts = ${row.attempts - 1}, next_attempt_at = ${new Date(err.retryAt).toISOString()}::timestamptz,
            last_error = ${err.reason.slice(0, 500)}
          where id = ${row.id}`);
        return false;
      }
      const reason = err instanceof ChannelSendError ? err.reason : err instanceof Error ? err.message : String(err);
      // a session that dropped mid-send does not use up the message's attempts: it waits for the reconnect
      const dropped = !permanent && !this.channels.get(whatsappId)?.connected;
      if (!permanent && (dropped || row.attempts < this.maxAttempts)) {
        const attempts = dropped ? row.attempts - 1 : row.attempts;
        const at = dropped ? null : new Date(this.clock.now() + this.backoffMs(attempts)).toISOString();
        await this.ctx.db.execute(sql`
          update outbox set lease_until = null, attempts = ${attempts}, next_attempt_at = ${at}::timestamptz, last_error = ${reason.slice(0, 500)}
          where id = ${row.id}`);
        this.ctx.log.warn(
          { whatsappId, messageId: row.message_id, attempts: row.attempts, reason },
          "sending a message failed; it will be tried again",
        );
        return false;
      }
      await this.ctx.db.execute(sql`
        with o as (update outbox set failed_at = now(), lease_until = null, last_error = ${reason.slice(0, 500)} where id = ${row.id})
        update messages set send_error = ${reason.slice(0, 500)}, updated_at = now() where id = ${row.message_id}`);
      this.ctx.log.warn({ whatsappId, messageId: row.message_id, reason }, "a message could not be sent");
      this.ctx.events.publish("message.failed", { messageId: row.message_id, whatsappId, reason });
      await this.onFailed({ messageId: row.message_id, reason }).catch((e) =>
        this.ctx.log.error({ err: e }, "publishing a failed send failed"),
      );
      await this.gate
        ?.failed(whatsappId, reason, permanent)
        .catch((e) => this.ctx.log.error({ err: e }, "number health: a failure not recorded"));
      return false;
    }
    await this.ctx.db.execute(sql`
      with o as (delete from outbox where id = ${row.id})
      update messages set sent_at = now() where id = ${row.message_id}`);
    this.ctx.events.publish("message.sent", { messageId: row.message_id, whatsappId, priority: row.priority });
    return true;
  }

  private async contentOf(payload: OutboxPayload): Promise<OutboundContent> {
    const c = payload.content;
    if (c.kind !== "media") return c;
    const data = await this.media.read(c.mediaKey);
    if (!data) throw new ChannelSendError("media file missing", true);
    const { mediaKey: _key, ...rest } = c;
    return { ...rest, data };
  }

  private async settingsOf(whatsappId: number): Promise<Settings> {
    const hit = this.settings.get(whatsappId);
    if (hit && !this.stale.has(whatsappId)) return hit;
    this.stale.delete(whatsappId);
    const [row] = await this.ctx.db
      .select({
        interval: whatsapps.sendIntervalMs,
        jitter: whatsapps.sendJitterMs,
        burst: whatsapps.sendBurst,
        gap: whatsapps.replyGapMs,
        type: whatsapps.type,
      })
      .from(whatsapps)
      .where(eq(whatsapps.id, whatsappId));
    // an engine with a pace of its own (the Cloud API: Meta's throughput, tier and pair rate, kept by the
    // channel) declared it when registered; the others follow the connection's pace settings
    const engine = row ? this.channels.traitsOf(row.type).pace : undefined;
    const options: RateLimitOptions = row
      ? engine
        ? { ...DEFAULT_RATE_LIMIT, ...engine }
        : { ...DEFAULT_RATE_LIMIT, minIntervalMs: row.interval, jitterMs: row.jitter, burst: row.burst }
      : DEFAULT_RATE_LIMIT;
    // a pace changed while the sender runs applies from its next send; an unchanged one keeps its state
    const pace = hit && samePace(hit.options, options) ? hit.pace : createPace(options, this.clock, this.random);
    const settings: Settings = { pace, options, replyGapMs: row?.gap ?? 0 };
    this.settings.set(whatsappId, settings);
    return settings;
  }

  /** Wakes the connection's sender at `at` (a backoff ended, a lease expires). */
  private later(whatsappId: number, at: number) {
    const current = this.timers.get(whatsappId);
    if (current && current.at <= at) return;
    current?.cancel();
    const cancel = this.clock.setTimer(
      () => {
        this.timers.delete(whatsappId);
        this.wake(whatsappId);
      },
      Math.max(0, at - this.clock.now()),
    );
    this.timers.set(whatsappId, { at, cancel });
  }
}

function samePace(a: RateLimitOptions, b: RateLimitOptions) {
  return a.minIntervalMs === b.minIntervalMs && a.jitterMs === b.jitterMs && a.burst === b.burst;
}

/** `column` is none of `values` (true for none). */
function notIn(column: SQL, values: string[]): SQL {
  if (values.length === 0) return sql`true`;
  return sql`${column} not in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
}

/**
 * The outbox row `o`'s chat is live: the customer wrote to it since `since` — a message of theirs
 * in any ticket of the row's contact on the row's connection (the index of tickets by contact,
 * then each ticket's messages by time).
 */
function liveChat(o: SQL, since: string): SQL {
  return sql`exists (
    select 1 from messages mo
    join tickets tk on tk.id = mo.ticket_id
    join tickets t2 on t2.contact_id = tk.contact_id and t2.whatsapp_id = ${o}.whatsapp_id
    join messages mi on mi.ticket_id = t2.id
    where mo.id = ${o}.message_id and mi.created_at > ${since}::timestamptz and not mi.from_me)`;
}
