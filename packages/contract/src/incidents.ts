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
  /** affected area, free text shown on the banner ("Centro e Jardim América") */
  area: z.string(),
  /** who gets the notice: "all" (todos os clientes) or "area" (only customers placed in its cities, POPs or tags) */
  audience: z.enum(["all", "area"]),
  /** cities a customer is placed in by the billing system's contract or the contact's "Cidade" extra info */
  cities: z.array(z.string()),
  /** POPs a customer is placed in by the billing system's contract or the contact's "POP" extra info */
  pops: z.array(z.string()),
  /** contact tags that place a customer in the area */
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
const places = z.array(text(60).min(1)).max(50);

export const INCIDENT_AUDIENCES = ["all", "area"] as const;
export type IncidentAudience = (typeof INCIDENT_AUDIENCES)[number];

export const incidentCreateBody = z.object({
  title: text(120).min(3),
  /** the notice; may use the variables of INCIDENT_VARIABLES (`{previsao}`, `{titulo}`, `{area}`) */
  message: text(2000).min(3),
  area: text(300).default(""),
  /**
   * "all": every customer who writes gets the notice; "area": only those placed in `cities`, `pops`
   * or `tags` (at least one of them). Absent: "area" when any of them is given, else "all".
   */
  audience: z.enum(INCIDENT_AUDIENCES).optional(),
  cities: places.optional(),
  pops: places.optional(),
  tags: places.optional(),
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

/**
 * The variables an incident's texts (the notice, the "normalizado") may use, filled when the
 * message is queued: `{previsao}` the expected return (pt-BR date and time in the installation's
 * time zone, INCIDENT_NO_FORECAST when none), `{titulo}` the title, `{area}` the area's text.
 * `{{title}}` (the former spelling) is `{titulo}`. Any other `{name}` is refused (ERR_VALIDATION).
 */
export const INCIDENT_VARIABLES = ["previsao", "titulo", "area"] as const;
export type IncidentVariable = (typeof INCIDENT_VARIABLES)[number];
/** `{previsao}` when the incident has no expected return */
export const INCIDENT_NO_FORECAST = "sem previsão";
const VARIABLE_ALIASES: Record<string, IncidentVariable> = { title: "titulo" };
const VARIABLE = /\{\{\s*(\w+)\s*\}\}|\{\s*([\p{L}\w]+)\s*\}/gu;

/** The variables of `text` that are not INCIDENT_VARIABLES (each once, as written). */
export function unknownIncidentVariables(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(VARIABLE)) {
    const name = (m[1] ?? m[2]).toLowerCase();
    if (!(INCIDENT_VARIABLES as readonly string[]).includes(name) && !(name in VARIABLE_ALIASES)) out.add(m[0]);
  }
  return [...out];
}

/** An incident text with its variables filled (`{previsao}`, `{titulo}`, `{area}`, `{{title}}`); unknown ones left as they are. */
export function fillIncidentVariables(text: string, values: Record<IncidentVariable, string>): string {
  return text.replace(VARIABLE, (m, a: string | undefined, b: string | undefined) => {
    const raw = (a ?? b ?? "").toLowerCase();
    const name = VARIABLE_ALIASES[raw] ?? raw;
    return (INCIDENT_VARIABLES as readonly string[]).includes(name) ? values[name as IncidentVariable] : m;
  });
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
