import type { ModuleHost } from "../../module-host.js";
import { cloudRoutes } from "./routes.js";
import { CLOUD_WEBHOOK_CALL, cloudWebhookCallHandler, pruneCloudLedger } from "./service.js";

/** The WhatsApp Cloud API: the webhook, templates and the 24 h window (the channel itself is channels/cloud). */
export function register(host: ModuleHost): void {
  // several processes: a webhook that reaches a process without the number's session goes to its owner
  host.ownerCalls?.handle(CLOUD_WEBHOOK_CALL, cloudWebhookCallHandler(host.channels));
  const owners = host.ownerCalls;
  const ask = owners && ((id: number, method: string, args: unknown) => owners.ask(id, method, args));
  host.jobs.every("cloud.pruneLedger", 6 * 3600 * 1000, async () => {
    await pruneCloudLedger(host.ctx.db);
  });
  host.routes(cloudRoutes(host.ctx, host.channels, host.guard, ask));
}
