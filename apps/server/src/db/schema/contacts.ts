import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";

export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** Digits with country code; null for a contact only known by its WhatsApp LID. */
    number: text("number"),
    /** WhatsApp LID (the privacy id, "<digits>@lid" without the suffix). */
    lid: text("lid"),
    email: text("email").notNull().default(""),
    profilePicUrl: text("profile_pic_url").notNull().default(""),
    isGroup: boolean("is_group").notNull().default(false),
    /** LGPD erasure (POST /contacts/{id}/erase): personal data anonymised at this time; null otherwise */
    erasedAt: timestamp("erased_at", { withTimezone: true }),
    /**
     * What a contact search compares: the name and the e-mail, lower-cased once when the row is
     * written (a newline between them, which a search term never holds), so a search does not
     * lower thousands of names per keystroke.
     */
    search: text("search").generatedAlwaysAs(sql`lower(name) || chr(10) || lower(email)`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("contacts_number_key").on(t.number),
    uniqueIndex("contacts_lid_key").on(t.lid),
    index("contacts_name_idx").on(sql`lower(${t.name})`, t.id),
    index("contacts_name_trgm").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    index("contacts_search_trgm").using("gin", sql`${t.search} gin_trgm_ops`),
    index("contacts_number_trgm").using("gin", sql`${t.number} gin_trgm_ops`),
  ],
);

export const contactExtraInfo = pgTable(
  "contact_extra_info",
  {
    id: serial("id").primaryKey(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: text("value").notNull().default(""),
  },
  (t) => [index("contact_extra_info_contact_idx").on(t.contactId)],
);

export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("tags_name_key").on(sql`lower(${t.name})`)],
);

export const contactTags = pgTable(
  "contact_tags",
  {
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index("contact_tags_tag_idx").on(t.tagId)],
);
