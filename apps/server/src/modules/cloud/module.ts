import type { ModuleHost } from "../module.js";
import { cloudRoutes } from "./routes.js";

/** The WhatsApp Cloud API: the webhook, templates and the 24 h window (the channel itself is channels/cloud). */
export function register(host: ModuleHost): void {
  host.routes(cloudRoutes(host.ctx, host.channels, host.guard));
}
