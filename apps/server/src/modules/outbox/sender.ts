import { eq, sql } from "drizzle-orm";
import { ChannelSendError, type OutboundContent } from "../../channels/channel.js";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import { whatsapps } from "../../db/schema/index.js";
import type { MediaStore } from "../../lib/media.js";
import { type Clock, createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimiter, type RateLimitOptions, realClock } from "../../lib/pace.js";
import type { OutboxPayload } from "./enqueue.js";

/**
 * The sender of each connection: takes the connection's outbox rows and sends them with the id
 * they were stored with, one at a time, at the number's one pace (every source together).
 *
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
};

export type SendFailure = { messageId: number; reason: string };

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
  private readonly pacers = new Map<number, { limiter: RateLimiter; options: RateLimitOptions }>();
  private readonly timers = new Map<number, { at: number; cancel: () => void }>();
  private stopped = false;
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
    const dropPace = ({ whatsappId }: { whatsappId: number }) => this.pacers.delete(whatsappId);
    ctx.events.on("whatsapp.saved", ({ whatsapp }) => dropPace({ whatsappId: whatsapp.id }));
    ctx.events.on("whatsapp.deleted", dropPace);
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
      const nextAt = await this.nextDue(whatsappId);
      if (nextAt === undefined) return;
      if (nextAt > this.clock.now()) {
        this.later(whatsappId, nextAt);
        return;
      }
      const pacer = await this.pacer(whatsappId);
      // the pace is kept before the claim, so a reply queued meanwhile still goes first
      const done = await pacer.run(async () => {
        const row = await this.claim(whatsappId);
        if (!row) return false;
        await this.attempt(whatsappId, row);
        return true;
      });
      if (!done) continue;
    }
  }

  /** When the connection's next row may be sent (now or later), or undefined when nothing waits. */
  private async nextDue(whatsappId: number): Promise<number | undefined> {
    const { rows } = await this.ctx.db.execute<{ any_row: boolean; due_now: boolean; at: string | Date | null }>(sql`
      select count(*) > 0 as any_row,
             bool_or(o.next_attempt_at is null and o.lease_until is null) as due_now,
             min(greatest(o.next_attempt_at, o.lease_until)) as at
      from outbox o
      where o.whatsapp_id = ${whatsappId} and o.failed_at is null
        and not exists (select 1 from outbox p where p.whatsapp_id = o.whatsapp_id and p.chat = o.chat and p.id < o.id and p.failed_at is null)`);
    const r = rows[0];
    if (!r?.any_row) return undefined;
    if (r.due_now || r.at === null) return this.clock.now();
    return new Date(r.at).getTime();
  }

  private async claim(whatsappId: number): Promise<Claimed | undefined> {
    const now = this.clock.now();
    const { rows } = await this.ctx.db.execute<Claimed>(sql`
      with next as (
        select o.id from outbox o
        where o.whatsapp_id = ${whatsappId} and o.failed_at is null
          and (o.next_attempt_at is null or o.next_attempt_at <= ${new Date(now).toISOString()}::timestamptz)
          and (o.lease_until is null or o.lease_until < ${new Date(now).toISOString()}::timestamptz)
          and not exists (select 1 from outbox p where p.whatsapp_id = o.whatsapp_id and p.chat = o.chat and p.id < o.id and p.failed_at is null)
        order by o.priority, o.id
        limit 1
        for update skip locked
      )
      update outbox set lease_until = ${new Date(now + this.leaseMs).toISOString()}::timestamptz, attempts = outbox.attempts + 1
      from next where outbox.id = next.id
      returning outbox.id, outbox.message_id, outbox.whatsapp_id, outbox.wid, outbox.payload, outbox.attempts, outbox.priority`);
    const r = rows[0];
    return r ? { ...r, id: Number(r.id), message_id: Number(r.message_id), priority: Number(r.priority) } : undefined;
  }

  private async attempt(whatsappId: number, row: Claimed): Promise<void> {
    const session = this.channels.get(whatsappId);
    const payload = (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as OutboxPayload;
    try {
      if (!session) throw new ChannelSendError("ERR_WAPP_NOT_INITIALIZED", false);
      const content = await this.contentOf(payload);
      await session.send(payload.to, content, payload.quoted, { id: row.wid });
    } catch (err) {
      const permanent = err instanceof ChannelSendError && err.permanent;
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
        return;
      }
      await this.ctx.db.execute(sql`
        with o as (update outbox set failed_at = now(), lease_until = null, last_error = ${reason.slice(0, 500)} where id = ${row.id})
        update messages set send_error = ${reason.slice(0, 500)}, updated_at = now() where id = ${row.message_id}`);
      this.ctx.log.warn({ whatsappId, messageId: row.message_id, reason }, "a message could not be sent");
      this.ctx.events.publish("message.failed", { messageId: row.message_id, whatsappId, reason });
      await this.onFailed({ messageId: row.message_id, reason }).catch((e) =>
        this.ctx.log.error({ err: e }, "publishing a failed send failed"),
      );
      return;
    }
    await this.ctx.db.execute(sql`
      with o as (delete from outbox where id = ${row.id})
      update messages set sent_at = now() where id = ${row.message_id}`);
    this.ctx.events.publish("message.sent", { messageId: row.message_id, whatsappId, priority: row.priority });
  }

  private async contentOf(payload: OutboxPayload): Promise<OutboundContent> {
    const c = payload.content;
    if (c.kind !== "media") return c;
    const data = await this.media.read(c.mediaKey);
    if (!data) throw new ChannelSendError("media file missing", true);
    const { mediaKey: _key, ...rest } = c;
    return { ...rest, data };
  }

  private async pacer(whatsappId: number) {
    const hit = this.pacers.get(whatsappId);
    if (hit) return hit.limiter;
    const [row] = await this.ctx.db
      .select({ interval: whatsapps.sendIntervalMs, jitter: whatsapps.sendJitterMs, burst: whatsapps.sendBurst })
      .from(whatsapps)
      .where(eq(whatsapps.id, whatsappId));
    const options: RateLimitOptions = row
      ? { ...DEFAULT_RATE_LIMIT, minIntervalMs: row.interval, jitterMs: row.jitter, burst: row.burst }
      : DEFAULT_RATE_LIMIT;
    // a pace changed while the sender runs applies from its next send
    const previous = this.pacers.get(whatsappId);
    const limiter =
      previous && samePace(previous.options, options) ? previous.limiter : createRateLimiter(options, this.clock, this.random);
    this.pacers.set(whatsappId, { limiter, options });
    return limiter;
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
