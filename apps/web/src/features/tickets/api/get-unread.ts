import type { Ticket, TicketsAnswer } from "@balcao/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";

const unreadKey = ["tickets", "unread"] as const;

/** Open tickets with unread messages, for the bell. A failing call leaves the bell silently empty. */
export function useUnreadTickets(showAll: boolean): Ticket[] {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: [...unreadKey, showAll],
    queryFn: () => http.get<TicketsAnswer>("/tickets", { status: "open", withUnreadMessages: true, showAll }),
    retry: false,
    meta: { silent: true },
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: unreadKey });
  useSocketEvent("ticket", refresh);
  useSocketEvent("appMessage", refresh);
  return (data?.tickets ?? []).filter((t) => t.unreadMessages > 0);
}
