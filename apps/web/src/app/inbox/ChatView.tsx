import type { Message, Ticket } from "@balcao/contract";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import CheckIcon from "@mui/icons-material/Check";
import CloseIcon from "@mui/icons-material/Close";
import EditIcon from "@mui/icons-material/Edit";
import EventIcon from "@mui/icons-material/Event";
import PixIcon from "@mui/icons-material/Pix";
import ReplayIcon from "@mui/icons-material/Replay";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ApiError } from "../../api/http";
import { useSocketEvent } from "../../lib/socket";
import { initials } from "../../lib/hooks";
import { formatPhone } from "../../lib/phone";
import { toastError, toastSuccess } from "../../lib/toast";
import { useAuth } from "../../features/auth";
import { BillingPanel } from "../../features/billing";
import { ContactDialog, useContact } from "../../features/contacts";
import { ContractAction } from "../../features/contracts";
import { ScheduleDialog } from "../../features/schedules";
import { useSettings } from "../../features/settings";
import { MessageInput, MessagesList, useChatLive } from "../../features/chat";
import { TransferTicketDialog, openTicket, useTicket, useUpdateTicket } from "../../features/tickets";

/** The URL Gerar PIX opens: the configured address with the contact number and the agent id. */
export function pixUrl(base: string, number: string, userId: number) {
  const u = new URL(base, window.location.origin);
  u.searchParams.set("number", number);
  u.searchParams.set("userId", String(userId));
  return u.toString();
}

function Action({
  label,
  icon,
  onClick,
  color,
  compact,
  busy,
  testId,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  color?: "primary" | "error" | "success" | "inherit";
  compact: boolean;
  busy?: boolean;
  testId?: string;
}) {
  if (compact)
    return (
      <Tooltip title={label}>
        <span>
          <IconButton aria-label={label} onClick={onClick} color={color} disabled={busy} data-testid={testId}>
            {icon}
          </IconButton>
        </span>
      </Tooltip>
    );
  return (
    <Button
      size="small"
      variant="outlined"
      color={color}
      startIcon={icon}
      onClick={onClick}
      disabled={busy}
      sx={{ flexShrink: 0, whiteSpace: "nowrap" }}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}

function ContactDrawer({
  contactId,
  ticketId,
  canAct,
  open,
  onClose,
}: {
  contactId: number;
  ticketId: number;
  canAct: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const q = useContact(contactId, open);
  const c = q.data;
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: "100%", sm: 340 } } } }}>
      <Box sx={{ display: "flex", alignItems: "center", p: 1, gap: 1 }}>
        <IconButton aria-label={t("common.close")} onClick={onClose}>
          <CloseIcon />
        </IconButton>
        <Typography variant="subtitle1">{t("chat.contactInfo")}</Typography>
      </Box>
      <Divider />
      {!c ? (
        <Box sx={{ p: 4, display: "flex", justifyContent: "center" }}>
          <CircularProgress size={24} />
        </Box>
      ) : (
        <Box
          sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1.5, alignItems: "center", textAlign: "center" }}
          data-testid="contact-drawer"
        >
          <Avatar src={c.profilePicUrl || undefined} sx={{ width: 96, height: 96, fontSize: 32 }}>
            {initials(c.name)}
          </Avatar>
          <Typography variant="h6" sx={{ wordBreak: "break-word" }}>
            {c.name}
          </Typography>
          {c.number && (
            <Link href={`tel:+${c.number}`} data-testid="contact-tel">
              {formatPhone(c.number)}
            </Link>
          )}
          {c.email && (
            <Link href={`mailto:${c.email}`} sx={{ wordBreak: "break-all" }}>
              {c.email}
            </Link>
          )}
          <Button variant="outlined" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
            {t("chat.editContact")}
          </Button>
          {c.extraInfo.length > 0 && (
            <Box sx={{ width: "100%", textAlign: "left" }}>
              <Typography variant="subtitle2" sx={{ mb: 1 }}>
                {t("chat.extraInfo")}
              </Typography>
              {c.extraInfo.map((e, i) => (
                <Box key={e.id ?? i} sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1, mb: 1 }}>
                  <Typography variant="caption" color="text.secondary">
                    {e.name}
                  </Typography>
                  <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
                    {e.value}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
          {!c.isGroup && <BillingPanel ticketId={ticketId} canAct={canAct} open={open} />}
        </Box>
      )}
      <ContactDialog
        open={editing}
        contact={c ?? null}
        onClose={() => {
          setEditing(false);
          void q.refetch();
        }}
      />
    </Drawer>
  );
}

function ChatHeader({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down("lg"));
  const { get } = useSettings();
  const update = useUpdateTicket();
  const [drawer, setDrawer] = useState(false);
  const [transfer, setTransfer] = useState<Ticket | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const mine = ticket.userId === user?.id;
  const actions = ticket.status === "open" && !ticket.isGroup && mine;
  const pixUrlSetting = get("urlPix");
  const showPix = get("pix") === "enabled" && Boolean(pixUrlSetting) && Boolean(ticket.contact.number);
  const showContract = get("enableContract") === "enabled";

  const setStatus = (status: "open" | "closed") =>
    update.mutate(
      { id: ticket.id, body: status === "open" ? { status, userId: user?.id } : { status } },
      {
        onSuccess: () => {
          if (status === "closed") {
            toastSuccess(t("tickets.closedOk"));
            navigate("/tickets");
          }
        },
      },
    );

  const subtitle =
    ticket.status === "pending"
      ? t("chat.waiting")
      : ticket.status === "closed"
        ? t("chat.closed")
        : ticket.user
          ? t("chat.assignedTo", { name: ticket.user.name })
          : "";

  return (
    <Box
      sx={{ display: "flex", alignItems: "center", gap: 1, px: 1, py: 0.75, borderBottom: 1, borderColor: "divider", minHeight: 60 }}
      data-testid="chat-header"
    >
      <Tooltip title={t("chat.back")}>
        <IconButton aria-label={t("chat.back")} onClick={() => navigate("/tickets")}>
          <ArrowBackIcon />
        </IconButton>
      </Tooltip>
      <Box
        role="button"
        tabIndex={0}
        onClick={() => setDrawer(true)}
        onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && setDrawer(true)}
        sx={{ display: "flex", alignItems: "center", gap: 1, flex: 1, minWidth: 0, cursor: "pointer" }}
        aria-label={t("chat.contactInfo")}
      >
        <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
          {initials(ticket.contact.name)}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" noWrap sx={{ fontWeight: 600, lineHeight: 1.3 }} data-testid="chat-contact-name">
            {ticket.contact.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {ticket.queue ? `${ticket.queue.name} · ` : ""}
            {subtitle}
          </Typography>
        </Box>
      </Box>
      <Box sx={{ display: "flex", gap: 0.5, flexShrink: 0, alignItems: "center" }}>
        {actions && (
          <>
            {showPix && (
              <Action
                compact={compact}
                label={t("chat.pix")}
                icon={<PixIcon />}
                testId="action-pix"
                onClick={() => {
                  if (!ticket.contact.number) return toastError(t("tickets.noNumber"));
                  window.open(pixUrl(pixUrlSetting, ticket.contact.number, user?.id ?? 0), "_blank", "noopener");
                }}
              />
            )}
            {showContract && (
              <ContractAction
                ticket={ticket}
                render={({ icon, onClick }) => (
                  <Action compact={compact} label={t("chat.contract")} icon={icon} onClick={onClick} testId="action-contract" />
                )}
              />
            )}
            <Action
              compact={compact}
              label={t("chat.schedule")}
              icon={<EventIcon />}
              onClick={() => setScheduling(true)}
              testId="action-schedule"
            />
            <Action
              compact={compact}
              label={t("chat.transfer")}
              icon={<SwapHorizIcon />}
              onClick={() => setTransfer(ticket)}
              testId="action-transfer"
            />
            <Action
              compact={compact}
              label={t("chat.close")}
              icon={<CheckIcon />}
              color="success"
              busy={update.isPending}
              onClick={() => setStatus("closed")}
              testId="action-close"
            />
          </>
        )}
        {ticket.status === "closed" && (
          <Action
            compact={compact}
            label={t("chat.reopen")}
            icon={<ReplayIcon />}
            busy={update.isPending}
            onClick={() => setStatus("open")}
            testId="action-reopen"
          />
        )}
        {ticket.status === "pending" && (
          <Button
            size="small"
            variant="contained"
            color="success"
            disabled={update.isPending}
            onClick={() => setStatus("open")}
            data-testid="action-accept"
          >
            {t("chat.accept")}
          </Button>
        )}
      </Box>
      <ContactDrawer
        contactId={ticket.contactId}
        ticketId={ticket.id}
        canAct={ticket.status === "open" && !ticket.isGroup && (mine || user?.profile === "admin" || user?.profile === "superv")}
        open={drawer}
        onClose={() => setDrawer(false)}
      />
      <TransferTicketDialog ticket={transfer} onClose={() => setTransfer(null)} onDone={() => navigate("/tickets")} />
      {scheduling && <ScheduleDialog ticket={ticket} open={scheduling} onClose={() => setScheduling(false)} />}
    </Box>
  );
}

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
      <MessageInput ticket={ticket} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
    </Box>
  );
}
