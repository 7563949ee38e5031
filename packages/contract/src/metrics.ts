import { z } from "zod";

/**
 * GET /metrics: the dashboard (spec 000 §2, §3, §7) and, beside the spec's keys, what help-desk
 * supervisors ask for first: first response and resolution times (median and p90), tickets by
 * hour of day × day of week, and what is waiting right now. Definitions: docs/dashboard.md.
 */

/** §2: the charts cycle these six colours (the original dashboard's palette). */
export const DASHBOARD_COLORS = ["#0088FE", "#00C49F", "#FFBB28", "#FF8042", "#A569BD", "#E74C3C"] as const;

export const METRICS_PERIODS = ["day", "week", "month", "total"] as const;
export type MetricsPeriod = (typeof METRICS_PERIODS)[number];

/** Agents listed per period in topAtendentes. */
export const TOP_AGENTS_LIMIT = 10;

/** Below this many samples the screen shows the p90 as "—" (too few to mean anything). */
export const P90_MIN_SAMPLES = 10;

const dayOrInstant = z
  .string()
  .trim()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i, "Invalid date");

export const metricsQuery = z.object({
  /** start of the period: "YYYY-MM-DD" (local midnight of the product's time zone), a local date-time, or an ISO instant */
  from: z.union([z.literal(""), dayOrInstant]).optional(),
  /** end of the period: a date includes that whole local day; a date-time is the exclusive end */
  to: z.union([z.literal(""), dayOrInstant]).optional(),
  queueId: z.coerce.number().int().positive().optional(),
  userId: z.coerce.number().int().positive().optional(),
});
export type MetricsQuery = z.input<typeof metricsQuery>;

export const agentTicketsSchema = z.object({ name: z.string(), tickets: z.number() });
export type AgentTickets = z.infer<typeof agentTicketsSchema>;

/** Seconds; null when there is no sample. */
export const durationStatsSchema = z.object({
  median: z.number().nullable(),
  p90: z.number().nullable(),
  /** how many samples the figures come from */
  count: z.number(),
});
export type DurationStats = z.infer<typeof durationStatsSchema>;

export const timesSchema = z.object({
  overall: durationStatsSchema,
  byAgent: z.array(durationStatsSchema.extend({ userId: z.number(), name: z.string() })),
  /** queueId null: tickets without a queue */
  byQueue: z.array(durationStatsSchema.extend({ queueId: z.number().nullable(), name: z.string() })),
});
export type Times = z.infer<typeof timesSchema>;

export const serverMetricsSchema = z.object({
  memory: z.object({ total: z.number(), free: z.number(), used: z.number(), process: z.number() }),
  disk: z.object({ total: z.number(), free: z.number(), used: z.number() }),
  cpu: z.object({ model: z.string(), cores: z.number(), load1: z.number(), load5: z.number(), load15: z.number() }),
  platform: z.string(),
  arch: z.string(),
  uptimeHours: z.number(),
  release: z.string(),
});
export type ServerMetrics = z.infer<typeof serverMetricsSchema>;

export const metricsAnswer = z.object({
  today: z.number(),
  week: z.number(),
  month: z.number(),
  total: z.number(),
  topAtendentes: z.object({
    day: z.array(agentTicketsSchema),
    week: z.array(agentTicketsSchema),
    month: z.array(agentTicketsSchema),
    total: z.array(agentTicketsSchema),
  }),
  closed: z.number(),
  pending: z.number(),
  serverMetrics: serverMetricsSchema,
  /** the period the figures below cover: [from, to) as ISO instants, and the time zone of the day boundaries */
  period: z.object({ from: z.string(), to: z.string(), timeZone: z.string() }),
  firstResponseTime: timesSchema,
  resolutionTime: timesSchema,
  /** tickets created in the period: [weekday 0 = Monday … 6 = Sunday][hour 0 … 23], local time */
  ticketsByHour: z.array(z.array(z.number())),
  now: z.object({
    waiting: z.array(
      z.object({
        queueId: z.number().nullable(),
        name: z.string(),
        color: z.string(),
        tickets: z.number(),
        /** when the longest-waiting ticket started waiting (ISO), and for how long (seconds) */
        oldestSince: z.string(),
        oldestWaitSeconds: z.number(),
      }),
    ),
    agents: z.array(z.object({ userId: z.number(), name: z.string(), openTickets: z.number() })),
  }),
  /** incidents open during the period (issue 32 §1): the tickets linked to each (in the queue filter when one is given) */
  incidents: z
    .array(z.object({ id: z.number(), title: z.string(), status: z.enum(["open", "closed"]), createdAt: z.string(), tickets: z.number() }))
    .optional(),
});
export type Metrics = z.infer<typeof metricsAnswer>;
