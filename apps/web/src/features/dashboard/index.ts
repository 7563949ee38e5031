/** Dashboard (admins and supervisors): the screen and its drawer entry. */
export { dashboardMenu } from "./menu";
export { dashboardRoutes } from "./routes";
