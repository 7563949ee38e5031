import { z } from "zod";
import { healthSettingsFields } from "./health.js";
import { templateSendSchema } from "./cloud.js";
import { MESSAGE_BODY_MAX, PAGE_SIZE } from "./constants.js";
import {
  connectionStatusSchema,
  channelTypeSchema,
  contactSchema,
  messageSchema,
  profileSchema,
  queueSchema,
  quickAnswerSchema,
  ticketSchema,
  ticketStatusSchema,
  userSchema,
  whatsappSchema,
  typebotSettingsSchema,
  chatEntrySchema,
  audioEntrySchema,
  selfServiceModeSchema,
} from "./entities.js";
import { jsonBool, MAX_ID, MSG, emailField, idSchema, idText, pageQuery, queryBool, requiredText } from "./validation.js";

// ---------- auth (core §4, §7) ----------
export const loginBody = z.object({
  email: emailField,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(200, MSG.tooLong),
});
export type LoginBody = z.infer<typeof loginBody>;

export const authAnswer = z.object({ token: z.string(), user: userSchema });
export type AuthAnswer = z.infer<typeof authAnswer>;

export const passwordField = z.string({ error: MSG.required }).min(5, MSG.tooShort).max(50, MSG.tooLong);

export const signupBody = z.object({
  name: requiredText(2, 50),
  email: emailField,
  password: passwordField,
});
export type SignupBody = z.infer<typeof signupBody>;

// ---------- users ----------
export const userCreateBody = z.object({
  name: requiredText(2, 50),
  email: emailField,
  password: passwordField,
  profile: profileSchema.default("user"),
  queueIds: z.array(idSchema).max(500).default([]),
});
export type UserCreateBody = z.input<typeof userCreateBody>;

export const userUpdateBody = z.object({
  name: requiredText(2, 50).optional(),
  email: emailField.optional(),
  /** Empty keeps the current password. */
  password: z.union([z.literal(""), passwordField]).optional(),
  /** Required to change one's own password. */
  currentPassword: z.string().max(200, MSG.tooLong).optional(),
  profile: profileSchema.optional(),
  queueIds: z.array(idSchema).max(500).optional(),
});
export type UserUpdateBody = z.input<typeof userUpdateBody>;

export const usersQuery = z.object({
  searchParam: z.string().trim().max(100).default(""),
  ...pageQuery(PAGE_SIZE.users.max, PAGE_SIZE.users.default),
});
export const usersAnswer = z.object({ users: z.array(userSchema), count: z.number(), hasMore: z.boolean() });
export type UsersAnswer = z.infer<typeof usersAnswer>;

// ---------- queues ----------
const queueFields = z.object({
  name: requiredText(2, 50, MSG.obrigatorio),
  color: requiredText(3, 9, MSG.obrigatorio),
  greetingMessage: z.string().max(30000, MSG.tooLong),
  positionNotice: z.object({ enabled: z.boolean(), everyMinutes: z.number().int().min(1).max(1440) }).optional(),
});
export const queueBody = queueFields.extend({ greetingMessage: queueFields.shape.greetingMessage.default("") });
export type QueueBody = z.input<typeof queueBody>;
/** Updates change only what is sent. */
export const queueUpdateBody = queueFields.partial();
export const queuesAnswer = z.array(queueSchema);

// ---------- contacts ----------
/** Digits only, country code 55 added when missing (numbers of 10 or 11 digits are Brazilian). */
export function normalizeNumber(raw: string, countryCode = "55"): string {
  const digits = raw.replace(/\D/g, "");
  if (digits.length === 10 || digits.length === 11) return countryCode + digits;
  return digits;
}

export const contactNumberField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .min(8, MSG.tooShort)
  .max(50, MSG.tooLong)
  .refine((v) => v === "" || /^[\d\s()+\-.]+$/.test(v), MSG.invalidNumber)
  .transform((v) => normalizeNumber(v))
  .refine((v) => v.length >= 8 && v.length <= 20, MSG.invalidNumber);

export const extraInfoInput = z.object({
  name: z.string().trim().min(1, MSG.required).max(100, MSG.tooLong),
  value: z.string().trim().max(1000, MSG.tooLong),
});

const contactFields = z.object({
  name: requiredText(2, 50),
  number: contactNumberField,
  email: z.union([z.literal(""), z.string().trim().toLowerCase().pipe(z.email(MSG.invalidEmail))]),
  extraInfo: z.array(extraInfoInput).max(50),
  tagIds: z.array(idSchema).max(50),
});
export const contactBody = contactFields.extend({
  email: contactFields.shape.email.default(""),
  extraInfo: contactFields.shape.extraInfo.default([]),
  tagIds: contactFields.shape.tagIds.default([]),
});
export type ContactBody = z.input<typeof contactBody>;
export const contactUpdateBody = contactFields.partial();
export type ContactUpdateBody = z.input<typeof contactUpdateBody>;

export const contactsQuery = z.object({
  searchParam: z.string().trim().max(100).default(""),
  ...pageQuery(PAGE_SIZE.contacts.max, PAGE_SIZE.contacts.default),
});
/**
 * GET /contacts counts matches up to this many: below it `count` is exact, at it `count` means
 * "this many or more" (a search typed letter by letter does not count thousands of rows each time).
 * Five pages of the list: past that the figure does not change what an agent does (they type more),
 * and counting to 1 000 was most of PostgreSQL's work on each keystroke of a two-letter search
 * (about 1 ms of its 1.4 on the side-by-side data, by EXPLAIN ANALYZE; 0.2 ms to 200).
 */
export const CONTACTS_COUNT_CAP = 200;
export const contactsAnswer = z.object({ contacts: z.array(contactSchema), count: z.number(), hasMore: z.boolean() });
export type ContactsAnswer = z.infer<typeof contactsAnswer>;

/** GET /contacts/:id/audit: audited changes (a number change: who, from, to), newest first. */
export const contactAuditAnswer = z.array(
  z.object({
    id: z.number(),
    field: z.string(),
    oldValue: z.string().nullable(),
    newValue: z.string().nullable(),
    user: z.object({ id: z.number().nullable(), name: z.string() }).nullable(),
    createdAt: z.string(),
  }),
);
export type ContactAuditAnswer = z.infer<typeof contactAuditAnswer>;

export const importRowResult = z.object({
  row: z.number(),
  status: z.enum(["created", "updated", "skipped", "error"]),
  name: z.string(),
  number: z.string(),
  error: z.string().optional(),
  contactId: z.number().optional(),
});
export const importAnswer = z.object({
  total: z.number(),
  created: z.number(),
  updated: z.number(),
  skipped: z.number(),
  errors: z.number(),
  rows: z.array(importRowResult),
});
export type ImportAnswer = z.infer<typeof importAnswer>;

// ---------- quick answers ----------
export const quickAnswerBody = z.object({
  shortcut: requiredText(2, 100),
  message: requiredText(8, 30000),
});
export type QuickAnswerBody = z.input<typeof quickAnswerBody>;
export const quickAnswersQuery = z.object({
  searchParam: z.string().trim().max(100).default(""),
  ...pageQuery(PAGE_SIZE.quickAnswers.max, PAGE_SIZE.quickAnswers.default),
});
export const quickAnswersAnswer = z.object({ quickAnswers: z.array(quickAnswerSchema), count: z.number(), hasMore: z.boolean() });
export type QuickAnswersAnswer = z.infer<typeof quickAnswersAnswer>;

// ---------- settings ----------
export const settingUpdateBody = z.object({
  value: z.string().max(100_000, MSG.tooLong),
  /** an address's secret typed again with it (SECRET_ADDRESS_GROUPS): saved in the same change */
  secret: z.string().max(10_000, MSG.tooLong).optional(),
});
/** POST /settings/unlock: the settings password ('Acesso restrito'). */
export const settingsUnlockBody = z.object({ password: z.string().min(1).max(200) });
/** The gate's answer: a short-lived token for this admin, sent back as the X-Settings-Token header. */
export const settingsUnlockAnswer = z.object({ ok: z.boolean(), settingsToken: z.string(), expiresInSeconds: z.number() });
export type SettingsUnlockAnswer = z.infer<typeof settingsUnlockAnswer>;
/** The header that carries the settings token. */
export const SETTINGS_TOKEN_HEADER = "x-settings-token";
/** POST /upload/{key}: which image of the branding the file replaces (field `file`). */
export const BRANDING_UPLOAD_KEYS = {
  login: "logoLogin",
  dashboard: "logoDashboard",
  mensagem: "logoMensagem",
  favicon: "favicon",
} as const;
export type BrandingUploadKey = keyof typeof BRANDING_UPLOAD_KEYS;
/** POST /upload/{key} and POST /email/upload answer where the stored image is served. */
export const uploadAnswer = z.object({ url: z.string() });
export type UploadAnswer = z.infer<typeof uploadAnswer>;
/** POST /settings/userApiToken: a new token, shown once (only its hash is kept). */
export const apiTokenAnswer = z.object({ token: z.string() });
/**
 * POST /email/test: to whom (default: the admin asking), and the e-mail settings as the form holds
 * them (absent or blank: the saved ones). The saved password is only ever sent to the saved server
 * (host, port and security): another server needs the password typed.
 */
export const mailTestBody = z.object({
  to: z.email().max(200).optional(),
  mail_host: z.string().trim().max(255).optional(),
  mail_port: z
    .string()
    .trim()
    .regex(/^\d{0,5}$/, "Must be a port between 1 and 65535")
    .refine((v) => v === "" || (Number(v) >= 1 && Number(v) <= 65535), "Must be a port between 1 and 65535")
    .optional(),
  mail_username: z.string().trim().max(255).optional(),
  mail_password: z.string().max(500).optional(),
  mail_smtp_secure: z.enum(["", "none", "ssl", "tls"]).optional(),
  mail_dominio_erp: z.string().trim().max(255).optional(),
});
export type MailTestBody = z.infer<typeof mailTestBody>;
/**
 * What the SMTP server answered (ok) or, not ok, what failed and what to check in Portuguese;
 * `technical`: the server's or socket's own words, shown second.
 */
export const mailTestAnswer = z.object({ ok: z.boolean(), message: z.string(), technical: z.string().optional() });
export type MailTestAnswer = z.infer<typeof mailTestAnswer>;

// ---------- tags ----------
export const tagBody = z.object({ name: requiredText(1, 50), color: requiredText(3, 9) });

// ---------- tickets ----------
export const ticketsQuery = z.object({
  searchParam: z.string().trim().max(100).default(""),
  ...pageQuery(PAGE_SIZE.tickets.max, PAGE_SIZE.tickets.default),
  status: ticketStatusSchema.optional(),
  /** A day ("2026-11-23") or a date-time ("2026-11-23T00:06:20.919Z"): the local day it falls on in the product's zone. */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i)
    .optional(),
  showAll: queryBool.default(false),
  /** JSON array ("[1,2]") as the original client sends, or a comma list. */
  queueIds: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      try {
        const parsed = v.trim().startsWith("[") ? JSON.parse(v) : v.split(",");
        const ids = (parsed as unknown[]).map((x) => Number(x));
        if (ids.some((n) => !Number.isInteger(n) || n <= 0 || n > MAX_ID)) throw new Error();
        return ids;
      } catch {
        ctx.addIssue({ code: "custom", message: "Invalid queueIds" });
        return z.NEVER;
      }
    }),
  withUnreadMessages: queryBool.default(false),
  isGroup: queryBool.optional(),
  userId: idText.optional(),
  /** the tickets linked to an incident (issue 32 §1) */
  incidentId: idText.optional(),
});
export type TicketsQuery = z.input<typeof ticketsQuery>;
export const ticketsAnswer = z.object({ tickets: z.array(ticketSchema), count: z.number(), hasMore: z.boolean() });
export type TicketsAnswer = z.infer<typeof ticketsAnswer>;

export const ticketCreateBody = z.object({
  contactId: idSchema,
  queueId: idSchema.nullish(),
  userId: idSchema.nullish(),
  whatsappId: idSchema.nullish(),
  status: z.literal("open").default("open"),
});
export const ticketUpdateBody = z.object({
  status: ticketStatusSchema.optional(),
  userId: idSchema.nullable().optional(),
  queueId: idSchema.nullable().optional(),
  whatsappId: idSchema.optional(),
  transf: z.boolean().optional(),
});
export type TicketUpdateBody = z.input<typeof ticketUpdateBody>;

/** POST /tickets/:id/tags — adds one tag; PUT /tickets/:id/tags replaces them all. */
export const ticketTagBody = z.object({ tagId: idSchema });
export const ticketTagsBody = z.object({ tagIds: z.array(idSchema).max(50) });

// ---------- messages ----------
export const messagesQuery = z.object({
  ...pageQuery(PAGE_SIZE.messages.max, PAGE_SIZE.messages.default),
});
export const messagesAnswer = z.object({
  messages: z.array(messageSchema),
  ticket: ticketSchema.optional(),
  count: z.number(),
  hasMore: z.boolean(),
});
export type MessagesAnswer = z.infer<typeof messagesAnswer>;
/**
 * What the spec's client posts: `{ read, fromMe, mediaUrl, body, quotedMsg }`, with `read: 1` and
 * `quotedMsg: null` as the original client sends them; other fields are ignored. The text and the
 * quoted message's id stay strict.
 */
export const messageSendBody = z.object({
  body: z.string().max(MESSAGE_BODY_MAX, MSG.tooLong).default(""),
  quotedMsg: z.object({ id: idSchema }).passthrough().nullish(),
  fromMe: jsonBool.optional(),
  read: jsonBool.optional(),
  mediaUrl: z.string().max(2000).nullish(),
  /** an internal note: stored in the conversation, never sent (`@Name` mentions notify those users) */
  internal: jsonBool.optional(),
  /** a Cloud API template instead of free text (outside the customer's 24 h window); the body is then the rendered text */
  template: templateSendSchema.optional(),
});
export type MessageSendBody = z.input<typeof messageSendBody>;

/** POST /digitando/:ticketId and /digitando/stop/:ticketId; delivered is false when the connection is down. */
export const typingAnswer = z.object({ typing: z.boolean(), delivered: z.boolean() });

// ---------- connections ----------
/**
 * The Cloud API fields of a connection (POST/PUT /whatsapp with `channel: "cloud"`). On PUT a
 * blank or absent accessToken/appSecret keeps the stored one.
 */
export const cloudConnectionBody = z.object({
  phoneNumberId: z
    .string()
    .trim()
    .regex(/^\d{1,30}$/, MSG.invalidNumber),
  businessAccountId: z
    .string()
    .trim()
    .regex(/^\d{1,30}$/, MSG.invalidNumber),
  accessToken: z.string().trim().max(1000, MSG.tooLong).optional(),
  appSecret: z.string().trim().max(200, MSG.tooLong).optional(),
  verifyToken: z.string().trim().min(8, MSG.tooShort).max(200, MSG.tooLong),
  defaultTemplate: z
    .object({ name: z.string().trim().min(1).max(512), language: z.string().trim().min(2).max(15) })
    .nullable()
    .optional(),
});
export type CloudConnectionBody = z.input<typeof cloudConnectionBody>;

const whatsappFields = z.object({
  name: requiredText(2, 50),
  type: channelTypeSchema,
  isDefault: z.boolean(),
  acceptCalls: z.boolean(),
  callRefuseMessage: z.string().max(5000, MSG.tooLong),
  greetingMessage: z.string().max(30000, MSG.tooLong),
  farewellMessage: z.string().max(30000, MSG.tooLong),
  /** The message-API token; empty clears it. */
  token: z.string().trim().max(200, MSG.tooLong),
  queueIds: z.array(idSchema).max(500),
  /** The pace of the number's unsolicited sends (chats where the customer has not written in 24 h): at least this many ms between two… */
  sendIntervalMs: z.number().int().min(0).max(600_000),
  /** …plus a random 0 to this many ms… */
  sendJitterMs: z.number().int().min(0).max(600_000),
  /** …except a burst of this many sends after a quiet spell. */
  sendBurst: z.number().int().min(0).max(20),
  /** Replies in live conversations go at once; consecutive messages of one chat are at least this many ms apart. */
  replyGapMs: z.number().int().min(0).max(10_000),
  /** The billing self-service bot: before the queue menu, after it, or off. */
  selfService: selfServiceModeSchema,
  ...healthSettingsFields,
  /** the engine: "baileys" (QR code, the default) or "cloud" (Meta's Cloud API, with `cloud`); `type` says the same */
  channel: z.enum(["baileys", "cloud"]),
  cloud: cloudConnectionBody,
});
export const whatsappBody = whatsappFields.extend({
  type: whatsappFields.shape.type.default("baileys"),
  isDefault: whatsappFields.shape.isDefault.default(false),
  acceptCalls: whatsappFields.shape.acceptCalls.default(true),
  callRefuseMessage: whatsappFields.shape.callRefuseMessage.default(""),
  greetingMessage: whatsappFields.shape.greetingMessage.default(""),
  farewellMessage: whatsappFields.shape.farewellMessage.default(""),
  token: whatsappFields.shape.token.optional(),
  queueIds: whatsappFields.shape.queueIds.default([]),
  sendIntervalMs: whatsappFields.shape.sendIntervalMs.optional(),
  sendJitterMs: whatsappFields.shape.sendJitterMs.optional(),
  sendBurst: whatsappFields.shape.sendBurst.optional(),
  replyGapMs: whatsappFields.shape.replyGapMs.optional(),
  selfService: whatsappFields.shape.selfService.optional(),
  backupWhatsappId: whatsappFields.shape.backupWhatsappId.optional(),
  dailyCap: whatsappFields.shape.dailyCap.optional(),
  warmupEnabled: whatsappFields.shape.warmupEnabled.optional(),
  channel: whatsappFields.shape.channel.optional(),
  cloud: whatsappFields.shape.cloud.optional(),
});
export type WhatsappBody = z.input<typeof whatsappBody>;
export const whatsappUpdateBody = whatsappFields.partial();
export type WhatsappUpdateBody = z.input<typeof whatsappUpdateBody>;
export const whatsappsAnswer = z.array(whatsappSchema);
/** POST /whatsapp/:id/token ('Gerar novo token'): the new token, answered this once and never again. */
export const whatsappTokenAnswer = z.object({ token: z.string() });
export type WhatsappTokenAnswer = z.infer<typeof whatsappTokenAnswer>;
export const typebotSettingsBody = z
  .object({
    enabled: z.boolean(),
    baseUrl: z.string().trim().max(500).default(""),
    slug: z.string().trim().max(200).default(""),
    /** Sent only when filled; blank keeps the existing key. */
    apiKey: z.string().max(500).optional(),
    /** Minutes of silence after which the flow starts over (0: never). */
    expiryMinutes: z.number().int().min(0).max(2880).optional(),
    /** A customer message equal to it ends the bot (the queue menu follows). */
    endKeyword: z.string().trim().max(100).optional(),
    /** Sent when an answer matches none of a choice's items. */
    unknownMessage: z.string().max(1000).optional(),
    /** Pause before each bot message after the first, in ms. */
    delayMs: z.number().int().min(0).max(10_000).optional(),
  })
  .refine((v) => !v.enabled || (v.baseUrl.length > 0 && v.slug.length > 0), {
    message: MSG.required,
    path: ["baseUrl"],
  })
  .refine((v) => !v.enabled || /^https?:\/\/[^\s]+$/i.test(v.baseUrl), { message: "Invalid URL", path: ["baseUrl"] });
export type TypebotSettingsBody = z.input<typeof typebotSettingsBody>;
export const typebotSettingsAnswer = typebotSettingsSchema;
export type TypebotSettings = z.infer<typeof typebotSettingsSchema>;

/** A chat entry (/chatbot): the customer's message equal to the shortcut gets the text and image. */
export const chatEntryBody = z.object({
  shortcut: z.string().trim().min(1, MSG.required).max(100, MSG.tooLong),
  message: z.string().max(30000).default(""),
  url: z.string().trim().max(1000).default(""),
});
export type ChatEntryBody = z.input<typeof chatEntryBody>;
export const chatEntriesAnswer = z.array(chatEntrySchema);
/** An audio entry (/audiobot): a voice note agents and flows can send. */
export const audioEntryBody = z.object({
  titulo: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong),
  url: z.string().trim().max(1000).default(""),
});
export type AudioEntryBody = z.input<typeof audioEntryBody>;
export const audioEntriesAnswer = z.array(audioEntrySchema);
/** POST /chatbot/upload, POST /audiobot/upload */
export const botUploadAnswer = z.object({ ok: z.boolean(), url: z.string() });
export type BotUploadAnswer = z.infer<typeof botUploadAnswer>;
export const whatsappSessionPayload = z.object({
  id: z.number(),
  status: connectionStatusSchema,
  qrcode: z.string(),
  retries: z.number(),
  /** the linked phone's number; empty while none is linked */
  number: z.string(),
  updatedAt: z.string(),
});

export const colorsAnswer = z.object({
  loginPagePrimaryColor: z.string(),
  loginPageSecondaryColor: z.string(),
  topbarColor: z.string(),
  secondaryColor: z.string(),
  darkMode: z.string(),
  logoLogin: z.string(),
  logoDashboard: z.string(),
  favicon: z.string(),
  /** "enabled" when the login page may offer the signup link */
  userCreation: z.string(),
});
export type ColorsAnswer = z.infer<typeof colorsAnswer>;

export { queueSchema, contactSchema, userSchema, quickAnswerSchema, ticketSchema, messageSchema, whatsappSchema };
