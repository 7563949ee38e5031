import AccountTreeIcon from "@mui/icons-material/AccountTree";
import type { MenuEntry } from "../../lib/features";

export const queuesMenu: MenuEntry = { to: "/queues", labelKey: "menu.queues", icon: <AccountTreeIcon />, admin: true };
