import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema/index.js";

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  engine: "pglite" | "postgres";
  /** Runs raw SQL (used by tests and benchmarks). */
  exec(sql: string): Promise<void>;
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
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    pool.on("error", () => {
      /* idle client errors are reported by the query that hits them */
    });
    const db = drizzlePg({ client: pool, schema });
    await migratePg(db, { migrationsFolder: migrationsFolder() });
    return {
      db,
      engine: "postgres",
      exec: async (sql) => {
        await pool.query(sql);
      },
      close: () => pool.end(),
    };
  }
  const dir = opts.dataDir ?? "memory://";
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { extensions: { pg_trgm }, ...(opts.template && { loadDataDir: opts.template }) });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
  return {
    db,
    engine: "pglite",
    exec: async (sql) => {
      await client.exec(sql);
    },
    close: () => client.close(),
    dump: () => client.dumpDataDir("none"),
  };
}
