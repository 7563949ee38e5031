import type { ModuleHost } from "../../module-host.js";
import { metricsRoutes } from "./routes.js";
import { MetricsCache } from "./service.js";

/** The dashboard's figures, cached a few seconds and dropped by ticket events. */
export function register(host: ModuleHost): void {
  const metrics = new MetricsCache({ ctx: host.ctx, clock: host.clock, onlineUserIds: () => host.presence.onlineUserIds() });
  host.routes(metricsRoutes(metrics, host.guard));
}
