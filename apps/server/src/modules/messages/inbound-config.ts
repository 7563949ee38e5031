import type { AppContext } from "../../context.js";
import { PromiseCache } from "../../lib/promise-cache.js";
import { type ConnectionInfo, connectionInfo } from "../connection-facts/info.js";
import { getSettingValues } from "../settings/service.js";

const CACHE_MS = 10_000;
const SETTINGS = [
  "CheckMsgIsGroup",
  "timeCreateNewTicket",
  "msgMediaUnavailable",
  "msgVoiceCall",
  "msgVideoCall",
  "disparoOptOutWords",
] as const;
export type InboundSettings = Record<(typeof SETTINGS)[number], string>;

export interface InboundConfig {
  connection(id: number): Promise<ConnectionInfo | undefined>;
  settings(): Promise<InboundSettings>;
}

/**
 * What every channel event reads (its connection, a few settings), cached briefly and dropped when an admin changes it.
 * The bots read the same (their own instance): a customer message asks the database nothing it asked a moment ago.
 */
export function createInboundConfig(ctx: AppContext): InboundConfig {
  // promises, so the messages that find the cache expired together wait for one read instead of each reading
  const connCache = new PromiseCache<number, ConnectionInfo | undefined>(CACHE_MS, (id) => connectionInfo(ctx.db, id));
  const settingsCache = new PromiseCache<"settings", InboundSettings>(CACHE_MS, () => getSettingValues(ctx.db, SETTINGS));
  const dropConnections = () => connCache.clear();
  ctx.events.onEverywhere("whatsapp.saved", dropConnections);
  ctx.events.onEverywhere("whatsapp.deleted", dropConnections);
  ctx.events.onEverywhere("queue.saved", dropConnections);
  ctx.events.onEverywhere("queue.deleted", dropConnections);
  ctx.events.onEverywhere("setting.updated", () => settingsCache.clear());
  return {
    connection: (id) => connCache.get(id),
    settings: () => settingsCache.get("settings"),
  };
}
