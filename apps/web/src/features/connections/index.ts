/** WhatsApp connections (admins): the screen, and the drawer entry with its alert dot. */
export { connectionsMenu } from "./menu";
export { connectionsRoutes } from "./routes";
