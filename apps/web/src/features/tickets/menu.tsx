import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import type { MenuEntry } from "../../lib/features";

export const ticketsMenu: MenuEntry = { to: "/tickets", labelKey: "menu.tickets", icon: <WhatsAppIcon /> };
