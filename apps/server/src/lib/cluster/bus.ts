import type { Redis } from "ioredis";
import pg from "pg";
import type { EventTransport } from "../events.js";

/**
 * The transports of the domain event bus between server processes (`lib/events.ts`). Each keeps
 * one publisher's events in order. An event missed while a connection is re-established is not
 * replayed: what listens everywhere is caches (their TTL bounds the staleness) and sockets (a
 * reconnecting client reads again).
 */

/** Redis pub/sub on one channel (a subscriber connection of its own). */
export function redisTransport(redis: Redis, channel: string, onError: (err: unknown) => void = () => undefined): EventTransport {
  const sub = redis.duplicate();
  // the subscriber's own connection fails and comes back with Redis (ioredis reconnects and subscribes again)
  let lost = false;
  sub.on("error", (err) => {
    if (!lost) onError(err);
    lost = true;
  });
  sub.on("close", () => {
    lost = true;
  });
  return {
    async send(message) {
      await redis.publish(channel, message);
    },
    async listen(onMessage, onResume) {
      sub.on("message", (ch: string, message: string) => {
        if (ch === channel) onMessage(message);
      });
      await sub.subscribe(channel);
      lost = false;
      sub.on("ready", () => {
        if (!lost) return;
        lost = false;
        onResume?.();
      });
    },
    async close() {
      sub.disconnect();
    },
  };
}

/** NOTIFY carries at most 8000 bytes: larger events are stored in `cluster_events` and the NOTIFY carries `@<id>`. */
export const NOTIFY_MAX_BYTES = 7900;
const LARGE_EVENT_TTL = "1 minute";

/** Between the events of one NOTIFY: JSON as the bus writes it (`JSON.stringify`, no indentation) never holds a raw newline. */
const BATCH_SEPARATOR = "\n";

/**
 * PostgreSQL LISTEN/NOTIFY on one channel: a dedicated connection listens (re-connected after a
 * failure); sends go one after another, each committed before the next, so they arrive in order.
 * Events that wait while a NOTIFY is in flight go together in the next one (up to its size): under
 * load one statement carries many events instead of one statement each. Messages must not hold a
 * raw newline (the bus sends JSON without indentation).
 */
export function postgresTransport(
  pool: pg.Pool,
  channel: string,
  onError: (err: unknown) => void,
  largeBytes = NOTIFY_MAX_BYTES,
): EventTransport {
  let waiting: { message: string; sent: () => void; failed: (err: unknown) => void }[] = [];
  let flushing: Promise<void> | undefined;
  let receiving: Promise<unknown> = Promise.resolve();
  let listener: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let sweeps = 0;
  const ident = `"${channel.replace(/"/g, '""')}"`;

  const send = async (message: string) => {
    if (Buffer.byteLength(message) <= largeBytes) {
      await pool.query("select pg_notify($1, $2)", [channel, message]);
      return;
    }
    const { rows } = await pool.query<{ id: string }>("insert into cluster_events (payload) values ($1) returning id", [message]);
    await pool.query("select pg_notify($1, $2)", [channel, `@${rows[0].id}`]);
    if (++sweeps % 50 === 1) await pool.query(`delete from cluster_events where created_at < now() - interval '${LARGE_EVENT_TTL}'`);
  };

  const resolve = async (payload: string): Promise<string | undefined> => {
    if (!payload.startsWith("@")) return payload;
    const { rows } = await pool.query<{ payload: string }>("select payload from cluster_events where id = $1", [payload.slice(1)]);
    return rows[0]?.payload;
  };

  const connect = async (onMessage: (message: string) => void, onResume?: () => void, again = false) => {
    const client = new pg.Client(pool.options);
    client.on("notification", (n) => {
      if (n.channel !== channel || n.payload === undefined) return;
      const payload = n.payload;
      // a large event is read back before the next one is handed over: the order is kept
      receiving = receiving
        .then(() => resolve(payload))
        .then((m) => {
          if (m === undefined) return;
          for (const one of m.split(BATCH_SEPARATOR)) onMessage(one);
        })
        .catch(onError);
    });
    client.on("error", (err) => {
      onError(err);
      void client.end().catch(() => undefined);
      if (listener === client) {
        listener = undefined;
        reconnect(onMessage, onResume);
      }
    });
    try {
      await client.connect();
      await client.query(`listen ${ident}`);
    } catch (err) {
      void client.end().catch(() => undefined);
      throw err;
    }
    listener = client;
    // heard again after an outage: what was published meanwhile never arrived
    if (again) onResume?.();
  };
  /** Tries again every second until the listener is back (a database restart takes a while). */
  const reconnect = (onMessage: (message: string) => void, onResume?: () => void) => {
    if (closed) return;
    retry = setTimeout(() => {
      connect(onMessage, onResume, true).catch(() => reconnect(onMessage, onResume));
    }, 1000);
  };

  /** Sends what waits, in order, as few NOTIFYs as their sizes allow; a large event goes alone (stored, then its id). */
  const flush = async () => {
    while (waiting.length) {
      let n = 1;
      let bytes = Buffer.byteLength(waiting[0].message);
      while (n < waiting.length) {
        const more = Buffer.byteLength(waiting[n].message) + 1;
        if (bytes + more > largeBytes) break;
        bytes += more;
        n++;
      }
      const batch = waiting.slice(0, n);
      waiting = waiting.slice(n);
      try {
        await send(batch.map((b) => b.message).join(BATCH_SEPARATOR));
        for (const b of batch) b.sent();
      } catch (err) {
        for (const b of batch) b.failed(err);
      }
    }
    flushing = undefined;
  };

  return {
    send(message) {
      return new Promise<void>((sent, failed) => {
        waiting.push({ message, sent, failed });
        flushing ??= flush();
      });
    },
    listen: (onMessage, onResume) => connect(onMessage, onResume),
    async close() {
      closed = true;
      clearTimeout(retry);
      await flushing;
      await listener?.end().catch(() => undefined);
      listener = undefined;
    },
  };
}
