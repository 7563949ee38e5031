import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.js";
import type { Guards } from "../../http/guards.js";
import { jobsOverview } from "../../jobs/runner.js";

const jobsAnswer = z.object({
  counts: z.record(z.string(), z.number()),
  /** messages waiting in the outbox, and those that could not be sent */
  outbox: z.object({ queued: z.number(), failed: z.number() }),
  /** inbound events journaled and not handled yet, and those given up on */
  inbound: z.object({ pending: z.number(), failed: z.number() }),
  dead: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      attempts: z.number(),
      lastError: z.string(),
      payload: z.unknown(),
      updatedAt: z.string(),
    }),
  ),
  failedEvents: z.array(
    z.object({
      id: z.number(),
      whatsappId: z.number(),
      type: z.string(),
      attempts: z.number(),
      lastError: z.string(),
      createdAt: z.string(),
    }),
  ),
});

/** What the background machinery could not do, for admins: dead jobs and inbound events that failed. */
export function systemRoutes(ctx: AppContext, guard: Guards): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/jobs",
      {
        preHandler: guard.admin,
        schema: {
          tags: ["system"],
          description:
            "Job counts by state, the dead jobs with their last error, what waits in the outbox and the inbound journal, and inbound events that could not be handled.",
          response: { 200: jobsAnswer },
        },
      },
      async () => {
        const overview = await jobsOverview(ctx.db);
        const { rows: queues } = await ctx.db.execute<{ queued: number; failed: number; pending: number; failed_events: number }>(sql`
          select (select count(*)::int from outbox where failed_at is null) as queued,
                 (select count(*)::int from outbox where failed_at is not null) as failed,
                 (select count(*)::int from inbound_events where state = 'pending') as pending,
                 (select count(*)::int from inbound_events where state = 'failed') as failed_events`);
        const q = queues[0];
        const { rows } = await ctx.db.execute<{
          id: number;
          whatsapp_id: number;
          type: string;
          attempts: number;
          last_error: string | null;
          created_at: string | Date;
        }>(sql`
          select id, whatsapp_id, type, attempts, last_error, created_at from inbound_events where state = 'failed' order by id desc limit 100`);
        return {
          ...overview,
          outbox: { queued: Number(q.queued), failed: Number(q.failed) },
          inbound: { pending: Number(q.pending), failed: Number(q.failed_events) },
          failedEvents: rows.map((r) => ({
            id: Number(r.id),
            whatsappId: r.whatsapp_id,
            type: r.type,
            attempts: r.attempts,
            lastError: r.last_error ?? "",
            createdAt: new Date(r.created_at).toISOString(),
          })),
        };
      },
    );
  };
}
