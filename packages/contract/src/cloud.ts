import { z } from "zod";

/**
 * WhatsApp Cloud API (Meta) shapes beside the connection's own (`cloud` on POST/PUT /whatsapp):
 * the approved templates, a template send, and a chat's 24-hour customer-service window.
 */

/** Where Meta posts: the one webhook of every Cloud connection, relative to the public address (GET /settings/public-url builds the URL). */
export const CLOUD_WEBHOOK_PATH = "/webhooks/whatsapp";

/** A message template of the connection's WhatsApp Business Account (GET /whatsapp/:id/templates). */
export const cloudTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  category: z.string(),
  status: z.string(),
  /** the body text with its {{1}}, {{2}}… placeholders */
  body: z.string(),
  /** how many body variables it takes */
  variables: z.number(),
});
export type CloudTemplate = z.infer<typeof cloudTemplateSchema>;

export const cloudTemplatesAnswer = z.object({
  /** the APPROVED templates only */
  templates: z.array(cloudTemplateSchema),
  /** when Meta was last asked (the list is cached) */
  fetchedAt: z.string(),
});
export type CloudTemplatesAnswer = z.infer<typeof cloudTemplatesAnswer>;

/** A template to send: its name, language and the body's variables in order. */
export const templateSendSchema = z.object({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(15),
  variables: z.array(z.string().max(1024)).max(20).default([]),
});
export type TemplateSend = z.input<typeof templateSendSchema>;

/** GET /tickets/:id/window — whether free-form messages may go to this chat now. */
export const chatWindowAnswer = z.object({
  /** "cloud" connections have the 24 h window; the others are always open */
  channel: z.string(),
  open: z.boolean(),
  /** when the window closes (open) or closed (closed); null when the customer never wrote */
  closesAt: z.string().nullable(),
});
export type ChatWindowAnswer = z.infer<typeof chatWindowAnswer>;

/** Fills a template body's {{n}} placeholders (missing ones stay as written). */
export function renderTemplate(body: string, variables: string[]): string {
  return body.replace(/\{\{(\d+)\}\}/g, (all, n: string) => variables[Number(n) - 1] ?? all);
}

/** The number of distinct {{n}} variables of a template body. */
export function templateVariableCount(body: string): number {
  const ns = new Set([...body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])));
  return ns.size ? Math.max(...ns) : 0;
}
