import ApiIcon from "@mui/icons-material/Api";
import type { MenuEntry } from "../../lib/features";

/**
 * In the administration section: the page's test forms need a connection's API token, which only
 * admins see and set (Conexões). The page itself stays open to every signed-in user.
 */
export const apiDocMenu: MenuEntry = { to: "/doc", labelKey: "menu.doc", icon: <ApiIcon />, admin: true };
