import type { ModuleHost } from "../../module-host.js";
import { createPrometheus, registerHttpMetrics } from "./prometheus.js";
import { opsRoutes } from "./routes.js";

/** Operations: /health, /ready and the Prometheus metrics (every request timed into its histogram). */
export function register(host: ModuleHost): void {
  const prometheus = createPrometheus({ ctx: host.ctx, channels: host.channels, socketCount: () => host.presence.socketCount() });
  host.onHttp((app) => registerHttpMetrics(app, prometheus));
  host.routes(opsRoutes({ ctx: host.ctx, channels: host.channels, storage: host.conv.media.storage }, prometheus));
}
