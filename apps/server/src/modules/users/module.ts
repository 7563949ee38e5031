import type { ModuleHost } from "../../module-host.js";
import { userRoutes } from "./routes.js";

/** Users (admins manage them; the per-process session cache is the context's). */
export function register(host: ModuleHost): void {
  host.routes(userRoutes(host.ctx, host.guard));
}
