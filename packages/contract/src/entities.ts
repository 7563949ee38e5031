import { z } from "zod";

export const PROFILES = ["admin", "superv", "user"] as const;
export const profileSchema = z.enum(PROFILES);
export type Profile = z.infer<typeof profileSchema>;

export const TICKET_STATUSES = ["pending", "open", "closed"] as const;
export const ticketStatusSchema = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

export const MEDIA_TYPES = ["chat", "image", "audio", "video", "document", "sticker", "location", "vcard", "call_log", "other"] as const;
export const mediaTypeSchema = z.enum(MEDIA_TYPES);
export type MediaType = z.infer<typeof mediaTypeSchema>;

export const CONNECTION_STATUSES = ["DISCONNECTED", "OPENING", "qrcode", "CONNECTED", "PAIRING", "TIMEOUT"] as const;
export const connectionStatusSchema = z.enum(CONNECTION_STATUSES);
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;
/**
 * A connection's status as a Brazilian user reads it: the web's connection cards (its pt-BR texts)
 * and the simulator page's badges (a page of the server's own, in Portuguese only) say these words.
 */
export const CONNECTION_STATUS_LABELS_PT: Record<ConnectionStatus, string> = {
  DISCONNECTED: "Desconectado",
  OPENING: "Conectando",
  qrcode: "Aguardando QR Code",
  CONNECTED: "Conectado",
  PAIRING: "Pareando",
  TIMEOUT: "Tempo esgotado",
};

export const CHANNEL_TYPES = ["baileys", "simulator", "cloud"] as const;
export const channelTypeSchema = z.enum(CHANNEL_TYPES);
export type ChannelType = z.infer<typeof channelTypeSchema>;

const isoDate = z.string();

export const queueSummarySchema = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type QueueSummary = z.infer<typeof queueSummarySchema>;

export const queueSchema = queueSummarySchema.extend({
  greetingMessage: z.string(),
  /** the waiting customer's position notice (issue 32 §2): off by default */
  positionNotice: z.object({ enabled: z.boolean(), everyMinutes: z.number() }).optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Queue = z.infer<typeof queueSchema>;

export const userSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileSchema,
  queues: z.array(queueSummarySchema),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type User = z.infer<typeof userSchema>;

export const tagSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type Tag = z.infer<typeof tagSchema>;

export const extraInfoSchema = z.object({ id: z.number().optional(), name: z.string(), value: z.string() });
export type ExtraInfo = z.infer<typeof extraInfoSchema>;

export const contactSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  lid: z.string().nullable(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  /** set once the contact's personal data was erased (LGPD, POST /contacts/{id}/erase) */
  erasedAt: isoDate.nullable().optional(),
  extraInfo: z.array(extraInfoSchema),
  tags: z.array(tagSchema),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Contact = z.infer<typeof contactSchema>;

export const quickAnswerSchema = z.object({
  id: z.number(),
  shortcut: z.string(),
  message: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type QuickAnswer = z.infer<typeof quickAnswerSchema>;

/** A setting; for write-only secrets the value is "" and `hasValue` says whether one is stored. */
export const settingSchema = z.object({ key: z.string(), value: z.string(), hasValue: z.boolean().optional() });
export type Setting = z.infer<typeof settingSchema>;

/** A connection's Typebot bridge; the API key is never answered (hasApiKey says whether one is set). */
export const typebotSettingsSchema = z.object({
  enabled: z.boolean(),
  baseUrl: z.string(),
  slug: z.string(),
  hasApiKey: z.boolean(),
  expiryMinutes: z.number(),
  endKeyword: z.string(),
  unknownMessage: z.string(),
  delayMs: z.number(),
});

export const chatEntrySchema = z.object({
  id: z.number(),
  shortcut: z.string(),
  message: z.string(),
  url: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type ChatEntry = z.infer<typeof chatEntrySchema>;

export const audioEntrySchema = z.object({
  id: z.number(),
  titulo: z.string(),
  url: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type AudioEntry = z.infer<typeof audioEntrySchema>;

/**
 * Where a connection's self-service bot (2ª via, PIX, desbloqueio, status, falar com atendente) runs:
 * "before": a new ticket without queue goes into self-service first, its hand-over shows the
 * greeting and queue menu (or assigns the single queue); "after": once the customer picked a queue
 * (queue, no agent yet), self-service runs, its hand-over leaves the ticket pending in that queue.
 */
export const selfServiceModeSchema = z.enum(["off", "before", "after"]);
export type SelfServiceMode = z.infer<typeof selfServiceModeSchema>;

/**
 * A Cloud API connection's settings as answered: the access token and the app secret are
 * write-only (hasAccessToken, hasAppSecret); the Cloud limits learned from the number (tier).
 */
export const cloudSettingsSchema = z.object({
  phoneNumberId: z.string(),
  businessAccountId: z.string(),
  verifyToken: z.string(),
  hasAccessToken: z.boolean(),
  hasAppSecret: z.boolean(),
  /** the template sent outside the customer's 24 h window by disparos, schedules, the message API and auto-replies */
  defaultTemplate: z.object({ name: z.string(), language: z.string() }).nullable(),
  /** Meta's messaging tier (business-initiated conversations per 24 h), as the number answered; null until known */
  tierLimit: z.number().nullable(),
  /** the URL to paste into Meta's panel (this server's webhook) */
  webhookPath: z.string(),
});
export type CloudSettings = z.infer<typeof cloudSettingsSchema>;

export const whatsappSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: channelTypeSchema,
  status: connectionStatusSchema,
  qrcode: z.string(),
  retries: z.number(),
  number: z.string(),
  disconnectReason: z.string(),
  isDefault: z.boolean(),
  acceptCalls: z.boolean(),
  callRefuseMessage: z.string(),
  greetingMessage: z.string(),
  farewellMessage: z.string(),
  /** Whether the connection has a message-API token. The token itself is write-only: it is shown once, by 'Gerar novo token'. */
  hasToken: z.boolean(),
  queues: z.array(queueSummarySchema),
  /** the pace of the number's unsolicited sends: interval and jitter in ms, burst allowance */
  sendIntervalMs: z.number(),
  sendJitterMs: z.number(),
  sendBurst: z.number(),
  /** the typing gap between consecutive messages of one chat, in ms (replies do not wait for the pace) */
  replyGapMs: z.number(),
  typebot: typebotSettingsSchema,
  /** the billing self-service bot: "before" the queue menu, "after" a queue is picked, or "off" */
  selfService: selfServiceModeSchema,
  /** the Cloud API settings of a `type: "cloud"` connection (null for the others) */
  cloud: cloudSettingsSchema.nullable().optional(),
  /** number health: the backup connection of its unsolicited sends, their daily cap, the warm-up, the QR pairing date */
  backupWhatsappId: z.number().nullable(),
  dailyCap: z.number(),
  /** today's cap: `dailyCap`, reduced by the warm-up while it lasts (the figure the health panel and the disparos card show) */
  dailyCapToday: z.number(),
  /** the warm-up's day (1 = the pairing day) while it lasts; null when warmed up, off, never paired by QR code, or a simulator */
  warmupDay: z.number().nullable(),
  warmupEnabled: z.boolean(),
  pairedAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Whatsapp = z.infer<typeof whatsappSchema>;

export const ticketSchema = z.object({
  id: z.number(),
  status: ticketStatusSchema,
  lastMessage: z.string(),
  /** The message the preview shows could not be sent. */
  lastMessageFailed: z.boolean(),
  unreadMessages: z.number(),
  isGroup: z.boolean(),
  transf: z.boolean(),
  contactId: z.number(),
  contact: contactSchema.pick({ id: true, name: true, number: true, lid: true, email: true, profilePicUrl: true, isGroup: true }),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queueId: z.number().nullable(),
  queue: queueSummarySchema.nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  tags: z.array(tagSchema),
  createdAt: isoDate,
  updatedAt: isoDate,
  /** in the tickets list: a waiting ticket's place in its queue (1 = next), null otherwise */
  queuePosition: z.number().nullable().optional(),
  /** in the tickets list: the incidents the ticket is linked to */
  incidentIds: z.array(z.number()).optional(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const quotedMessageSchema = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: mediaTypeSchema,
  mediaUrl: z.string().nullable(),
  isDeleted: z.boolean(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
});

/** Who wrote a message: the customer, an agent, the connection's automatic texts and bots, the paired phone itself, a schedule, the API, a disparo. */
/** `note`: an internal note of an agent (never sent; `internal: true`). */
export const messageSourceSchema = z.enum(["customer", "agent", "bot", "phone", "schedule", "api", "disparo", "note"]);
export type MessageSource = z.infer<typeof messageSourceSchema>;

export const messageSchema = z.object({
  id: z.number(),
  wid: z.string().nullable(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  ack: z.number().int().min(0).max(4),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  mediaType: mediaTypeSchema,
  mediaUrl: z.string().nullable(),
  mimetype: z.string().nullable(),
  fileName: z.string().nullable(),
  ticketId: z.number(),
  contactId: z.number().nullable(),
  contact: z.object({ id: z.number(), name: z.string(), profilePicUrl: z.string() }).nullable(),
  quotedMsgId: z.number().nullable(),
  quotedMsg: quotedMessageSchema.nullable(),
  source: messageSourceSchema,
  /** The agent who wrote it (agent messages and schedules). */
  userId: z.number().nullable(),
  /** Why an outgoing message could not be sent: it shows an error mark and 'Reenviar'. Null otherwise (ack 0 is the clock while it waits). */
  sendError: z.string().nullable(),
  /** A customer's voice note as text (AI transcription, shown with 'transcrição automática'); null until there is one. */
  transcription: z.string().nullable().optional(),
  /** An internal note (source `note`): shown to whoever may see the ticket, never sent to the customer. */
  internal: z.boolean().optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Message = z.infer<typeof messageSchema>;
