import type { ModuleHost } from "../../module-host.js";
import { createChannelEventHandler } from "./channel-events.js";
import { messageRoutes } from "./routes.js";

/** Messages: the one way in (every channel event, journaled by the channel manager, goes to the dispatcher) and the routes. */
export function register(host: ModuleHost): void {
  host.channels.setHandler(createChannelEventHandler(host.conv, host.journal, host.inbound.hooks));
  host.routes(messageRoutes(host.conv, host.guard));
}
