import { runAutoClose } from "../../jobs/auto-close.js";
import type { ModuleHost } from "../module.js";
import { ticketRoutes } from "./routes.js";

/** Tickets: the routes, and the auto-close of idle tickets on the job runner. */
export function register(host: ModuleHost): void {
  const { ctx, conv, jobs } = host;
  jobs.every("tickets.autoClose", ctx.config.AUTO_CLOSE_INTERVAL_S * 1000, async () => {
    const n = await runAutoClose(conv);
    if (n) ctx.log.info({ closed: n }, "auto-closed idle tickets");
  });
  host.routes(ticketRoutes(conv, host.guard));
}
