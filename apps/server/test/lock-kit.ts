import type pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createProcessApp, createSharedDatabase, type TestApp } from "./helpers.js";

/**
 * For the tests that hold a row lock on PostgreSQL with a client of their own while the app works
 * (PGlite has one connection, so two transactions cannot interleave there): a database of their
 * own with one server process on it, and the wait for the app's statement to queue behind the lock.
 */

/** A database and one process app on it for the file's tests (created before them, dropped after). */
export function sharedProcessApp(): { readonly url: string; readonly t: TestApp } {
  let shared: { url: string; drop: () => Promise<void> } | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    shared = await createSharedDatabase();
    t = await createProcessApp(shared.url);
  });
  afterAll(async () => {
    await t?.teardown();
    await shared?.drop();
  });
  return {
    get url() {
      if (!shared) throw new Error("the database is made in beforeAll");
      return shared.url;
    },
    get t() {
      if (!t) throw new Error("the app is made in beforeAll");
      return t;
    },
  };
}

/**
 * Waits until a backend of this database waits for a lock `holder` (a backend pid) holds — an event
 * PostgreSQL shows in pg_stat_activity — whose statement contains `like` when given. Answers false
 * after `timeoutMs` or as soon as `stop()` says the awaited work ended without waiting.
 */
export async function waitUntilBlocked(
  client: pg.Client,
  holder: number,
  o: { like?: string; timeoutMs: number; stop?: () => boolean },
): Promise<boolean> {
  for (const end = Date.now() + o.timeoutMs; Date.now() < end && !o.stop?.(); ) {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and $1 = any(pg_blocking_pids(pid)) and query ilike $2`,
      [holder, `%${o.like ?? ""}%`],
    );
    if (rows[0].n > 0) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}
