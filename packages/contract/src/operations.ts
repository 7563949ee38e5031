import { z } from "zod";

/**
 * Operations (issue 28 §6): what a load balancer and a monitor ask each server process, without
 * signing in. `GET /health`: the process is alive; `GET /ready`: it can serve (503 otherwise).
 */

export const healthAnswer = z.object({
  ok: z.literal(true),
  engine: z.enum(["pglite", "postgres"]),
  /** "<hostname>:<pid>" of the process that answered */
  process: z.string(),
  /** ids of the WhatsApp connections whose sessions this process owns */
  sessions: z.array(z.number()),
});
export type HealthAnswer = z.infer<typeof healthAnswer>;

export const READY_CHECKS = ["database", "migrations", "redis", "storage"] as const;
export type ReadyCheck = (typeof READY_CHECKS)[number];

export const readyAnswer = z.object({
  ok: z.boolean(),
  process: z.string(),
  /** each check that applies: "ok", or what failed (never a secret); redis only with REDIS_URL, storage only with S3 */
  checks: z.partialRecord(z.enum(READY_CHECKS), z.string()),
});
export type ReadyAnswer = z.infer<typeof readyAnswer>;
