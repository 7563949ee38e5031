import type { UseInfiniteQueryResult, UseQueryResult } from "@tanstack/react-query";

/** What a card grid needs to know about the query behind it: loading, failure and retry. */
export interface ListState {
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
}

/** A list that comes whole: no next page. */
export function listState(q: Pick<UseQueryResult, "isPending" | "isError" | "refetch">): ListState {
  return { loading: q.isPending, error: q.isError, onRetry: () => void q.refetch() };
}

/** A list that comes page by page: the grid asks for the next page near its bottom. */
export function infiniteListState(
  q: Pick<UseInfiniteQueryResult, "isPending" | "isError" | "refetch" | "hasNextPage" | "isFetchingNextPage" | "fetchNextPage">,
): ListState {
  return {
    ...listState(q),
    hasMore: q.hasNextPage,
    loadingMore: q.isFetchingNextPage,
    onLoadMore: () => void q.fetchNextPage(),
  };
}
