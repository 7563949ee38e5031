import SettingsIcon from "@mui/icons-material/Settings";
import type { MenuEntry } from "../../lib/features";

export const settingsMenu: MenuEntry = { to: "/settings", labelKey: "menu.settings", icon: <SettingsIcon />, admin: true };
