import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, index } from "drizzle-orm/pg-core";
import { timestamps } from "./common.js";
import { queues } from "./queues.js";

export const whatsapps = pgTable(
  "whatsapps",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    type: text("type", { enum: ["baileys", "simulator", "cloud"] })
      .notNull()
      .default("baileys"),
    status: text("status", { enum: ["DISCONNECTED", "OPENING", "qrcode", "CONNECTED", "PAIRING", "TIMEOUT"] })
      .notNull()
      .default("DISCONNECTED"),
    qrcode: text("qrcode").notNull().default(""),
    retries: integer("retries").notNull().default(0),
    /** The paired phone number, once known. */
    number: text("number").notNull().default(""),
    disconnectReason: text("disconnect_reason").notNull().default(""),
    isDefault: boolean("is_default").notNull().default(false),
    acceptCalls: boolean("accept_calls").notNull().default(true),
    callRefuseMessage: text("call_refuse_message").notNull().default(""),
    greetingMessage: text("greeting_message").notNull().default(""),
    farewellMessage: text("farewell_message").notNull().default(""),
    /** Token of the message-sending API for this connection. */
    token: text("token"),
    /**
     * The pace of the number's unsolicited sends (to chats where the customer has not written in 24 h): at least
     * this long between two, plus a random jitter, with a small burst allowance after quiet. Replies do not wait for it.
     */
    sendIntervalMs: integer("send_interval_ms").notNull().default(1000),
    sendJitterMs: integer("send_jitter_ms").notNull().default(1500),
    sendBurst: integer("send_burst").notNull().default(3),
    /** A reply in a live conversation goes at once; consecutive messages of one chat are this far apart (a typing gap). */
    replyGapMs: integer("reply_gap_ms").notNull().default(300),
    typebotEnabled: boolean("typebot_enabled").notNull().default(false),
    typebotBaseUrl: text("typebot_base_url").notNull().default(""),
    typebotSlug: text("typebot_slug").notNull().default(""),
    typebotApiKey: text("typebot_api_key").notNull().default(""),
    /** minutes of silence after which a flow starts over (0: never) */
    typebotExpiryMinutes: integer("typebot_expiry_minutes").notNull().default(30),
    /** a customer message equal to it ends the bot (the queue menu follows) */
    typebotEndKeyword: text("typebot_end_keyword").notNull().default(""),
    /** sent when an answer matches none of a choice's items */
    typebotUnknownMessage: text("typebot_unknown_message").notNull().default(""),
    /** pause before each bot message after the first */
    typebotDelayMs: integer("typebot_delay_ms").notNull().default(1000),
    /** the billing self-service bot (2ª via, PIX, desbloqueio): off, before the queue menu, or after a queue is picked */
    selfService: text("self_service", { enum: ["off", "before", "after"] })
      .notNull()
      .default("off"),
    /** WhatsApp Cloud API (type "cloud"): the number's id, its business account, the secrets (write-only) and the webhook's verify token */
    cloudPhoneNumberId: text("cloud_phone_number_id"),
    cloudBusinessAccountId: text("cloud_business_account_id").notNull().default(""),
    cloudAccessToken: text("cloud_access_token").notNull().default(""),
    cloudAppSecret: text("cloud_app_secret").notNull().default(""),
    cloudVerifyToken: text("cloud_verify_token").notNull().default(""),
    /** the template automatic sends use outside the customer's 24 h window: { name, language } */
    cloudDefaultTemplate: jsonb("cloud_default_template").$type<{ name: string; language: string } | null>(),
    /** Meta's messaging tier of the number (business-initiated conversations per 24 h), learned from GET /{phone-number-id} */
    cloudTierLimit: integer("cloud_tier_limit"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("whatsapps_name_key").on(sql`lower(${t.name})`),
    uniqueIndex("whatsapps_token_key").on(t.token),
    /** one connection per Cloud API number: the webhook finds it by phone_number_id */
    uniqueIndex("whatsapps_cloud_phone_key").on(t.cloudPhoneNumberId),
    /** At most one default connection. */
    uniqueIndex("whatsapps_one_default").on(t.isDefault).where(sql`${t.isDefault}`),
  ],
);

export const whatsappQueues = pgTable(
  "whatsapp_queues",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index("whatsapp_queues_queue_idx").on(t.queueId)],
);

/** Baileys auth state (credentials and signal keys), one row per key, per connection. */
export const whatsappAuthKeys = pgTable(
  "whatsapp_auth_keys",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    /** "creds" or "<type>:<id>" for signal keys. */
    key: text("key").notNull(),
    value: text("value").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.key] })],
);
