import type { ModuleHost } from "../module.js";
import { createChannelEventHandler } from "./channel-events.js";
import type { MessageBuilderHooks } from "./inbound.js";
import type { Journal } from "./journal.js";
import { messageRoutes } from "./routes.js";

/** Messages: the one way in (every channel event, journaled by the channel manager, goes to the dispatcher) and the routes. */
export function register(host: ModuleHost, journal: Journal, hooks: MessageBuilderHooks): void {
  host.channels.setHandler(createChannelEventHandler(host.conv, journal, hooks));
  host.routes(messageRoutes(host.conv, host.guard));
}
