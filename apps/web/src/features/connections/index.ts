/** WhatsApp connections (admins): the screen, and the drawer entry with its alert dot. */
export { connectionsMenu } from "./menu";
export { connectionsRoutes } from "./routes";
/** The connections list (admins): the tickets screen's first-day hint asks whether there is one. */
export { connectionsQuery } from "./api/connections";
/** The pause alert of a number (a ban signal), on every screen of an admin. */
export { useConnectionHealthAlerts } from "./components/HealthAlerts";
