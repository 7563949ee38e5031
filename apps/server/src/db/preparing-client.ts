import pg from "pg";

/**
 * PostgreSQL plans each statement it is sent, every time, unless the statement is prepared under a
 * name on its connection. On this product's hot paths planning costs as much as running: an
 * inbound message's main statement spent 0.45 ms planning and 0.50 ms running, the contact lookup
 * 0.21 ms planning and 0.04 ms running (pg_stat_statements, `npm run bench -- inbound`).
 *
 * This client prepares a statement under a name of its own (one per text) once the process has sent
 * that text a few times: the connection parses it once, plans it with its parameters for the first
 * five runs, then keeps a generic plan when PostgreSQL judges it no worse (its `plan_cache_mode`,
 * `auto`). One-off texts (a list of ids of varying length, a search built from many filters) stay
 * unnamed, and a connection keeps at most a bounded number of prepared statements.
 *
 * Only statements with parameters are named: a text without any may hold several commands
 * (migrations, `exec`), which a prepared statement cannot. A statement with a LIKE pattern among
 * its parameters (a value that starts or ends with `%`: the searches by a typed term) is never
 * named: how many rows a pattern matches depends on its value (a two-letter term has no trigram),
 * and a generic plan cannot tell; measured on the side-by-side data, a prepared contact count took
 * 32 ms instead of 3.
 *
 * A text that starts with `PLANNED_EACH_RUN` is never named either: a statement whose best plan
 * depends on its values in a way a generic plan, made once while its table was small, cannot see
 * (an `= any($2)` over a list of ids: the generic plan walked every row of one connection through a
 * shorter index instead of the primary key, 15 ms a run at 20 000 rows and growing; planned with its
 * values, 0.2 ms).
 */
export const PLANNED_EACH_RUN = "/* planned each run */ ";

/** sends of one text before it is prepared (a text seen once or twice costs nothing on the connection) */
const SEEN_BEFORE_PREPARED = 2;
/** distinct texts counted: a process with more counts no new ones */
const MAX_COUNTED = 1000;
/** prepared statements one connection keeps (PostgreSQL holds each, and its plan, in that backend's memory) */
const MAX_PER_CONNECTION = 200;

type QueryConfigLike = { text?: unknown; name?: string; values?: unknown; submit?: unknown };
type Counted = { text: string; sends: number; name: string | undefined };

/**
 * A short key of a text: its length and both ends. Hashing the whole text (a few KB, built anew by
 * Drizzle for every run) cost more CPU than the rest of this file; texts that share the key are
 * told apart by comparing them.
 */
const keyOf = (text: string) => `${text.length}:${text.slice(0, 40)}:${text.slice(-40)}`;

/** A LIKE pattern: its plan depends on its value (see above). */
const isPattern = (v: unknown) => typeof v === "string" && v.length > 0 && (v.startsWith("%") || v.endsWith("%"));

/** A `pg.Client` class (for `pg.Pool`'s `Client` option) that names repeated statements; the counts are shared by the pool's connections. */
export function preparingClient(): typeof pg.Client {
  const counted = new Map<string, Counted[]>();
  let texts = 0;
  /** the statement's name once its text was sent often enough, else undefined */
  const nameOf = (text: string): string | undefined => {
    const key = keyOf(text);
    const same = counted.get(key);
    const c = same?.find((e) => e.text === text);
    if (c === undefined) {
      if (texts >= MAX_COUNTED) return undefined;
      const entry = { text, sends: 1, name: text.startsWith(PLANNED_EACH_RUN) ? undefined : `p${(texts++).toString(36)}` };
      if (same) same.push(entry);
      else counted.set(key, [entry]);
      return undefined;
    }
    if (c.sends >= SEEN_BEFORE_PREPARED) return c.name;
    c.sends++;
    return undefined;
  };

  return class PreparingClient extends pg.Client {
    private readonly prepared = new Set<string>();

    // the overloads of pg's query are many; this one only adds a name to a plain parameterized statement
    // biome-ignore lint/suspicious/noExplicitAny: the arguments are handed to pg's own query as they came
    override query(config: any, values?: any, callback?: any): any {
      const named = this.withName(config, values);
      if (named) return super.query(named as pg.QueryConfig, typeof values === "function" ? values : callback);
      return super.query(config, values, callback);
    }

    private withName(config: unknown, values: unknown): QueryConfigLike | undefined {
      const params = Array.isArray(values) ? values : undefined;
      let text: string;
      let base: QueryConfigLike;
      if (typeof config === "string") {
        text = config;
        base = { text };
      } else if (config !== null && typeof config === "object") {
        const c = config as QueryConfigLike;
        // a submittable (cursor, stream) or a statement someone named: as it came
        if (typeof c.submit === "function" || c.name !== undefined || typeof c.text !== "string") return undefined;
        text = c.text;
        base = c;
      } else return undefined;
      const all = params ?? (Array.isArray(base.values) ? base.values : undefined);
      if (!all || all.length === 0 || all.some(isPattern)) return undefined;
      const name = nameOf(text);
      if (!name) return undefined;
      if (!this.prepared.has(name)) {
        if (this.prepared.size >= MAX_PER_CONNECTION) return undefined;
        this.prepared.add(name);
      }
      return { ...base, values: all, name };
    }
  };
}
