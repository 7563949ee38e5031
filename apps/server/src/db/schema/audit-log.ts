import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.js";

/**
 * Changes worth answering for later: who changed what, from what, to what. Today a contact's
 * number (where a customer's replies go); other entities and fields can join without a new table.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    /** "contact" */
    entity: text("entity").notNull(),
    entityId: integer("entity_id").notNull(),
    /** "number" */
    field: text("field").notNull(),
    oldValue: text("old_value"),
    newValue: text("new_value"),
    /** the user who made the change; null once that user is deleted (actor_name stays) */
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_log_entity_idx").on(t.entity, t.entityId, t.createdAt)],
);
