import ContactPhoneIcon from "@mui/icons-material/ContactPhone";
import type { MenuEntry } from "../../lib/features";

export const contactsMenu: MenuEntry = { to: "/contacts", labelKey: "menu.contacts", icon: <ContactPhoneIcon /> };
