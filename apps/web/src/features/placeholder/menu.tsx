import DashboardIcon from "@mui/icons-material/Dashboard";
import DescriptionIcon from "@mui/icons-material/Description";
import EventIcon from "@mui/icons-material/Event";
import SettingsIcon from "@mui/icons-material/Settings";
import SmartToyIcon from "@mui/icons-material/SmartToy";
import type { MenuEntry } from "../../lib/features";

/** Drawer entries of the administration screens that come later (each opens its empty page). */
export const comingSoonMenu = {
  dashboard: { to: "/dashboard", labelKey: "menu.dashboard", icon: <DashboardIcon />, admin: true },
  chatbot: { to: "/chatbot", labelKey: "menu.chatbot", icon: <SmartToyIcon />, admin: true },
  contracts: { to: "/contratos", labelKey: "menu.contracts", icon: <DescriptionIcon />, admin: true, setting: "enableContract" },
  schedules: { to: "/schedules", labelKey: "menu.schedules", icon: <EventIcon />, admin: true },
  settings: { to: "/settings", labelKey: "menu.settings", icon: <SettingsIcon />, admin: true },
} satisfies Record<string, MenuEntry>;
