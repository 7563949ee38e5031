import type { ModuleHost } from "../../module-host.js";
import { SettingsGate } from "../settings/gate.js";
import { billingRoutes } from "./routes.js";

/** The billing system's panel and actions in the chat, and the integration's test (the registry is the host's). */
export function register(host: ModuleHost): void {
  host.routes(billingRoutes({ conv: host.conv, registry: host.billing }, host.guard, new SettingsGate(host.ctx, host.clock)));
}
