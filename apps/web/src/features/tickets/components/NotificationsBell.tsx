import NotificationsIcon from "@mui/icons-material/Notifications";
import Badge from "@mui/material/Badge";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Popover from "@mui/material/Popover";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useAuth } from "../../auth";
import { useUnreadTickets } from "../api/get-unread";

export function NotificationsBell() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const tickets = useUnreadTickets(user?.profile === "admin" || user?.profile === "superv");
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton color="inherit" aria-label={t("topbar.notifications")} onClick={(e) => setAnchor(e.currentTarget)}>
        <Badge badgeContent={tickets.length} color="error" data-testid="unread-count">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        {tickets.length === 0 ? (
          <Typography sx={{ p: 2, maxWidth: 280 }} color="text.secondary" variant="body2">
            {t("topbar.noNotifications")}
          </Typography>
        ) : (
          <List dense sx={{ width: 300, maxHeight: 400, overflow: "auto" }}>
            {tickets.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                onClick={() => {
                  setAnchor(null);
                  navigate(`/tickets/${ticket.id}`);
                }}
              >
                <ListItemText
                  primary={ticket.contact.name}
                  secondary={`${ticket.lastMessage.slice(0, 20)} · ${t("topbar.unreadTicket", { count: ticket.unreadMessages })}`}
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
