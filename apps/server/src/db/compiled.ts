import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client.js";

/**
 * Hot statements built once. `db.execute(sql…)` has Drizzle walk the template's chunks into a text
 * and its parameters on every run; for a statement of a few dozen values and fragments that walk
 * costs more than sending it. On the inbound bench Drizzle was 13 % of the process's CPU samples,
 * most of it building the message's statement and the contact lookup.
 *
 * A `Compiled` statement is written as usual with `sql`, its values as `sql.placeholder(name)`; each
 * shape (the fragments that come and go) is compiled once, at its first run, and every run fills
 * its slots with that run's values. It then runs as `db.execute` does after building: the
 * session's unnamed query (the preparing client still names it, `db/preparing-client.ts`), the
 * same driver, the same logger (tests hear it), inside the caller's transaction when given one.
 */

const dialect = new PgDialect();

type Built = { sql: string; params: unknown[] };
/** Drizzle's session as `PgDatabase.execute` uses it (drizzle-orm/pg-core/db.js): the one API this file relies on. */
interface Session {
  prepareQuery(
    q: Built,
    fields: undefined,
    name: undefined,
    arrayMode: false,
  ): { execute(values: Record<string, unknown>): Promise<unknown> };
}

export class Compiled<Shape extends string, Values extends Record<string, unknown>> {
  private readonly built = new Map<Shape, Built>();

  /** `build(shape)`: the statement of one shape, values as placeholders (a shape is a small, fixed set: the cache has no bound). */
  constructor(private readonly build: (shape: Shape) => SQL) {}

  async run<T>(db: DbOrTx, shape: Shape, values: Values): Promise<{ rows: T[] }> {
    let q = this.built.get(shape);
    if (!q) {
      q = dialect.sqlToQuery(this.build(shape));
      this.built.set(shape, q);
    }
    const { session } = db as unknown as { session: Session };
    return (await session.prepareQuery(q, undefined, undefined, false).execute(values)) as { rows: T[] };
  }
}
