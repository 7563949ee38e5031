import type { AiSuggestionsAnswer, AiSummaryAnswer } from "@balcao/contract";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { http } from "../../../api/http";
import { useSettings } from "../../settings";

/** Whether an admin turned AI assist on (the buttons are hidden otherwise). */
export function useAiEnabled(): boolean {
  return useSettings().get("aiEnabled") === "enabled";
}

function useLanguage(): "pt-BR" | "en" | "es" {
  const { i18n } = useTranslation();
  const l = i18n.resolvedLanguage ?? i18n.language;
  return l === "en" || l === "es" ? l : "pt-BR";
}

/** 'Sugerir resposta': three replies to edit (nothing is sent). Errors are shown where asked, not toasted. */
export function useSuggestions(ticketId: number) {
  const language = useLanguage();
  return useMutation({
    meta: { silent: true },
    mutationFn: () => http.post<AiSuggestionsAnswer>(`/tickets/${ticketId}/ai/suggestions`, { language }),
  });
}

/** 'Resumo': for a transfer or a supervisor. */
export function useSummary(ticketId: number) {
  const language = useLanguage();
  return useMutation({
    meta: { silent: true },
    mutationFn: () => http.post<AiSummaryAnswer>(`/tickets/${ticketId}/ai/summary`, { language }),
  });
}
