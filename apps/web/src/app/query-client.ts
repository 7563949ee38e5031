import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/http";
import { toastError } from "../lib/toast";

declare module "@tanstack/react-query" {
  interface Register {
    /** `silent`: the caller handles the error (or ignores it, like the connections badge). */
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (!query.meta?.silent && !(err instanceof ApiError && err.status === 401)) toastError(err);
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _v, _c, mutation) => {
        if (!mutation.meta?.silent) toastError(err);
      },
    }),
    defaultOptions: {
      queries: {
        retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status < 500),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });
}
