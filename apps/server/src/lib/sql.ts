import { sql, type SQL } from "drizzle-orm";

/** Escapes LIKE wildcards so user input matches literally. */
export function likeEscape(input: string): string {
  return input.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%term%`, lower-cased and escaped, for ILIKE/LIKE against a lower() expression. */
export function containsPattern(term: string): string {
  return `%${likeEscape(term.toLowerCase())}%`;
}

/** PostgreSQL's text of a timestamptz in UTC ("2026-11-26 12:00:00.123456+00"), read without Date's slow parse of it. */
const PG_UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

export function iso(d: Date | string | null | undefined): string {
  if (!d) return new Date(0).toISOString();
  if (typeof d === "string") {
    const m = PG_UTC.exec(d);
    if (m) return `${m[1]}T${m[2]}.${(m[3] ?? "").padEnd(3, "0").slice(0, 3)}Z`;
  }
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

export const now = (): SQL => sql`now()`;

/** Offset and limit for a 1-based page; fetches one extra row to tell hasMore. */
export function pageWindow(pageNumber: number, rowsPerPage: number) {
  return { offset: (pageNumber - 1) * rowsPerPage, limit: rowsPerPage };
}

/**
 * A page's LIMIT or OFFSET written into the statement's text, not sent as a parameter: PostgreSQL
 * plans a prepared statement once (its generic plan) only when that plan costs no more than one
 * made for the values, and a generic plan does not know how many rows a `limit $1` takes (it
 * assumes a tenth of the table), so a list's statement was planned again on every request. The
 * text now differs per page size and page; the first pages of the usual size are the ones prepared.
 */
export function intLiteral(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return sql.raw(String(n));
}

/** A list of texts as one array parameter (`= any($1::text[])`), each element quoted. */
export const textArray = (values: readonly string[]): string =>
  `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;

/** An int[] column as the driver gives it: an array, or its text ("{1,2}") where no parser is set. */
export function intArray(v: readonly (number | string)[] | string | null): number[] {
  if (v === null) return [];
  if (typeof v !== "string") return v.map(Number);
  const inner = v.slice(1, -1);
  return inner ? inner.split(",").map(Number) : [];
}

/** A list of ids as one array parameter (`= any(…)`): the statement's text does not change with their number (one prepared statement). */
export const idArray = (ids: readonly number[]): string => `{${ids.map((id) => Math.trunc(id)).join(",")}}`;
