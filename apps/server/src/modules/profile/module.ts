import type { ModuleHost } from "../../module-host.js";
import { profileRoutes } from "./routes.js";

/** 'Meu perfil': the signed-in user's own name, password and preferences. */
export function register(host: ModuleHost): void {
  host.routes(profileRoutes(host.ctx, host.guard));
}
