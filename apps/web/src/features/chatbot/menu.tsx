import SmartToyIcon from "@mui/icons-material/SmartToy";
import type { MenuEntry } from "../../lib/features";

export const chatbotMenu: MenuEntry = { to: "/chatbot", labelKey: "menu.chatbot", icon: <SmartToyIcon />, admin: true };
