import type { Ticket } from "@balcao/contract";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import CheckIcon from "@mui/icons-material/Check";
import EventIcon from "@mui/icons-material/Event";
import PixIcon from "@mui/icons-material/Pix";
import ReplayIcon from "@mui/icons-material/Replay";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { AiSummaryButton, AiSummaryPanel } from "../../features/ai";
import { useAuth } from "../../features/auth";
import { ContractAction } from "../../features/contracts";
import { ScheduleDialog } from "../../features/schedules";
import { useSettings } from "../../features/settings";
import { TransferTicketDialog, useUpdateTicket } from "../../features/tickets";
import { initials } from "../../lib/hooks";
import { toastError, toastSuccess } from "../../lib/toast";
import { ContactDrawer } from "./ContactDrawer";

/** The URL Gerar PIX opens: the configured address with the contact number and the agent id. */
export function pixUrl(base: string, number: string, userId: number) {
  const u = new URL(base, window.location.origin);
  u.searchParams.set("number", number);
  u.searchParams.set("userId", String(userId));
  return u.toString();
}

/**
 * How the ticket's actions show: `full` an outlined button with icon and text (wide screens), `icon`
 * an icon with its name as tooltip and accessible name (tablets), `stacked` the icon over its name in
 * the actions row under the contact (phones, where a bare icon would say nothing).
 */
type ActionMode = "full" | "icon" | "stacked";

function Action({
  label,
  icon,
  onClick,
  color,
  mode,
  busy,
  testId,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  color?: "primary" | "error" | "success" | "inherit";
  mode: ActionMode;
  busy?: boolean;
  testId?: string;
}) {
  if (mode === "stacked")
    return (
      <Tooltip title={label}>
        <span style={{ flex: 1, minWidth: 0, display: "flex" }}>
          <Button
            size="small"
            color={color ?? "inherit"}
            onClick={onClick}
            disabled={busy}
            data-testid={testId}
            sx={{
              flex: 1,
              minWidth: 0,
              flexDirection: "column",
              gap: 0.25,
              py: 0.5,
              px: 0.5,
              fontSize: 12,
              lineHeight: 1.2,
              textTransform: "none",
              "& .label": { maxWidth: "100%", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
            }}
          >
            {icon}
            <span className="label">{label}</span>
          </Button>
        </span>
      </Tooltip>
    );
  if (mode === "icon")
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

/** The chat's top bar: back, the contact (opens the drawer) and the ticket's actions. */
export function ChatHeader({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down("lg"));
  const phone = useMediaQuery(theme.breakpoints.down("sm"));
  const mode: ActionMode = phone ? "stacked" : compact ? "icon" : "full";
  const { get } = useSettings();
  const update = useUpdateTicket();
  const [drawer, setDrawer] = useState(false);
  const [transfer, setTransfer] = useState<Ticket | null>(null);
  const [scheduling, setScheduling] = useState(false);
  /** Finalizar asks first: it ends the conversation and sends the farewell (as deletions ask). */
  const [confirmClose, setConfirmClose] = useState(false);
  const mine = ticket.userId === user?.id;
  const actions = ticket.status === "open" && !ticket.isGroup && mine;
  const pixUrlSetting = get("urlPix");
  const showPix = get("pix") === "enabled" && Boolean(pixUrlSetting) && Boolean(ticket.contact.number);
  const showContract = get("enableContract") === "enabled";

  const setStatus = (status: "open" | "closed") =>
    update.mutate(
      { id: ticket.id, body: status === "open" ? { status, userId: user?.id } : { status } },
      {
        onSettled: () => setConfirmClose(false),
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
      sx={{
        display: "flex",
        flexWrap: phone ? "wrap" : "nowrap",
        alignItems: "center",
        gap: 1,
        rowGap: 0.5,
        px: 1,
        py: 0.75,
        borderBottom: 1,
        borderColor: "divider",
        minHeight: 60,
      }}
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
      {actions && (
        // on phones a row of its own under the contact, each action with its name
        <Box
          sx={phone ? { display: "flex", width: "100%", order: 3 } : { display: "flex", gap: 0.5, flexShrink: 0, alignItems: "center" }}
          data-testid="chat-actions"
        >
          <AiSummaryButton ticketId={ticket.id} />
          {showPix && (
            <Action
              mode={mode}
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
                <Action mode={mode} label={t("chat.contract")} icon={icon} onClick={onClick} testId="action-contract" />
              )}
            />
          )}
          <Action
            mode={mode}
            label={t("chat.schedule")}
            icon={<EventIcon />}
            onClick={() => setScheduling(true)}
            testId="action-schedule"
          />
          <Action
            mode={mode}
            label={t("chat.transfer")}
            icon={<SwapHorizIcon />}
            onClick={() => setTransfer(ticket)}
            testId="action-transfer"
          />
          <Action
            mode={mode}
            label={t("chat.close")}
            icon={<CheckIcon />}
            color="success"
            busy={update.isPending}
            onClick={() => setConfirmClose(true)}
            testId="action-close"
          />
        </Box>
      )}
      <Box sx={{ display: "flex", gap: 0.5, flexShrink: 0, alignItems: "center" }}>
        {ticket.status === "closed" && (
          <Action
            mode={phone ? "full" : mode}
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
      <TransferTicketDialog
        ticket={transfer}
        onClose={() => setTransfer(null)}
        onDone={() => navigate("/tickets")}
        extra={(t) => <AiSummaryPanel ticketId={t.id} />}
      />
      <ConfirmDialog
        open={confirmClose}
        title={t("chat.closeConfirm.title", { name: ticket.contact.name })}
        text={t("chat.closeConfirm.text")}
        confirmLabel={t("chat.close")}
        confirmColor="success"
        busy={update.isPending}
        onConfirm={() => setStatus("closed")}
        onClose={() => setConfirmClose(false)}
      />
      {scheduling && <ScheduleDialog ticket={ticket} open={scheduling} onClose={() => setScheduling(false)} />}
    </Box>
  );
}
