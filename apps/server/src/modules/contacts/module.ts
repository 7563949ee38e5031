import type { ModuleHost } from "../../module-host.js";
import { contactRoutes } from "./routes.js";

/** Contacts: the list, the form, the number check on WhatsApp, the import from the phone. */
export function register(host: ModuleHost): void {
  host.routes(contactRoutes(host.conv, host.guard));
}
