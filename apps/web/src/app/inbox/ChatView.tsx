import type { Message } from "@balcao/contract";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ApiError } from "../../api/http";
import { AiSuggestButton } from "../../features/ai";
import { MessageInput, MessagesList, useChatLive } from "../../features/chat";
import { CloudWindowBar } from "../../features/cloud";
import { openTicket, useTicket } from "../../features/tickets";
import { useSocketEvent } from "../../lib/socket";
import { toastError, toastSuccess } from "../../lib/toast";
import { ChatHeader } from "./ChatHeader";

/** One ticket's conversation: header with actions, messages, input. */
export function ChatView({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const q = useTicket(ticketId);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  // who is typing: the customer (no name) or another agent watching the ticket
  const [typing, setTyping] = useState<{ on: boolean; name?: string }>({ on: false });
  const onTyping = useCallback((on: boolean, name?: string) => setTyping({ on, name }), []);
  useChatLive(ticketId, onTyping);

  useEffect(() => {
    openTicket.id = ticketId;
    return () => {
      if (openTicket.id === ticketId) openTicket.id = 0;
    };
  }, [ticketId]);

  useEffect(() => {
    if (!q.error) return;
    const err = q.error;
    toastError(err instanceof ApiError && err.status === 404 ? t("tickets.noTicketId") : err);
    navigate("/tickets", { replace: true });
  }, [q.error, navigate, t]);

  useSocketEvent("ticket", (p) => {
    if (p.action === "delete" && p.ticketId === ticketId) {
      // `moved`: transferred out of this user's reach, not deleted
      if (!p.moved) toastSuccess(t("tickets.deleted"));
      navigate("/tickets");
    }
  });

  const ticket = q.data;
  if (!ticket) {
    return (
      <Box sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "center" }}>
        <CircularProgress />
      </Box>
    );
  }
  return (
    <Box
      sx={{ flex: 1, display: "flex", flexDirection: "column", minHeight: 0, minWidth: 0 }}
      data-testid="chat-view"
      data-ticket-id={ticketId}
    >
      <ChatHeader ticket={ticket} />
      <MessagesList ticket={ticket} onReply={setReplyTo} />
      {typing.on && (
        <Typography variant="caption" color="text.secondary" sx={{ px: 2, py: 0.25 }} data-testid="typing">
          {typing.name ?? ticket.contact.name} {t("chat.typing")}
        </Typography>
      )}
      <CloudWindowBar ticket={ticket} />
      <MessageInput
        ticket={ticket}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
        assist={(fill, slot) => <AiSuggestButton ticketId={ticket.id} onPick={fill} {...slot} />}
      />
    </Box>
  );
}
