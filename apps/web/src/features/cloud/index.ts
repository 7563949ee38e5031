/** WhatsApp Cloud API in the web app: the chat's 24 h window bar and template picker, the templates query (connection dialog). */
import "./i18n";

export { useTemplates } from "./api";
export { CloudWindowBar } from "./WindowBar";
export { useConnectionChannel } from "./ConnectionChannel";
