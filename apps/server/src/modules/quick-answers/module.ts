import type { ModuleHost } from "../../module-host.js";
import { quickAnswerRoutes } from "./routes.js";

/** Quick answers ('/atalho' in the message input). */
export function register(host: ModuleHost): void {
  host.routes(quickAnswerRoutes(host.ctx, host.guard));
}
