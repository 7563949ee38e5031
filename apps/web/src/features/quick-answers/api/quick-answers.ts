import type { QuickAnswer, QuickAnswerBody, QuickAnswersAnswer } from "@balcao/contract";
import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";
import { removeFromPages, replaceInPages } from "../../../lib/infinite";

export const quickAnswersKey = ["quickAnswers"] as const;

export const quickAnswersQuery = (search: string) => {
  const searchParam = search.trim();
  return infiniteQueryOptions({
    queryKey: [...quickAnswersKey, { searchParam }],
    queryFn: ({ pageParam, signal }) => http.get<QuickAnswersAnswer>("/quickAnswers", { searchParam, pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
};

export function useQuickAnswers(search: string) {
  return useInfiniteQuery(quickAnswersQuery(search));
}

export function useQuickAnswersLive() {
  const queryClient = useQueryClient();
  useSocketEvent("quickAnswer", (p) => {
    if (p.action === "update") {
      queryClient.setQueriesData<InfiniteData<QuickAnswersAnswer>>({ queryKey: quickAnswersKey }, (d) =>
        replaceInPages(d, "quickAnswers", p.quickAnswer),
      );
    } else if (p.action === "delete") {
      queryClient.setQueriesData<InfiniteData<QuickAnswersAnswer>>({ queryKey: quickAnswersKey }, (d) =>
        removeFromPages(d, "quickAnswers", p.quickAnswerId),
      );
    } else {
      void queryClient.invalidateQueries({ queryKey: quickAnswersKey });
    }
  });
}

export function useSaveQuickAnswer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: QuickAnswerBody }) =>
      id ? http.put<QuickAnswer>(`/quickAnswers/${id}`, body) : http.post<QuickAnswer>("/quickAnswers", body),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickAnswersKey }),
  });
}

export function useDeleteQuickAnswer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`/quickAnswers/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickAnswersKey }),
  });
}
