import type { ServerToClientEvents } from "@balcao/contract";
import {
  type InfiniteData,
  type QueryClient,
  type QueryKey,
  infiniteQueryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { useRef } from "react";
import { http } from "../api/http";
import { useDisposable } from "./hooks";
import { type Page, removeFromPages, replaceInPages } from "./infinite";
import { useSocketEvent } from "./socket";
import { trailingReads } from "./trailing-reads";

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

/**
 * A live event applied to every loaded list under `key` (items under `items` in each page). The
 * pages' entries carry no version the lists are merged by, so a page being read when the event lands
 * (a search, the next page, a reconnect's read) may answer what the server held before it, and
 * would put an edited or deleted entry back: those reads are made again once the burst is over.
 */
export function livePages<P, K extends string, T extends { id: number }>(
  queryClient: QueryClient,
  key: QueryKey,
  items: K,
  change: (payload: P) => PagesChange<T>,
  everyMs = 500,
) {
  const reads = trailingReads(queryClient, everyMs);
  return {
    apply(payload: P) {
      const c = change(payload);
      if (c === "refetch") {
        void queryClient.invalidateQueries({ queryKey: key });
        return;
      }
      if ("replace" in c)
        queryClient.setQueriesData<InfiniteData<Page<K, T>>>({ queryKey: key }, (d) => replaceInPages(d, items, c.replace));
      else queryClient.setQueriesData<InfiniteData<Page<K, T>>>({ queryKey: key }, (d) => removeFromPages(d, items, c.remove));
      reads.askIfBeingRead(key);
    },
    dispose: reads.dispose,
  };
}

/** Keeps every loaded list under `key` (items under `items` in each page) current from the socket `event`. */
export function useLivePages<E extends keyof ServerToClientEvents, K extends string, T extends { id: number }>(
  event: E,
  key: QueryKey,
  items: K,
  change: (payload: Payload<E>) => PagesChange<T>,
) {
  const queryClient = useQueryClient();
  const changeNow = useRef(change);
  changeNow.current = change;
  const live = useDisposable(() => livePages(queryClient, key, items, (p: Payload<E>) => changeNow.current(p)));
  useSocketEvent(event, ((p: Payload<E>) => live.apply(p)) as ServerToClientEvents[E]);
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
