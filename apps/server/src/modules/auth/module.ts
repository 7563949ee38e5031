import type { ModuleHost } from "../../module-host.js";
import { authRoutes } from "./routes.js";

/** Sign-in, refresh and sign-out (the access and refresh tokens: tokens.ts). */
export function register(host: ModuleHost): void {
  host.routes(authRoutes(host.ctx));
}
