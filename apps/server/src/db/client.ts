import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { preparingClient } from "./preparing-client.js";
import * as schema from "./schema/index.js";

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export type QueryListener = (sql: string, params: unknown[]) => void;

export interface Database {
  db: Db;
  engine: "pglite" | "postgres";
  /** Runs raw SQL (used by tests and benchmarks). */
  exec(sql: string): Promise<void>;
  /** Runs one raw statement with parameters and answers its rows (tests: EXPLAIN of a captured statement). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Hears every statement Drizzle sends (tests capture what a service really runs); answers the unsubscribe. */
  onQuery(listener: QueryListener): () => void;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, to start other instances from (tests). */
  dump?: () => Promise<Blob>;
  /** PostgreSQL only: the pool (dedicated clients for LISTEN and advisory locks: `lib/cluster/`). */
  pool?: pg.Pool;
  /**
   * PostgreSQL only: hears NOTIFY on `channel` on one connection of its own, connected again after
   * a loss (notifications sent while it was down are lost: listeners keep a poll as a safety net);
   * answers the stop.
   */
  listen?: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
}

/** Where the committed migrations live, from the source tree or the built bundle. */
export function migrationsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // src/db -> ../../drizzle ; dist -> ../drizzle
  for (const candidate of [resolve(here, "../../drizzle"), resolve(here, "../drizzle")]) {
    if (existsSync(resolve(candidate, "meta/_journal.json"))) return candidate;
  }
  throw new Error("migrations folder not found");
}

/** How many migrations the committed journal holds (GET /ready compares the database with it). */
export function committedMigrations(): number {
  const journal = JSON.parse(readFileSync(resolve(migrationsFolder(), "meta/_journal.json"), "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

/** Migrations the database has not applied yet (0 when it is up to date). */
export async function pendingMigrations(database: Database): Promise<number> {
  const [row] = await database.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
  return Math.max(0, committedMigrations() - Number(row?.n ?? 0));
}

/** The advisory lock key the migrator holds on PostgreSQL (any constant; "balcao" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x62616c63616f;

/**
 * Applies the committed migrations once when several processes start together: each takes a
 * session advisory lock on one connection and migrates through that connection, so the others
 * wait, then find nothing left to apply.
 */
async function migrateOnce(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; "memory://" for an in-memory database. */
  dataDir?: string;
  poolSize?: number;
  /** PGlite only: start from this data directory tarball (a migrated template) instead of initdb. */
  template?: Blob;
}

/** Opens PGlite (embedded default) or PostgreSQL (DATABASE_URL) and applies the migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const listeners = new Set<QueryListener>();
  const logger = {
    logQuery(query: string, params: unknown[]) {
      for (const l of listeners) l(query, params);
    },
  };
  const onQuery = (l: QueryListener) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  if (opts.databaseUrl) {
    // repeated statements are prepared on their connection: planned once, not on every run (db/preparing-client.ts)
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20, Client: preparingClient() });
    pool.on("error", () => {
      /* idle client errors are reported by the query that hits them */
    });
    const db = drizzlePg({ client: pool, schema, logger });
    await migrateOnce(pool);
    return {
      db,
      engine: "postgres",
      exec: async (sql) => {
        await pool.query(sql);
      },
      query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
      onQuery,
      listen: (channel, onPayload) => listenOn(opts.databaseUrl as string, channel, onPayload),
      close: () => pool.end(),
      pool,
    };
  }
  const dir = opts.dataDir ?? "memory://";
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  // the embedded engine is loaded only when used (a server on DATABASE_URL never loads it)
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const client = await PGlite.create(dir, { extensions: { pg_trgm }, ...(opts.template && { loadDataDir: opts.template }) });
  const db = drizzlePglite({ client, schema, logger }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
  return {
    db,
    engine: "pglite",
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows,
    onQuery,
    close: () => client.close(),
    dump: () => client.dumpDataDir("none"),
  };
}

/** LISTEN on a connection of its own, connected again (with backoff) when it is lost. */
async function listenOn(url: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (n) => {
      if (n.channel === channel) onPayload(n.payload ?? "");
    });
    c.on("error", () => {
      if (client === c) client = undefined;
      void c.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      void c.end().catch(() => {});
      if (stopped) return;
      retry = setTimeout(() => void connect().catch(() => {}), 1000);
      throw err;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
    client = undefined;
  };
}
