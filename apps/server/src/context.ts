import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.js";
import type { Database, Db } from "./db/client.js";
import type { EventBus } from "./lib/events.js";
import type { SessionCache } from "./modules/users/session-cache.js";

/** What every service receives: the database, the event bus, the configuration and a logger. */
export interface AppContext {
  db: Db;
  database: Database;
  config: Config;
  events: EventBus;
  log: FastifyBaseLogger;
  /** token → current user, kept a few seconds and dropped on any change to the user */
  sessions: SessionCache;
}

/** The signed-in user as the server sees it on each request. */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile: "admin" | "superv" | "user";
  queueIds: number[];
}
