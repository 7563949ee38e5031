import "../i18n";
import { MESSAGES_TOP_THRESHOLD_PX, type Message, type Ticket } from "@balcao/contract";
import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { dayLabel } from "../../../lib/time";
import { useAuth } from "../../auth";
import { chronological, useDeleteMessage, useMessages, useResendMessage } from "../api/messages";
import { MessageBubble } from "./MessageBubble";

/** Older pages load within 50 px of the top; the view stays on the same message while they arrive. */
export function nearTop(el: Pick<HTMLElement, "scrollTop">) {
  return el.scrollTop <= MESSAGES_TOP_THRESHOLD_PX;
}

export function MessagesList({ ticket, onReply }: { ticket: Ticket; onReply: (m: Message) => void }) {
  const { t } = useTranslation();
  const dark = useTheme().palette.mode === "dark";
  const q = useMessages(ticket.id);
  const messages = useMemo(() => chronological(q.data), [q.data]);
  const del = useDeleteMessage(ticket.id);
  const resend = useResendMessage(ticket.id);
  const { user } = useAuth();
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ fromBottom: number } | null>(null);
  const stick = useRef(true);
  const lastTop = useRef(0);
  const lastId = messages[messages.length - 1]?.id;
  const pages = q.data?.pages.length ?? 0;

  // keep the view: after older pages, the same distance from the bottom; after new ones, at the bottom if it was there
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the rendered messages change
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.fromBottom;
      anchor.current = null;
    } else if (stick.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [pages, lastId, messages.length]);

  // images, videos and previews take their height when they load, after the scroll above: while
  // the view is at the bottom (the user has not scrolled up), it stays there as the content grows
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stick.current && !anchor.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // only the user scrolling up lets go of the bottom: a picture growing the content below the
    // view (before it is pinned again) is not the user leaving it
    const up = el.scrollTop < lastTop.current - 1;
    lastTop.current = el.scrollTop;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 80) stick.current = true;
    else if (up) stick.current = false;
    if (nearTop(el) && hasNextPage && !isFetchingNextPage && !anchor.current) {
      anchor.current = { fromBottom: el.scrollHeight - el.scrollTop };
      void fetchNextPage().then((r) => {
        if (r.isError) anchor.current = null;
      });
    }
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const canReply = ticket.status === "open";
  // writing in an open ticket is its owner's, and admins' and supervisors' (the server says the same)
  const canWrite = canReply && (ticket.userId === user?.id || user?.profile === "admin" || user?.profile === "superv");
  const onDelete = useCallback((m: Message) => setDeleting(m), []);
  const { mutate: resendMutate } = resend;
  const onResend = useCallback((m: Message) => resendMutate(m.id), [resendMutate]);
  const onImage = useCallback((u: string) => setImage(u), []);
  let lastDay = "";

  return (
    <Box
      ref={ref}
      onScroll={onScroll}
      data-testid="messages-list"
      aria-busy={q.isLoading || isFetchingNextPage}
      sx={{
        flex: 1,
        minHeight: 0,
        overflowY: "auto",
        overflowX: "hidden",
        py: 1,
        bgcolor: dark ? "#0b141a" : "#efeae2",
      }}
    >
      <Box ref={content}>
        {isFetchingNextPage && (
          <Box sx={{ display: "flex", justifyContent: "center", p: 1 }}>
            <CircularProgress size={20} />
          </Box>
        )}
        {q.isLoading && (
          <Box sx={{ display: "flex", justifyContent: "center", alignItems: "center", gap: 1, p: 4 }}>
            <CircularProgress size={24} />
            <Typography color="text.secondary">{t("chat.loading")}</Typography>
          </Box>
        )}
        {!q.isLoading && messages.length === 0 && (
          <Typography color="text.secondary" sx={{ textAlign: "center", p: 4 }}>
            {q.isError ? t("common.loadError") : t("chat.noMessages")}
          </Typography>
        )}
        {messages.map((m) => {
          const day = dayLabel(new Date(m.createdAt));
          const sep = day !== lastDay;
          lastDay = day;
          return (
            <Fragment key={m.id}>
              {sep && (
                <Box sx={{ display: "flex", justifyContent: "center", my: 1 }} data-testid="day-separator">
                  <Chip size="small" label={day} sx={{ bgcolor: dark ? "#182229" : "#ffffff", color: "text.secondary", boxShadow: 1 }} />
                </Box>
              )}
              <MessageBubble
                message={m}
                dark={dark}
                isGroup={ticket.isGroup}
                canReply={canReply}
                onReply={onReply}
                onDelete={onDelete}
                onImage={onImage}
                onResend={canWrite ? onResend : undefined}
              />
            </Fragment>
          );
        })}
      </Box>
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t("chat.deleteMessage")}
        text={t("chat.deleteConfirm")}
        busy={del.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
      <Dialog open={Boolean(image)} onClose={() => setImage(null)} maxWidth="lg" aria-label={t("chat.viewer")}>
        <IconButton
          aria-label={t("common.close")}
          onClick={() => setImage(null)}
          sx={{
            position: "absolute",
            right: 8,
            top: 8,
            bgcolor: "rgba(0,0,0,0.5)",
            color: "#fff",
            "&:hover": { bgcolor: "rgba(0,0,0,0.7)" },
          }}
        >
          <CloseIcon />
        </IconButton>
        {image && (
          <Box
            component="img"
            src={image}
            alt=""
            sx={{ display: "block", maxWidth: "90vw", maxHeight: "85vh" }}
            data-testid="image-viewer"
          />
        )}
      </Dialog>
    </Box>
  );
}
