import { sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../../db/client.js";

/**
 * What limits and presence share between server processes: counters with a window (rate limits,
 * sign-in failures), slots held at once (uploads being received) and who is online on each
 * process. Three stores, one interface: memory (the embedded default: one process), Redis
 * (`REDIS_URL`) and PostgreSQL (`DATABASE_URL` without Redis: tables `cluster_*`). Time is the
 * store's own (Redis's, PostgreSQL's), so processes with drifting clocks agree.
 */
export interface Counter {
  count: number;
  /** ms left before the window ends */
  ttlMs: number;
}

export interface SharedStore {
  readonly kind: "memory" | "redis" | "postgres";
  /** The key's count in its open window, or null when none is open. */
  peek(key: string): Promise<Counter | null>;
  /** Counts one more. A window of `windowMs` opens with the first count; `sliding`: every count restarts it. */
  hit(key: string, windowMs: number, sliding?: boolean): Promise<Counter>;
  drop(key: string): Promise<void>;
  /** Takes one of `max` slots of the key for `token` (held until released, or `ttlMs` after a crash); false when all are held. */
  acquire(key: string, token: string, max: number, ttlMs: number): Promise<boolean>;
  release(key: string, token: string): Promise<void>;
  /** Slots of the key held now. */
  held(key: string): Promise<number>;
  /** The users with a live socket on this process (renewed before `ttlMs` ends; an empty list removes it). */
  setPresence(processId: string, userIds: number[], ttlMs: number): Promise<void>;
  /** Users online on any process. */
  presentUsers(): Promise<number[]>;
  close(): Promise<void>;
}

/** One process: everything in memory, exactly as before several processes existed. */
export class MemoryStore implements SharedStore {
  readonly kind = "memory";
  private readonly counters = new Map<string, { count: number; until: number }>();
  private readonly slots = new Map<string, Map<string, number>>();
  private readonly presence = new Map<string, { ids: number[]; until: number }>();

  /** `now` is injectable for unit tests of the policies built on it. */
  constructor(private readonly now: () => number = Date.now) {}

  async peek(key: string): Promise<Counter | null> {
    const c = this.counters.get(key);
    const now = this.now();
    if (!c || c.until <= now) return null;
    return { count: c.count, ttlMs: c.until - now };
  }

  async hit(key: string, windowMs: number, sliding = false): Promise<Counter> {
    const now = this.now();
    const c = this.counters.get(key);
    if (!c || c.until <= now) {
      this.counters.set(key, { count: 1, until: now + windowMs });
      if (this.counters.size > 50_000) this.sweep(now);
      return { count: 1, ttlMs: windowMs };
    }
    c.count++;
    if (sliding) c.until = now + windowMs;
    return { count: c.count, ttlMs: c.until - now };
  }

  async drop(key: string): Promise<void> {
    this.counters.delete(key);
  }

  async acquire(key: string, token: string, max: number, _ttlMs: number): Promise<boolean> {
    const held = this.slots.get(key) ?? new Map<string, number>();
    if (held.size >= max) return false;
    held.set(token, 0);
    this.slots.set(key, held);
    return true;
  }

  async release(key: string, token: string): Promise<void> {
    const held = this.slots.get(key);
    held?.delete(token);
    if (held?.size === 0) this.slots.delete(key);
  }

  async held(key: string): Promise<number> {
    return this.slots.get(key)?.size ?? 0;
  }

  async setPresence(processId: string, userIds: number[], ttlMs: number): Promise<void> {
    if (userIds.length === 0) this.presence.delete(processId);
    else this.presence.set(processId, { ids: userIds, until: this.now() + ttlMs });
  }

  async presentUsers(): Promise<number[]> {
    const now = this.now();
    const ids = new Set<number>();
    for (const p of this.presence.values()) if (p.until > now) for (const id of p.ids) ids.add(id);
    return [...ids];
  }

  async close(): Promise<void> {}

  private sweep(now: number) {
    for (const [k, v] of this.counters) if (v.until <= now) this.counters.delete(k);
  }
}

const HIT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 or ARGV[2] == '1' then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;
const PEEK = `
local c = redis.call('GET', KEYS[1])
if not c then return nil end
return {tonumber(c), redis.call('PTTL', KEYS[1])}`;
const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;
const HELD = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;
const SET_PRESENCE = `${NOW}
if ARGV[2] == '[]' then
  redis.call('ZREM', KEYS[1], ARGV[1]); redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1]); redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1`;
const PRESENT = `${NOW}
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
for _, p in ipairs(gone) do redis.call('HDEL', KEYS[2], p) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('HVALS', KEYS[2])`;

/** Redis: counters are keys with an expiry, slots a sorted set by expiry, presence a sorted set + hash; each step one script. */
export class RedisStore implements SharedStore {
  readonly kind = "redis";
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private k(key: string) {
    return `${this.prefix}${key}`;
  }

  async peek(key: string): Promise<Counter | null> {
    const r = (await this.redis.eval(PEEK, 1, this.k(key))) as [number, number] | null;
    if (!r || r[1] <= 0) return null;
    return { count: Number(r[0]), ttlMs: Number(r[1]) };
  }

  async hit(key: string, windowMs: number, sliding = false): Promise<Counter> {
    const [count, ttl] = (await this.redis.eval(HIT, 1, this.k(key), String(windowMs), sliding ? "1" : "0")) as [number, number];
    return { count: Number(count), ttlMs: Number(ttl) };
  }

  async drop(key: string): Promise<void> {
    await this.redis.del(this.k(key));
  }

  async acquire(key: string, token: string, max: number, ttlMs: number): Promise<boolean> {
    return Number(await this.redis.eval(ACQUIRE, 1, this.k(`slots:${key}`), token, String(max), String(ttlMs))) === 1;
  }

  async release(key: string, token: string): Promise<void> {
    await this.redis.zrem(this.k(`slots:${key}`), token);
  }

  async held(key: string): Promise<number> {
    return Number(await this.redis.eval(HELD, 1, this.k(`slots:${key}`)));
  }

  async setPresence(processId: string, userIds: number[], ttlMs: number): Promise<void> {
    await this.redis.eval(SET_PRESENCE, 2, this.k("online"), this.k("online:users"), processId, JSON.stringify(userIds), String(ttlMs));
  }

  async presentUsers(): Promise<number[]> {
    const lists = (await this.redis.eval(PRESENT, 2, this.k("online"), this.k("online:users"))) as string[];
    return union(lists.map((l) => JSON.parse(l) as number[]));
  }

  async close(): Promise<void> {}
}

/** PostgreSQL without Redis: small tables (`cluster_counters`, `cluster_slots`, `cluster_presence`) with upserts; expired rows swept. */
export class PostgresStore implements SharedStore {
  readonly kind = "postgres";
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    onError: (err: unknown) => void,
  ) {
    this.sweeper = setInterval(() => {
      this.sweep().catch(onError);
    }, 60_000);
    this.sweeper.unref();
  }

  async peek(key: string): Promise<Counter | null> {
    const { rows } = await this.db.execute<{ count: number; ttl_ms: number }>(sql`
      select count, extract(epoch from (expires_at - now())) * 1000 as ttl_ms
      from cluster_counters where key = ${key} and expires_at > now()`);
    return rows[0] ? { count: Number(rows[0].count), ttlMs: Math.max(1, Math.round(Number(rows[0].ttl_ms))) } : null;
  }

  async hit(key: string, windowMs: number, sliding = false): Promise<Counter> {
    const { rows } = await this.db.execute<{ count: number; ttl_ms: number }>(sql`
      insert into cluster_counters (key, count, expires_at)
      values (${key}, 1, now() + ${windowMs}::int * interval '1 millisecond')
      on conflict (key) do update set
        count = case when cluster_counters.expires_at <= now() then 1 else cluster_counters.count + 1 end,
        expires_at = case when cluster_counters.expires_at <= now() or ${sliding} then excluded.expires_at
                          else cluster_counters.expires_at end
      returning count, extract(epoch from (expires_at - now())) * 1000 as ttl_ms`);
    return { count: Number(rows[0].count), ttlMs: Math.max(1, Math.round(Number(rows[0].ttl_ms))) };
  }

  async drop(key: string): Promise<void> {
    await this.db.execute(sql`delete from cluster_counters where key = ${key}`);
  }

  async acquire(key: string, token: string, max: number, ttlMs: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // one taker of this key's slots at a time, whatever the process
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KIND.slots}, hashtext(${key}))`);
      await tx.execute(sql`delete from cluster_slots where key = ${key} and expires_at <= now()`);
      const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from cluster_slots where key = ${key}`);
      if (Number(rows[0].n) >= max) return false;
      await tx.execute(sql`
        insert into cluster_slots (key, token, expires_at) values (${key}, ${token}, now() + ${ttlMs}::int * interval '1 millisecond')`);
      return true;
    });
  }

  async release(key: string, token: string): Promise<void> {
    await this.db.execute(sql`delete from cluster_slots where key = ${key} and token = ${token}`);
  }

  async held(key: string): Promise<number> {
    const { rows } = await this.db.execute<{ n: number }>(
      sql`select count(*)::int as n from cluster_slots where key = ${key} and expires_at > now()`,
    );
    return Number(rows[0].n);
  }

  async setPresence(processId: string, userIds: number[], ttlMs: number): Promise<void> {
    if (userIds.length === 0) {
      await this.db.execute(sql`delete from cluster_presence where process_id = ${processId}`);
      return;
    }
    await this.db.execute(sql`
      insert into cluster_presence (process_id, user_ids, expires_at)
      values (${processId}, ${JSON.stringify(userIds)}::jsonb, now() + ${ttlMs}::int * interval '1 millisecond')
      on conflict (process_id) do update set user_ids = excluded.user_ids, expires_at = excluded.expires_at`);
  }

  async presentUsers(): Promise<number[]> {
    const { rows } = await this.db.execute<{ user_ids: unknown }>(sql`select user_ids from cluster_presence where expires_at > now()`);
    return union(rows.map((r) => (typeof r.user_ids === "string" ? JSON.parse(r.user_ids) : r.user_ids) as number[]));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private async sweep() {
    await this.db.execute(sql`delete from cluster_counters where expires_at < now()`);
    await this.db.execute(sql`delete from cluster_slots where expires_at < now()`);
    await this.db.execute(sql`delete from cluster_presence where expires_at < now() - interval '1 minute'`);
  }
}

/** The first key of the two-key advisory locks this code takes (the second is the ticket, or a key's hash). */
export const LOCK_KIND = {
  /** a ticket's bot turn (Typebot, self-service) */
  botTurn: 28_001,
  /** taking an upload slot */
  slots: 28_002,
} as const;

function union(lists: number[][]): number[] {
  const ids = new Set<number>();
  for (const l of lists) for (const id of l) ids.add(Number(id));
  return [...ids];
}
