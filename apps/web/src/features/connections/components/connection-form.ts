import { DEFAULT_DAILY_CAP, MSG, type Whatsapp, whatsappBody } from "@balcao/contract";
import type { UseFormReturn } from "react-hook-form";
import { z } from "zod";

/**
 * The form: the connection's fields (contract rules: name 2–50 …) and its bot settings. The API
 * token is not a field: it is write-only, made by 'Gerar novo token' and shown once.
 */
export const connectionForm = whatsappBody.omit({ token: true, channel: true }).extend({
  /** the Cloud API fields (checked by the server when the connection is a Cloud one); defaultTemplate as "name|language" */
  cloud: z
    .object({
      phoneNumberId: z.string().trim().max(30, MSG.tooLong),
      businessAccountId: z.string().trim().max(30, MSG.tooLong),
      accessToken: z.string().trim().max(1000, MSG.tooLong),
      appSecret: z.string().trim().max(200, MSG.tooLong),
      verifyToken: z.string().trim().max(200, MSG.tooLong),
      defaultTemplate: z.string(),
    })
    .optional(),
  dailyCap: z.coerce.number<string | number>().int().min(1).max(100_000).optional(),
  typebot: z.object({
    enabled: z.boolean(),
    baseUrl: z.string().trim().max(500, MSG.tooLong),
    slug: z.string().trim().max(200, MSG.tooLong),
    apiKey: z.string().max(500, MSG.tooLong),
    expiryMinutes: z.coerce.number<string | number>().int().min(0).max(2880),
    endKeyword: z.string().trim().max(100, MSG.tooLong),
    unknownMessage: z.string().max(1000, MSG.tooLong),
    delayMs: z.coerce.number<string | number>().int().min(0).max(10_000),
  }),
});
export type Values = z.input<typeof connectionForm>;
export type Output = z.output<typeof connectionForm>;
/** What each section of the dialog is given: the form (register, control, errors). */
export type ConnectionFormApi = UseFormReturn<Values, unknown, Output>;

/** The form's values for a stored connection, or the defaults of a new one. */
export const toValues = (w?: Whatsapp | null): Values => ({
  name: w?.name ?? "",
  type: w?.type ?? "baileys",
  isDefault: w?.isDefault ?? false,
  greetingMessage: w?.greetingMessage ?? "",
  farewellMessage: w?.farewellMessage ?? "",
  queueIds: w?.queues.map((q) => q.id) ?? [],
  acceptCalls: w?.acceptCalls ?? true,
  callRefuseMessage: w?.callRefuseMessage ?? "",
  selfService: w?.selfService ?? "off",
  backupWhatsappId: w?.backupWhatsappId ?? null,
  dailyCap: w?.dailyCap ?? DEFAULT_DAILY_CAP,
  warmupEnabled: w?.warmupEnabled ?? true,
  cloud: {
    phoneNumberId: w?.cloud?.phoneNumberId ?? "",
    businessAccountId: w?.cloud?.businessAccountId ?? "",
    accessToken: "",
    appSecret: "",
    verifyToken: w?.cloud?.verifyToken ?? newVerifyToken(),
    defaultTemplate: w?.cloud?.defaultTemplate ? `${w.cloud.defaultTemplate.name}|${w.cloud.defaultTemplate.language}` : "",
  },
  typebot: {
    enabled: w?.typebot.enabled ?? false,
    baseUrl: w?.typebot.baseUrl ?? "",
    slug: w?.typebot.slug ?? "",
    apiKey: "",
    expiryMinutes: w?.typebot.expiryMinutes ?? 30,
    endKeyword: w?.typebot.endKeyword ?? "",
    unknownMessage: w?.typebot.unknownMessage ?? "",
    delayMs: w?.typebot.delayMs ?? 1000,
  },
});

/** Bot settings are enabled without the URL or the slug they need (the submit stays disabled). */
export function typebotIncomplete(b: { enabled: boolean; baseUrl: string; slug: string }): boolean {
  return b.enabled && (!b.baseUrl.trim() || !b.slug.trim());
}

/** Whether the bot settings need a PUT: something differs from what is stored, or a new key was typed. */
export function typebotChanged(b: Output["typebot"], stored?: Whatsapp["typebot"]): boolean {
  if (b.apiKey) return true;
  const before = stored ?? { enabled: false, baseUrl: "", slug: "", expiryMinutes: 30, endKeyword: "", unknownMessage: "", delayMs: 1000 };
  return (
    b.enabled !== before.enabled ||
    b.baseUrl !== before.baseUrl ||
    b.slug !== before.slug ||
    b.expiryMinutes !== before.expiryMinutes ||
    b.endKeyword !== before.endKeyword ||
    b.unknownMessage !== before.unknownMessage ||
    b.delayMs !== before.delayMs
  );
}

/** A random verify token for Meta's webhook verification. */
export function newVerifyToken(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return `balcao-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The Cloud fields as POST/PUT /whatsapp takes them (secrets left blank are kept by the server). */
export function cloudBody(c: NonNullable<Output["cloud"]>) {
  const [name, language] = c.defaultTemplate.split("|");
  return {
    phoneNumberId: c.phoneNumberId,
    businessAccountId: c.businessAccountId,
    verifyToken: c.verifyToken,
    ...(c.accessToken && { accessToken: c.accessToken }),
    ...(c.appSecret && { appSecret: c.appSecret }),
    defaultTemplate: name && language ? { name, language } : null,
  };
}
