import type { Storage } from "../../lib/storage.js";
import type { ModuleHost } from "../module.js";
import { createPrometheus, type Prometheus } from "./prometheus.js";
import { opsRoutes } from "./routes.js";

/** Operations: /health, /ready and the Prometheus metrics; answers the metrics (app.ts times requests into them). */
export function register(host: ModuleHost, o: { storage: Storage; socketCount: () => number }): Prometheus {
  const prometheus = createPrometheus({ ctx: host.ctx, channels: host.channels, socketCount: o.socketCount });
  host.routes(opsRoutes({ ctx: host.ctx, channels: host.channels, storage: o.storage }, prometheus));
  return prometheus;
}
