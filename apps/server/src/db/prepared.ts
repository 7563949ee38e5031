import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "./client.js";

/**
 * The parts of a Drizzle database (or transaction) that run a built statement under a name.
 * Drizzle's own `.prepare(name)` exists only on its query builders; this gives the same to the
 * hand-written hot queries. Both drivers take the name: node-postgres prepares the statement once
 * per pooled connection and reuses its plan, PGlite runs it as usual.
 */
type Internals = {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): { execute(): Promise<{ rows: unknown[] }> };
  };
};

const names = new Map<string, string>();

/** A statement's name: derived from its text, so one name never stands for two texts (node-postgres refuses that). */
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `b_${createHash("sha1").update(text).digest("base64url").slice(0, 24)}`;
    if (names.size < 5000) names.set(text, name);
  }
  return name;
}

/** A Drizzle query builder run as a named statement (see executePrepared), whatever its text turns out to be. */
export function runPrepared<T>(query: { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<T> } }): Promise<T> {
  return query.prepare(nameOf(query.toSQL().sql)).execute();
}

/**
 * Runs `query` as a named (prepared) statement, named after its text: on PostgreSQL it is planned
 * once per pooled connection instead of on every request (the list hydration took 1.7 ms to plan
 * and 0.8 ms to run). For the hot read paths only, whose texts come from a small set (the values
 * are parameters; a list of ids goes as one array parameter): each text is kept on every
 * connection of the pool.
 */
export async function executePrepared<T>(db: DbOrTx, query: SQL): Promise<{ rows: T[] }> {
  const internals = db as unknown as Internals;
  const built = internals.dialect.sqlToQuery(query);
  return (await internals.session.prepareQuery(built, undefined, nameOf(built.sql), false).execute()) as { rows: T[] };
}

/** A list of ids as one array parameter (`= any(…)`): the statement's text does not change with their number. */
export const idArray = (ids: readonly number[]): string => `{${ids.map((id) => Math.trunc(id)).join(",")}}`;
