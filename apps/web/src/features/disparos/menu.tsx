import CampaignIcon from "@mui/icons-material/Campaign";
import type { MenuEntry } from "../../lib/features";

export const disparosMenu: MenuEntry = { to: "/disparos", labelKey: "menu.disparos", icon: <CampaignIcon />, admin: true };
