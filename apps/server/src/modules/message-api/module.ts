import type { ModuleHost } from "../../module-host.js";
import { messageApiRoutes } from "./routes.js";

/** The message-sending API (a connection's token). */
export function register(host: ModuleHost): void {
  host.routes(messageApiRoutes(host.conv));
}
