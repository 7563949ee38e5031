import EventIcon from "@mui/icons-material/Event";
import type { MenuEntry } from "../../lib/features";

export const schedulesMenu: MenuEntry = { to: "/schedules", labelKey: "menu.schedules", icon: <EventIcon />, admin: true };
