import { contractFiles } from "../contracts/service.js";
import type { ModuleHost } from "../../module-host.js";
import { getSettingValue } from "../settings/service.js";
import { purgeOldMedia } from "./retention.js";
import { lgpdRoutes } from "./routes.js";

export const MEDIA_RETENTION_JOB = "lgpd.mediaRetention";

/** LGPD: a contact's export and erasure (admins), and the daily media retention job. */
export function register(host: ModuleHost): void {
  const { ctx, conv, clock } = host;
  host.jobs.every(MEDIA_RETENTION_JOB, 24 * 3600 * 1000, async () => {
    const days = Number(await getSettingValue(ctx.db, "mediaRetentionDays")) || 0;
    const removed = await purgeOldMedia(ctx.db, conv.media, days, new Date(clock.now()), ctx.log);
    if (removed) ctx.log.info({ removed, days }, "media files past retention deleted");
  });
  host.routes(lgpdRoutes({ conv, contractFiles: contractFiles(conv.media.storage) }, host.guard));
}
