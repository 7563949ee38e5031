import SyncAltIcon from "@mui/icons-material/SyncAlt";
import type { MenuEntry } from "../../lib/features";
import { ConnectionsAlert } from "./components/ConnectionsAlert";

export const connectionsMenu: MenuEntry = {
  to: "/connections",
  labelKey: "menu.connections",
  icon: <SyncAltIcon />,
  admin: true,
  Badge: ConnectionsAlert,
};
