import pg from "pg";

/**
 * "One at a time" per key (a ticket's bot turn): within this process a queue per key keeps the
 * order the turns arrived in; across processes (PostgreSQL) a session-level advisory lock
 * `pg_advisory_lock(kind, key)` is held on a connection of its own for the turn. A crashed
 * process's connection closes and its locks go with it. PGlite is one process: the queue is enough.
 */
export interface KeyedLocks {
  run<T>(kind: number, key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export class LocalLocks implements KeyedLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(kind: number, key: number, fn: () => Promise<T>): Promise<T> {
    const k = `${kind}:${key}`;
    const prev = this.tails.get(k) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => this.hold(kind, key, fn));
    const tail = next.catch(() => undefined);
    this.tails.set(k, tail);
    void tail.then(() => {
      if (this.tails.get(k) === tail) this.tails.delete(k);
    });
    return next;
  }

  async close(): Promise<void> {}

  protected hold<T>(_kind: number, _key: number, fn: () => Promise<T>): Promise<T> {
    return fn();
  }
}

export class PostgresLocks extends LocalLocks {
  /** connections of their own: a held lock never starves the queries of the turn it guards */
  private readonly pool: pg.Pool;

  constructor(main: pg.Pool, max = 10) {
    super();
    this.pool = new pg.Pool({ ...main.options, max });
    this.pool.on("error", () => {
      /* an idle connection's error is reported by the lock that hits it */
    });
  }

  override async close(): Promise<void> {
    await this.pool.end();
  }

  protected override async hold<T>(kind: number, key: number, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("select pg_advisory_lock($1::int, $2::int)", [kind, key]);
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
    try {
      return await fn();
    } finally {
      try {
        await client.query("select pg_advisory_unlock($1::int, $2::int)", [kind, key]);
        client.release();
      } catch (err) {
        // a connection that could not unlock is closed (which unlocks), never handed back to the pool
        client.release(err as Error);
      }
    }
  }
}
