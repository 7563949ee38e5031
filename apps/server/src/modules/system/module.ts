import { sql } from "drizzle-orm";
import { pruneJournal } from "../messages/journal.js";
import type { ModuleHost } from "../module.js";
import { pruneIdempotencyKeys } from "../outbox/idempotency.js";
import { systemRoutes } from "./routes.js";

/** The admins' view of the background work (GET /jobs) and the clean-ups of what it leaves behind. */
export function register(host: ModuleHost): void {
  const { ctx } = host;
  host.jobs.every("system.prune", 6 * 3600 * 1000, async () => {
    await pruneJournal(ctx.db);
    await pruneIdempotencyKeys(ctx.db);
    await ctx.db.execute(sql`delete from jobs where state = 'done' and updated_at < now() - interval '1 day'`);
  });
  host.routes(systemRoutes(ctx, host.guard));
}
