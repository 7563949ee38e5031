import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";

export const queues = pgTable(
  "queues",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    greetingMessage: text("greeting_message").notNull().default(""),
    /** the waiting customer's position notice (issue 32 §2): off by default, at most once every N minutes per ticket */
    positionNoticeEnabled: boolean("position_notice_enabled").notNull().default(false),
    positionNoticeMinutes: integer("position_notice_minutes").notNull().default(10),
    ...timestamps,
  },
  (t) => [uniqueIndex("queues_color_key").on(sql`lower(${t.color})`), uniqueIndex("queues_name_key").on(sql`lower(${t.name})`)],
);
