import { sql } from "drizzle-orm";
import { index, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";

export const quickAnswers = pgTable(
  "quick_answers",
  {
    id: serial("id").primaryKey(),
    shortcut: text("shortcut").notNull(),
    message: text("message").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("quick_answers_shortcut_key").on(sql`lower(${t.shortcut})`),
    index("quick_answers_shortcut_trgm").using("gin", sql`lower(${t.shortcut}) gin_trgm_ops`),
  ],
);
