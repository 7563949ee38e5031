import PeopleIcon from "@mui/icons-material/People";
import type { MenuEntry } from "../../lib/features";

export const usersMenu: MenuEntry = { to: "/users", labelKey: "menu.users", icon: <PeopleIcon />, admin: true };
