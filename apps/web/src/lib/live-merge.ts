import { type InfiniteData, replaceEqualDeep } from "@tanstack/react-query";

/**
 * A read and the socket's events race: a list fetched just before a change can land just after
 * the event that told of it, and would put the old state back for good. These merges keep, per
 * entry, whichever of the cached and the fetched copies changed last (`updatedAt`), so a screen
 * never goes back in time. They run as the queries' `structuralSharing`, on every write to the
 * cache (fetches and the events' own updates).
 */

interface Versioned {
  id: number;
  updatedAt: string;
}

function newer<T extends Versioned>(cached: T | undefined, fresh: T): T {
  if (!cached) return fresh;
  return Date.parse(cached.updatedAt) > Date.parse(fresh.updatedAt) ? cached : fresh;
}

/** The fetched list, each entry replaced by the cached copy when that one is newer. */
export function keepNewer<T extends Versioned>(cached: readonly T[] | undefined, fresh: T[]): T[] {
  if (!cached?.length) return fresh;
  const byId = new Map(cached.map((e) => [e.id, e]));
  let changed = false;
  const out = fresh.map((e) => {
    const pick = newer(byId.get(e.id), e);
    if (pick !== e) changed = true;
    return pick;
  });
  return changed ? out : fresh;
}

/** `structuralSharing` for a list query of versioned entries. */
export function shareNewer(old: unknown, fresh: unknown): unknown {
  if (!Array.isArray(fresh)) return replaceEqualDeep(old, fresh);
  return replaceEqualDeep(old, keepNewer(Array.isArray(old) ? (old as Versioned[]) : undefined, fresh as Versioned[]));
}

interface Page<T> {
  messages: T[];
  count: number;
}

/**
 * Pages of a chat (the first holds the newest): every message keeps its newer copy, and messages
 * the events added after the fetch's read (newer than anything it saw) stay at the end of the
 * first page. Messages are never removed from a chat (a deleted one is marked), so nothing the
 * cache holds beyond the fetch is stale.
 */
export function mergePages<T extends Versioned, P extends Page<T>>(
  cached: InfiniteData<P, unknown> | undefined,
  fresh: InfiniteData<P, unknown>,
): InfiniteData<P, unknown> {
  if (!cached?.pages.length || !fresh.pages.length) return fresh;
  const all = cached.pages.flatMap((p) => p.messages);
  const seen = new Set<number>();
  let newest = Number.NEGATIVE_INFINITY;
  for (const p of fresh.pages)
    for (const m of p.messages) {
      seen.add(m.id);
      if (m.id > newest) newest = m.id;
    }
  const later = cached.pages[0].messages.filter((m) => !seen.has(m.id) && m.id > newest);
  const pages = fresh.pages.map((p, i) => {
    const messages = keepNewer(all, p.messages);
    if (i > 0 || later.length === 0) return messages === p.messages ? p : { ...p, messages };
    return { ...p, messages: [...messages, ...later], count: p.count + later.length };
  });
  return { ...fresh, pages };
}

/** `structuralSharing` for a chat's pages. */
export function sharePages(old: unknown, fresh: unknown): unknown {
  const f = fresh as InfiniteData<Page<Versioned>, unknown> | undefined;
  if (!f?.pages) return replaceEqualDeep(old, fresh);
  return replaceEqualDeep(old, mergePages(old as InfiniteData<Page<Versioned>, unknown> | undefined, f));
}
