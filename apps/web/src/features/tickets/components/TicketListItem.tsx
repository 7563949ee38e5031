import ErrorOutlineIcon from "@mui/icons-material/ErrorOutline";
import ReportProblemIcon from "@mui/icons-material/ReportProblem";
import { QUEUELESS_COLOR, type Ticket } from "@balcao/contract";
import Avatar from "@mui/material/Avatar";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import ListItemButton from "@mui/material/ListItemButton";
import Typography from "@mui/material/Typography";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { initials } from "../../../lib/hooks";
import { listTime } from "../../../lib/time";
import { preview } from "../lib";
import { textOn } from "../../../lib/contrast";

interface Props {
  ticket: Ticket;
  selected: boolean;
  onOpen: (t: Ticket) => void;
  onAccept: (t: Ticket) => void;
  accepting: boolean;
}

/** One ticket row: queue colour, avatar, contact, 20-character preview, time, unread count, queue and tags; Atender when waiting. */
export const TicketListItem = memo(function TicketListItem({ ticket, selected, onOpen, onAccept, accepting }: Props) {
  const { t } = useTranslation();
  const color = ticket.queue?.color ?? QUEUELESS_COLOR;
  // the chat on screen is being read: a count fetched or heard before its read landed is not shown
  const unread = selected && document.visibilityState === "visible" ? 0 : ticket.unreadMessages;
  return (
    <ListItemButton
      data-testid="ticket-item"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      selected={selected}
      onClick={() => onOpen(ticket)}
      sx={{ alignItems: "flex-start", gap: 1.25, py: 1, pl: 1.5, pr: 1, borderBottom: 1, borderColor: "divider", position: "relative" }}
    >
      <Box
        aria-hidden
        sx={{ position: "absolute", left: 0, top: 0, bottom: 0, width: 5, bgcolor: color }}
        title={ticket.queue?.name ?? t("tickets.noQueue")}
      />
      <Avatar
        src={ticket.contact.profilePicUrl || undefined}
        alt={ticket.contact.name}
        sx={{ width: 44, height: 44, mt: 0.25, fontSize: 16 }}
      >
        {initials(ticket.contact.name)}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: "flex", alignItems: "baseline", gap: 1 }}>
          <Typography variant="subtitle2" noWrap sx={{ flex: 1, minWidth: 0, fontWeight: unread ? 700 : 600 }}>
            {ticket.contact.name}
          </Typography>
          <Typography
            variant="caption"
            color={unread ? "success.main" : "text.secondary"}
            sx={{ flexShrink: 0, fontWeight: unread ? 700 : 400 }}
            data-testid="ticket-time"
          >
            {listTime(ticket.updatedAt)}
          </Typography>
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, minHeight: 22 }}>
          {ticket.lastMessageFailed && (
            <ErrorOutlineIcon
              color="error"
              sx={{ fontSize: 16, flexShrink: 0 }}
              titleAccess={t("tickets.lastFailed")}
              data-testid="ticket-failed"
            />
          )}
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="ticket-preview">
            {preview(ticket.lastMessage)}
          </Typography>
          {unread > 0 && (
            <Badge
              badgeContent={unread}
              color="success"
              max={999}
              data-testid="ticket-unread"
              aria-label={t("tickets.unread", { count: unread })}
              sx={{ mr: 1.5, "& .MuiBadge-badge": { position: "static", transform: "none" } }}
            />
          )}
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, mt: 0.5, minWidth: 0 }}>
          <Box sx={{ display: "flex", gap: 0.5, flex: 1, minWidth: 0, overflow: "hidden" }}>
            <Chip
              size="small"
              label={ticket.queue?.name ?? t("tickets.noQueue")}
              sx={{ bgcolor: color, color: textOn(color), height: 20, fontSize: 11, maxWidth: 140, flexShrink: 0 }}
              data-testid="ticket-queue"
            />
            {typeof ticket.queuePosition === "number" && (
              <Chip
                size="small"
                variant="outlined"
                color="secondary"
                label={t("tickets.position", { position: ticket.queuePosition })}
                title={t("tickets.positionHint")}
                sx={{ height: 20, fontSize: 11, flexShrink: 0 }}
                data-testid="ticket-position"
              />
            )}
            {(ticket.incidentIds?.length ?? 0) > 0 && (
              <Chip
                size="small"
                color="warning"
                icon={<ReportProblemIcon />}
                label={
                  <Box component="span" sx={{ display: { xs: "none", sm: "inline" } }}>
                    {t("tickets.incident")}
                  </Box>
                }
                title={t("tickets.incident")}
                aria-label={t("tickets.incident")}
                sx={{
                  height: 20,
                  fontSize: 11,
                  flexShrink: 0,
                  "& .MuiChip-icon": { fontSize: 14, mr: { xs: -0.75, sm: 0 } },
                  "& .MuiChip-label": { px: { xs: 0.5, sm: 1 } },
                }}
                data-testid="ticket-incident"
              />
            )}
            {ticket.user && ticket.status !== "pending" && (
              <Chip
                size="small"
                variant="outlined"
                label={ticket.user.name}
                sx={{ height: 20, fontSize: 11, maxWidth: 120, flexShrink: 1 }}
              />
            )}
            {ticket.tags.map((tag) => (
              <Chip
                key={tag.id}
                size="small"
                label={tag.name}
                sx={{ bgcolor: tag.color, color: textOn(tag.color), height: 20, fontSize: 11, maxWidth: 100 }}
              />
            ))}
          </Box>
          {ticket.status === "pending" && (
            <Button
              size="small"
              variant="contained"
              color="success"
              disabled={accepting}
              onClick={(e) => {
                e.stopPropagation();
                onAccept(ticket);
              }}
              sx={{ flexShrink: 0, py: 0, minHeight: 24, fontSize: 12 }}
            >
              {t("tickets.accept")}
            </Button>
          )}
        </Box>
      </Box>
    </ListItemButton>
  );
});
