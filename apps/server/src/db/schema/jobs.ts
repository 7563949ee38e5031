import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The one job runner's queue: background work (auto-close, schedules, disparos, mail, PDFs, bot
 * and billing-system calls). Rows are claimed with FOR UPDATE SKIP LOCKED and a lease; a failed
 * attempt is retried with backoff until `max_attempts`, then the row is dead with its last error.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    payload: jsonb("payload").notNull().default({}),
    state: text("state", { enum: ["queued", "running", "done", "dead"] })
      .notNull()
      .default("queued"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    /** at most one queued or running job per key (recurring jobs, one job per schedule, ...) */
    singletonKey: text("singleton_key"),
    /** the process running it (several server processes: start-up re-queues only the runs of dead ones) */
    lockedBy: text("locked_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt, t.id).where(sql`${t.state} in ('queued','running')`),
    uniqueIndex("jobs_singleton_key").on(t.singletonKey).where(sql`${t.state} in ('queued','running')`),
    index("jobs_state_idx").on(t.state, t.updatedAt),
  ],
);
