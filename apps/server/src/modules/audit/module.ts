import type { ModuleHost } from "../../module-host.js";
import { getSettingValue } from "../../db/settings.js";
import { auditRoutes } from "./routes.js";
import { purgeAudit } from "./service.js";

export const AUDIT_RETENTION_JOB = "audit.retention";

/** The audit log: its reads (admins) and the daily retention purge (the only deleter of entries). */
export function register(host: ModuleHost): void {
  const { ctx, clock } = host;
  host.jobs.every(AUDIT_RETENTION_JOB, 24 * 3600 * 1000, async () => {
    const days = Number(await getSettingValue(ctx.db, "auditRetentionDays")) || 0;
    const purged = await purgeAudit(ctx.db, days, new Date(clock.now()));
    if (purged) ctx.log.info({ purged, days }, "audit entries past retention deleted");
  });
  host.routes(auditRoutes(ctx, host.guard));
}
