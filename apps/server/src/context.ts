import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.js";
import type { Database, Db } from "./db/client.js";
import type { Cluster } from "./lib/cluster/index.js";
import type { EventBus } from "./lib/events.js";
import type { UploadReceiver } from "./lib/uploads.js";

/** What every service receives: the database, the event bus, the configuration and a logger. */
export interface AppContext {
  db: Db;
  database: Database;
  config: Config;
  events: EventBus;
  log: FastifyBaseLogger;
  /** token → current user, kept a few seconds and dropped on any change to the user */
  sessions: SessionLookup;
  /** the one way routes receive files: streamed to disk, limited while streaming, typed by content */
  uploads: UploadReceiver;
  /** what several server processes share: limits, locks, presence (`lib/cluster/`; memory with one process) */
  cluster: Cluster;
  /** the queues' waiting lines for the lists' positions, kept a moment and dropped on any ticket change */
  waitingLines: WaitingLineLookup;
}

/** A waiting ticket's place in its queue's line, for a list's page (tickets/waiting-lines.ts). */
export interface WaitingLineLookup {
  positions(waiting: { id: number; queueId: number }[]): Promise<Map<number, number>>;
}

/** The signed-in user as the server sees it on each request. */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile: "admin" | "superv" | "user";
  queueIds: number[];
  /** the address of the request acting as this user (routes set it: `sessionUser(req)`); the audit log records it */
  ip?: string;
}

/** Resolves a token's user id and version to the current user (null when the version is stale or the user gone). */
export interface SessionLookup {
  get(id: number, tokenVersion: number): Promise<SessionUser | null>;
}
