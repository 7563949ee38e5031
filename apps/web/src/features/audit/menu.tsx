import PolicyIcon from "@mui/icons-material/Policy";
import type { MenuEntry } from "../../lib/features";

export const auditMenu: MenuEntry = { to: "/audit", labelKey: "menu.audit", icon: <PolicyIcon />, admin: true };
