import type { ModuleHost } from "../module.js";
import { cloudRoutes } from "./routes.js";
import { pruneCloudLedger } from "./service.js";

/** The WhatsApp Cloud API: the webhook, templates and the 24 h window (the channel itself is channels/cloud). */
export function register(host: ModuleHost, ask?: (whatsappId: number, method: string, args: unknown) => Promise<unknown>): void {
  host.jobs.every("cloud.pruneLedger", 6 * 3600 * 1000, async () => {
    await pruneCloudLedger(host.ctx.db);
  });
  host.routes(cloudRoutes(host.ctx, host.channels, host.guard, ask));
}
