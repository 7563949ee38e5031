/** Outage mode (incidents): the banner every screen shows while one is open, the Incidentes screen (admins, supervisors), the incidents query. */
export { useIncidents } from "./api/incidents";
export { IncidentBanner } from "./components/IncidentBanner";
export { incidentsMenu } from "./menu";
export { incidentsRoutes } from "./routes";
