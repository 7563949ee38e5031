/** The audit log (admins): the Auditoria screen and its drawer entry. */
export { auditMenu } from "./menu";
export { auditRoutes } from "./routes";
