import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { Server } from "socket.io";
import type { Config } from "../../config.js";
import type { Database } from "../../db/client.js";
import type { EventBus, EventTransport } from "../events.js";
import { postgresTransport, redisTransport } from "./bus.js";
import { type KeyedLocks, LocalLocks, PostgresLocks } from "./locks.js";
import { MemoryStore, PostgresStore, RedisStore, type SharedStore } from "./store.js";

export { LOCK_KIND, type SharedStore } from "./store.js";
export type { KeyedLocks } from "./locks.js";

/**
 * What several server processes share, picked from the configuration:
 *
 * | | events (`lib/events.ts`) | limits, slots, presence | one-at-a-time locks |
 * |---|---|---|---|
 * | `REDIS_URL` | Redis pub/sub | Redis | PostgreSQL advisory locks (PGlite: in process) |
 * | PostgreSQL only | LISTEN/NOTIFY | `cluster_*` tables | PostgreSQL advisory locks |
 * | embedded PGlite | in process | memory | in process |
 *
 * With Redis, `socketAdapter` gives socket.io (`realtime/server.ts`) the Redis adapter. ioredis and the
 * adapter are imported only then: a process without Redis never loads them.
 */
export interface Cluster {
  mode: "single" | "postgres" | "redis";
  /** this process among the others: host, pid and the event bus's origin */
  processId: string;
  store: SharedStore;
  locks: KeyedLocks;
  redis?: Redis;
  /** With Redis: makes socket.io's rooms span the processes (`@socket.io/redis-adapter`). */
  socketAdapter?: (io: Server) => void;
  /** Prefix of this installation's Redis keys and channels. */
  prefix: string;
  /** A Redis pub/sub channel of this installation for signals between processes (undefined without Redis). */
  redisChannel(name: string): EventTransport | undefined;
  close(): Promise<void>;
}

/** The PostgreSQL NOTIFY channel of domain events (per database). */
export const EVENTS_CHANNEL = "balcao_events";

export async function openCluster(config: Config, database: Database, events: EventBus, log: FastifyBaseLogger): Promise<Cluster> {
  const processId = `${hostname()}:${events.origin}`;
  const prefix = config.REDIS_KEY_PREFIX;
  const locks: KeyedLocks = database.pool ? new PostgresLocks(database.pool) : new LocalLocks();
  let store: SharedStore;
  let transport: EventTransport | undefined;
  let redis: Redis | undefined;
  let socketAdapter: Cluster["socketAdapter"];
  let redisFailed: (err: unknown) => void = () => undefined;
  let mode: Cluster["mode"];
  if (config.REDIS_URL) {
    mode = "redis";
    // loaded only here: a process without Redis never holds ioredis and the adapter (about 10 MiB of memory)
    const [{ Redis: RedisClient }, { createAdapter }] = await Promise.all([import("ioredis"), import("@socket.io/redis-adapter")]);
    const client = new RedisClient(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true });
    // one line per outage, whichever of its connections fails first (ioredis reconnects by itself), and one when it is back
    let down = false;
    const failed = (err: unknown) => {
      if (!down) log.error({ err }, "Redis connection failed; reconnecting");
      down = true;
    };
    client.on("error", failed);
    redisFailed = failed;
    client.on("ready", () => {
      if (down) log.info("Redis connection restored");
      down = false;
    });
    await client.connect();
    redis = client;
    store = new RedisStore(client, prefix);
    transport = redisTransport(client, `${prefix}events`, failed);
    socketAdapter = (io) => {
      // the adapter's subscriber is a connection of its own: its errors are the same outage's
      const subscriber = client.duplicate();
      subscriber.on("error", failed);
      io.adapter(createAdapter(client, subscriber, { key: `${prefix}socket.io` }));
    };
  } else if (database.pool) {
    mode = "postgres";
    store = new PostgresStore(database.db, (err) => log.warn({ err }, "cluster: sweeping expired limits failed"));
    transport = postgresTransport(database.pool, EVENTS_CHANNEL, (err) => log.error({ err }, "cluster: event transport failed"));
  } else {
    mode = "single";
    store = new MemoryStore();
  }
  if (transport) await events.connect(transport);
  return {
    mode,
    processId,
    store,
    locks,
    redis,
    socketAdapter,
    prefix,
    redisChannel: (name) => (redis ? redisTransport(redis, `${prefix}${name}`, redisFailed) : undefined),
    async close() {
      await events.close();
      await store.close();
      await locks.close();
      if (redis) await redis.quit().catch(() => redis?.disconnect());
    },
  };
}
