import type { QuickAnswer, QuickAnswerBody, QuickAnswersAnswer } from "@balcao/contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { pagedQuery, useDeleteEntity, useLivePages, useSaveEntity } from "../../../lib/entity-api";

export const quickAnswersKey = ["quickAnswers"] as const;

export const quickAnswersQuery = (search: string) => pagedQuery<QuickAnswersAnswer>(quickAnswersKey, "/quickAnswers", search.trim());

export function useQuickAnswers(search: string) {
  return useInfiniteQuery(quickAnswersQuery(search));
}

export function useQuickAnswersLive() {
  useLivePages("quickAnswer", quickAnswersKey, "quickAnswers", (p) =>
    p.action === "update" ? { replace: p.quickAnswer } : p.action === "delete" ? { remove: p.quickAnswerId } : "refetch",
  );
}

export const useSaveQuickAnswer = () => useSaveEntity<QuickAnswerBody, QuickAnswer>("/quickAnswers", quickAnswersKey);

export const useDeleteQuickAnswer = () => useDeleteEntity("/quickAnswers", quickAnswersKey);
