import type { ModuleHost } from "../../module-host.js";
import { tagRoutes } from "./routes.js";

/** Tags. */
export function register(host: ModuleHost): void {
  host.routes(tagRoutes(host.ctx, host.guard));
}
