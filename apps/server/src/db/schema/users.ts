import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";
import { queues } from "./queues.js";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    profile: text("profile", { enum: ["admin", "superv", "user"] })
      .notNull()
      .default("user"),
    /** Bumped on password change or deletion: refresh tokens of older versions stop working. */
    tokenVersion: integer("token_version").notNull().default(0),
    /** "Meu perfil": the interface's language kept on the account, applied at sign-in (null: never chosen) */
    language: text("language", { enum: ["pt-BR", "en", "es"] }),
    /** "Meu perfil": the user's own theme over the installation's (darkMode); "default" follows it */
    theme: text("theme", { enum: ["default", "light", "dark"] })
      .notNull()
      .default("default"),
    /** "Meu perfil": the chime of new messages and mentions */
    notificationSound: boolean("notification_sound").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    index("users_name_trgm").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
  ],
);

export const userQueues = pgTable(
  "user_queues",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index("user_queues_queue_idx").on(t.queueId)],
);

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    /** sha256 of the opaque token the cookie holds. */
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** All tokens rotated from one login share a family; reuse of a rotated token revokes the family. */
    family: text("family").notNull(),
    tokenVersion: integer("token_version").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("refresh_tokens_user_idx").on(t.userId), index("refresh_tokens_family_idx").on(t.family)],
);
