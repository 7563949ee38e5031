import type { ModuleHost } from "../../module-host.js";
import { runAutoClose } from "./auto-close.js";
import { FOLD_EVERY_MS, foldTicketCounts } from "./counts.js";
import { ticketRoutes } from "./routes.js";

/** Tickets: the routes, the auto-close of idle tickets and the fold of the list counts on the job runner. */
export function register(host: ModuleHost): void {
  const { ctx, conv, jobs } = host;
  jobs.every("tickets.autoClose", ctx.config.AUTO_CLOSE_INTERVAL_S * 1000, async () => {
    const n = await runAutoClose(conv);
    if (n) ctx.log.info({ closed: n }, "auto-closed idle tickets");
  });
  jobs.every("tickets.foldCounts", FOLD_EVERY_MS, async () => {
    await foldTicketCounts(ctx.db);
  });
  // what was written while no process ran (an import, a restore) is folded before the first lists
  host.onStart(async () => {
    await foldTicketCounts(ctx.db);
  });
  host.routes(ticketRoutes(conv, host.guard));
}
