import { bigserial, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { whatsapps } from "./whatsapps.js";

/**
 * Several server processes on one PostgreSQL (modules/connections/ownership.ts): each WhatsApp
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
