import type { ModuleHost } from "../../module-host.js";
import { botContentRoutes } from "./routes.js";

/** The chatbot's and the audio bot's content (entries the bots answer with). */
export function register(host: ModuleHost): void {
  host.routes(botContentRoutes(host.conv, host.guard));
}
