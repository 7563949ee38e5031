import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
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
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    pool.on("error", () => {
      /* idle client errors are reported by the query that hits them */
    });
    const db = drizzlePg({ client: pool, schema, logger });
    await migratePg(db, { migrationsFolder: migrationsFolder() });
    return {
      db,
      engine: "postgres",
      exec: async (sql) => {
        await pool.query(sql);
      },
      query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
      onQuery,
      close: () => pool.end(),
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
