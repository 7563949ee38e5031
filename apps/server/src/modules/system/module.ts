import { pruneDoneJobs } from "../../jobs/runner.js";
import { pruneJournal } from "../messages/journal.js";
import type { ModuleHost } from "../../module-host.js";
import { pruneIdempotencyKeys } from "../outbox/idempotency.js";
import { systemRoutes } from "./routes.js";

/** The admins' view of the background work (GET /jobs) and the clean-ups of what it leaves behind. */
export function register(host: ModuleHost): void {
  const { ctx } = host;
  host.jobs.every("system.prune", 6 * 3600 * 1000, async () => {
    await pruneJournal(ctx.db);
    await pruneIdempotencyKeys(ctx.db);
    await pruneDoneJobs(ctx.db, 1);
  });
  host.routes(systemRoutes(ctx, host.guard));
}
