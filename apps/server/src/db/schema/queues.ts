import { sql } from "drizzle-orm";
import { pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";

export const queues = pgTable(
  "queues",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    greetingMessage: text("greeting_message").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("queues_color_key").on(sql`lower(${t.color})`), uniqueIndex("queues_name_key").on(sql`lower(${t.name})`)],
);
