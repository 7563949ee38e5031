import { sql, type SQL } from "drizzle-orm";

/** Escapes LIKE wildcards so user input matches literally. */
export function likeEscape(input: string): string {
  return input.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%term%`, lower-cased and escaped, for ILIKE/LIKE against a lower() expression. */
export function containsPattern(term: string): string {
  return `%${likeEscape(term.toLowerCase())}%`;
}

export function iso(d: Date | string | null | undefined): string {
  if (!d) return new Date(0).toISOString();
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

export const now = (): SQL => sql`now()`;

/** Offset and limit for a 1-based page; fetches one extra row to tell hasMore. */
export function pageWindow(pageNumber: number, rowsPerPage: number) {
  return { offset: (pageNumber - 1) * rowsPerPage, limit: rowsPerPage };
}
