import { z } from "zod";

/**
 * Outage mode (issue 32 §1) and the queue position notice (§2): the shapes of the incidents'
 * routes, their socket event, and the Portuguese texts customers get (verbatim, filled by
 * `fillIncidentText`).
 */

export const INCIDENT_STATUSES = ["open", "closed"] as const;
export const incidentStatusSchema = z.enum(INCIDENT_STATUSES);
export type IncidentStatus = z.infer<typeof incidentStatusSchema>;

export const incidentSchema = z.object({
  id: z.number(),
  title: z.string(),
  /** what a customer who writes while it is open gets, once */
  message: z.string(),
  /** affected area, free text ("Centro e Jardim América") */
  area: z.string(),
  /** optional tags or cities */
  tags: z.array(z.string()),
  expectedAt: z.string().nullable(),
  status: incidentStatusSchema,
  /** the "normalizado" notice sent at the close ("" while open) */
  closeMessage: z.string(),
  createdBy: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  /** tickets linked to it */
  ticketCount: z.number(),
  /** customers who wrote while it was open (each got the notice once) */
  contactCount: z.number(),
  /** "normalizado" notices queued / sent / skipped (opt-out) after the close */
  normalized: z.object({ pending: z.number(), sent: z.number(), skipped: z.number() }),
});
export type Incident = z.infer<typeof incidentSchema>;

const text = (max: number) => z.string().trim().max(max);

export const incidentCreateBody = z.object({
  title: text(120).min(3),
  message: text(2000).min(3),
  area: text(300).default(""),
  tags: z.array(text(60).min(1)).max(30).default([]),
  expectedAt: z.string().datetime({ offset: true }).nullish(),
});
export type IncidentCreateBody = z.input<typeof incidentCreateBody>;

export const incidentUpdateBody = incidentCreateBody.partial();
export type IncidentUpdateBody = z.input<typeof incidentUpdateBody>;

export const incidentCloseBody = z.object({
  /** the "normalizado" notice; the default text when absent */
  message: text(2000).optional(),
  /** close every open or waiting ticket linked to it, in one action */
  closeTickets: z.boolean().default(false),
});
export type IncidentCloseBody = z.input<typeof incidentCloseBody>;

export const incidentsQuery = z.object({ status: incidentStatusSchema.optional() });
export const incidentsAnswer = z.array(incidentSchema);

/** The `incident` socket event (every signed-in user: the banner). */
export interface IncidentUpdate {
  action: "create" | "update" | "close";
  incident: Incident;
}

/** The default "normalizado" notice ({{title}}: the incident's title). */
export const INCIDENT_NORMALIZED_DEFAULT = "✅ Normalizado: {{title}}. O serviço já foi restabelecido. Obrigado pela paciência!";

/** A waiting customer's position notice, with and without an estimate. */
export const QUEUE_POSITION_TEXT = "Você é o {{position}}º da fila {{queue}}. Tempo estimado de espera: cerca de {{minutes}} min.";
export const QUEUE_POSITION_TEXT_NO_ESTIMATE = "Você é o {{position}}º da fila {{queue}}. Em breve um atendente vai falar com você.";

export const queuePositionNoticeSchema = z.object({
  enabled: z.boolean(),
  /** never more than once every N minutes per ticket */
  everyMinutes: z.number().int().min(1).max(1440),
});
export type QueuePositionNotice = z.infer<typeof queuePositionNoticeSchema>;

/** `{{name}}` placeholders filled (unknown ones left as they are). */
export function fillIncidentText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
