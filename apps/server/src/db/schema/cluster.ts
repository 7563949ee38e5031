import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

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
