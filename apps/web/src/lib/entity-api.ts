import type { ServerToClientEvents } from "@balcao/contract";
import { type InfiniteData, type QueryKey, infiniteQueryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../api/http";
import { type Page, removeFromPages, replaceInPages } from "./infinite";
import { useSocketEvent } from "./socket";

/** The number of the page after the loaded ones, while the answer says there are more (pages count from 1). */
export const nextPage = (last: { hasMore: boolean }, pages: unknown[]) => (last.hasMore ? pages.length + 1 : undefined);

/** A list the API serves page by page: GET `path`?searchParam&pageNumber, cached under [...key, { searchParam }]. */
export function pagedQuery<A extends { hasMore: boolean }>(key: QueryKey, path: string, searchParam: string) {
  return infiniteQueryOptions({
    queryKey: [...key, { searchParam }],
    queryFn: ({ pageParam, signal }) => http.get<A>(path, { searchParam, pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

/** What a live event does to the loaded pages of a list: replace one item, drop one, or read the list again. */
export type PagesChange<T> = { replace: T } | { remove: number } | "refetch";

type Payload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

/** Keeps every loaded list under `key` (items under `items` in each page) current from the socket `event`. */
export function useLivePages<E extends keyof ServerToClientEvents, K extends string, T extends { id: number }>(
  event: E,
  key: QueryKey,
  items: K,
  change: (payload: Payload<E>) => PagesChange<T>,
) {
  const queryClient = useQueryClient();
  const apply = (payload: Payload<E>) => {
    const c = change(payload);
    if (c === "refetch") void queryClient.invalidateQueries({ queryKey: key });
    else if ("replace" in c)
      queryClient.setQueriesData<InfiniteData<Page<K, T>>>({ queryKey: key }, (d) => replaceInPages(d, items, c.replace));
    else queryClient.setQueriesData<InfiniteData<Page<K, T>>>({ queryKey: key }, (d) => removeFromPages(d, items, c.remove));
  };
  useSocketEvent(event, apply as ServerToClientEvents[E]);
}

/** POST `path`, or PUT `path/id` with an id; the form shows the errors (no toast of its own); lists under `key` are read again. */
export function useSaveEntity<B, R>(path: string, key: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: B }) => (id ? http.put<R>(`${path}/${id}`, body) : http.post<R>(path, body)),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** DELETE `path/id`; lists under `key` are read again. */
export function useDeleteEntity(path: string, key: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`${path}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
