import type { ChatWindowAnswer, CloudTemplatesAnswer, Message, TemplateSend } from "@balcao/contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { http } from "../../api/http";

/** A Cloud connection's approved templates (cached by the server too). */
export function useTemplates(whatsappId: number | null | undefined, enabled = true) {
  return useQuery({
    queryKey: ["cloud-templates", whatsappId],
    queryFn: ({ signal }) => http.get<CloudTemplatesAnswer>(`/whatsapp/${whatsappId}/templates`, undefined, signal),
    enabled: enabled && !!whatsappId,
    staleTime: 5 * 60_000,
  });
}

/** Whether free text may go to this ticket's customer now (Cloud connections have the 24 h window). */
export function useChatWindow(ticketId: number, lastMessageAt?: string) {
  return useQuery({
    queryKey: ["chat-window", ticketId, lastMessageAt],
    queryFn: ({ signal }) => http.get<ChatWindowAnswer>(`/tickets/${ticketId}/window`, undefined, signal),
    staleTime: 60_000,
  });
}

export function useSendTemplate(ticketId: number) {
  return useMutation({
    mutationFn: (template: TemplateSend) => http.post<Message[]>(`/messages/${ticketId}`, { template }),
  });
}
