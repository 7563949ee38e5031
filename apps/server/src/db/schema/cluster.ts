import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { whatsapps } from "./whatsapps.js";

/**
 * What several server processes share when there is no Redis (`lib/cluster/`): limit counters,
 * upload slots, who is online on each process, and event payloads too large for a NOTIFY.
 * Unused by the embedded default (one process keeps these in memory).
 */

/** A counter per key with its window's end (rate limits, login failures); upserted, expired rows swept. */
export const clusterCounters = pgTable(
  "cluster_counters",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("cluster_counters_expires_idx").on(t.expiresAt)],
);

/** One held slot (an upload being received); a crashed process's slots end with their expiry. */
export const clusterSlots = pgTable(
  "cluster_slots",
  {
    key: text("key").notNull(),
    token: text("token").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.token] })],
);

/** The users with a live socket on one process, renewed every few seconds. */
export const clusterPresence = pgTable("cluster_presence", {
  processId: text("process_id").primaryKey(),
  userIds: jsonb("user_ids").notNull().default([]),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** A domain event too large for NOTIFY's 8000 bytes: the NOTIFY carries its id; swept after a minute. */
export const clusterEvents = pgTable(
  "cluster_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    payload: text("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("cluster_events_created_idx").on(t.createdAt)],
);

/**
 * Several server processes on one PostgreSQL (lib/cluster/ownership.ts): each WhatsApp
 * session is owned by one process through a lease renewed every few seconds; a lease past its
 * expiry (its owner died) is taken by another process, which starts the session from the auth
 * state in the database. The embedded mode (PGlite, one process) keeps no rows here.
 */
export const sessionLeases = pgTable("session_leases", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: "cascade" }),
  /** "<node>:<pid>:<random>" of the owning process */
  owner: text("owner").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  acquiredAt: timestamp("acquired_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The live server processes (a heartbeat with the lease renewal): how many share the sessions. */
export const clusterProcesses = pgTable("cluster_processes", {
  id: text("id").primaryKey(),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Calls to a session's owner from another process (a number check, the phone's contacts, the
 * simulator's customer side): the caller writes the row and NOTIFYs the owner, the owner writes
 * the answer and NOTIFYs the caller, which reads and deletes the row.
 */
export const ownerCalls = pgTable("owner_calls", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  /** the process asked */
  owner: text("owner").notNull(),
  /** the process waiting for the answer */
  caller: text("caller").notNull(),
  method: text("method").notNull(),
  args: jsonb("args").notNull(),
  result: jsonb("result"),
  /** { code?, message } when the call failed at the owner */
  error: jsonb("error"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp("done_at", { withTimezone: true }),
});
