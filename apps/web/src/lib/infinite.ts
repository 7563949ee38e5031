import type { InfiniteData } from "@tanstack/react-query";

/** One page of a list answer: its items under `K`, the total count, whether more pages follow. */
export type Page<K extends string, T> = { [P in K]: T[] } & { count: number; hasMore: boolean };

/**
 * Replaces the item with the same id in every loaded page (live `update` events). Anything that is
 * not pages (a single entry cached under the same key, e.g. ["contacts", "one", id]) is left as it is.
 */
export function replaceInPages<K extends string, T extends { id: number }>(
  data: InfiniteData<Page<K, T>> | undefined,
  key: K,
  item: T,
): InfiniteData<Page<K, T>> | undefined {
  if (!Array.isArray(data?.pages)) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, [key]: p[key].map((x) => (x.id === item.id ? item : x)) })) };
}

/** Drops the item from every loaded page (live `delete` events); anything that is not pages is left as it is. */
export function removeFromPages<K extends string, T extends { id: number }>(
  data: InfiniteData<Page<K, T>> | undefined,
  key: K,
  id: number,
): InfiniteData<Page<K, T>> | undefined {
  if (!Array.isArray(data?.pages)) return data;
  return {
    ...data,
    pages: data.pages.map((p) => {
      const kept = p[key].filter((x) => x.id !== id);
      return { ...p, [key]: kept, count: kept.length === p[key].length ? p.count : Math.max(0, p.count - 1) };
    }),
  };
}

/** Every item of the loaded pages, once each (pages can overlap after inserts). */
export function flattenPages<K extends string, T extends { id: number }>(data: InfiniteData<Page<K, T>> | undefined, key: K): T[] {
  const seen = new Set<number>();
  const out: T[] = [];
  for (const p of data?.pages ?? []) {
    for (const x of p[key]) {
      if (!seen.has(x.id)) {
        seen.add(x.id);
        out.push(x);
      }
    }
  }
  return out;
}
