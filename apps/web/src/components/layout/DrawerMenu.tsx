import AccountTreeIcon from "@mui/icons-material/AccountTree";
import CampaignIcon from "@mui/icons-material/Campaign";
import ContactPhoneIcon from "@mui/icons-material/ContactPhone";
import DashboardIcon from "@mui/icons-material/Dashboard";
import DescriptionIcon from "@mui/icons-material/Description";
import EventIcon from "@mui/icons-material/Event";
import PeopleIcon from "@mui/icons-material/People";
import QuestionAnswerIcon from "@mui/icons-material/QuestionAnswer";
import SettingsIcon from "@mui/icons-material/Settings";
import SmartToyIcon from "@mui/icons-material/SmartToy";
import SyncAltIcon from "@mui/icons-material/SyncAlt";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Badge from "@mui/material/Badge";
import Divider from "@mui/material/Divider";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import Tooltip from "@mui/material/Tooltip";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router-dom";
import { isAdmin, useAuth } from "../../features/auth/auth-context";
import { useSettings } from "../../features/settings/api/get-settings";
import { useConnectionsAlert } from "../../features/shell/api/get-connections";

interface Item {
  to: string;
  label: string;
  icon: ReactNode;
  alert?: boolean;
}

function MenuLink({ item, compact, onNavigate }: { item: Item; compact: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const active =
    pathname.toLowerCase() === item.to || (item.to === "/tickets" && (pathname === "/" || pathname.toLowerCase().startsWith("/tickets")));
  const icon = item.alert ? (
    <Badge color="error" variant="dot" overlap="circular" data-testid="connections-alert">
      {item.icon}
    </Badge>
  ) : (
    item.icon
  );
  return (
    <Tooltip title={compact ? item.label : ""} placement="right">
      <ListItemButton
        component={NavLink}
        to={item.to}
        selected={active}
        onClick={onNavigate}
        sx={{ minHeight: 44, px: 2.25, borderRadius: 2, mx: 0.75, my: 0.25 }}
      >
        <ListItemIcon sx={{ minWidth: compact ? 0 : 40 }}>{icon}</ListItemIcon>
        {!compact && <ListItemText primary={item.label} slotProps={{ primary: { noWrap: true, fontSize: 14 } }} />}
      </ListItemButton>
    </Tooltip>
  );
}

/** The drawer's items per role (core §2). */
export function DrawerMenu({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const { get } = useSettings();
  const connectionsAlert = useConnectionsAlert(admin);

  const common: Item[] = [
    { to: "/tickets", label: t("menu.tickets"), icon: <WhatsAppIcon /> },
    { to: "/contacts", label: t("menu.contacts"), icon: <ContactPhoneIcon /> },
    { to: "/quickanswers", label: t("menu.quickAnswers"), icon: <QuestionAnswerIcon /> },
  ];
  const adminItems: Item[] = [
    { to: "/dashboard", label: t("menu.dashboard"), icon: <DashboardIcon /> },
    { to: "/users", label: t("menu.users"), icon: <PeopleIcon /> },
    { to: "/queues", label: t("menu.queues"), icon: <AccountTreeIcon /> },
    { to: "/chatbot", label: t("menu.chatbot"), icon: <SmartToyIcon /> },
    { to: "/disparos", label: t("menu.disparos"), icon: <CampaignIcon /> },
    ...(get("enableContract") === "enabled" ? [{ to: "/contratos", label: t("menu.contracts"), icon: <DescriptionIcon /> }] : []),
    { to: "/schedules", label: t("menu.schedules"), icon: <EventIcon /> },
    { to: "/connections", label: t("menu.connections"), icon: <SyncAltIcon />, alert: connectionsAlert },
    { to: "/settings", label: t("menu.settings"), icon: <SettingsIcon /> },
  ];

  return (
    <List component="nav" aria-label="menu" sx={{ py: 1 }}>
      {common.map((item) => (
        <MenuLink key={item.to} item={item} compact={compact} onNavigate={onNavigate} />
      ))}
      {admin && (
        <>
          <Divider sx={{ my: 1 }} />
          {!compact && (
            <ListSubheader disableSticky sx={{ lineHeight: "32px", bgcolor: "transparent" }}>
              {t("menu.administration")}
            </ListSubheader>
          )}
          {adminItems.map((item) => (
            <MenuLink key={item.to} item={item} compact={compact} onNavigate={onNavigate} />
          ))}
        </>
      )}
    </List>
  );
}
