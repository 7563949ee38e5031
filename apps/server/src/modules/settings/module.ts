import type { ModuleHost } from "../../module-host.js";
import { BrandingStore } from "./branding.js";
import { settingRoutes } from "./routes.js";

/** Settings: the screen's reads and writes, the 'Acesso restrito' gate, branding images, the e-mail test. */
export function register(host: ModuleHost): void {
  host.routes(settingRoutes(host.ctx, host.guard, host.clock, new BrandingStore(host.conv.media.storage)));
}
