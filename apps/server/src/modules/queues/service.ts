import type { Queue, QueueBody } from "@balcao/contract";
import { asc, eq, inArray } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { queues, tickets } from "../../db/schema/index.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";
import { iso } from "../../lib/sql.js";
import { adminActor, transitionTicket } from "../tickets/apply-transition.js";

function toQueue(r: typeof queues.$inferSelect): Queue {
  return {
    id: r.id,
    name: r.name,
    color: r.color,
    greetingMessage: r.greetingMessage,
    positionNotice: { enabled: r.positionNoticeEnabled, everyMinutes: r.positionNoticeMinutes },
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

function mapUnique(err: unknown): never {
  if (isUniqueViolation(err, "queues_color_key")) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
  if (isUniqueViolation(err, "queues_name_key")) throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS");
  throw err;
}

export async function listQueues(db: DbOrTx): Promise<Queue[]> {
  return (await db.select().from(queues).orderBy(asc(queues.name))).map(toQueue);
}

export async function getQueue(db: DbOrTx, id: number): Promise<Queue> {
  const [row] = await db.select().from(queues).where(eq(queues.id, id));
  if (!row) throw new AppError("ERR_NO_QUEUE_FOUND");
  return toQueue(row);
}

export async function createQueue(ctx: AppContext, input: QueueBody): Promise<Queue> {
  const [row] = await ctx.db
    .insert(queues)
    .values({
      name: input.name,
      color: input.color,
      greetingMessage: input.greetingMessage ?? "",
      ...(input.positionNotice && {
        positionNoticeEnabled: input.positionNotice.enabled,
        positionNoticeMinutes: input.positionNotice.everyMinutes,
      }),
    })
    .returning()
    .catch(mapUnique);
  const queue = toQueue(row);
  ctx.events.publish("queue.saved", { action: "create", queue });
  return queue;
}

export async function updateQueue(ctx: AppContext, id: number, input: Partial<QueueBody>): Promise<Queue> {
  const { positionNotice, ...fields } = input;
  const [row] = await ctx.db
    .update(queues)
    .set({
      ...fields,
      ...(positionNotice && { positionNoticeEnabled: positionNotice.enabled, positionNoticeMinutes: positionNotice.everyMinutes }),
      updatedAt: new Date(),
    })
    .where(eq(queues.id, id))
    .returning()
    .catch(mapUnique);
  if (!row) throw new AppError("ERR_NO_QUEUE_FOUND");
  const queue = toQueue(row);
  ctx.events.publish("queue.saved", { action: "update", queue });
  return queue;
}

/** Deleting a queue keeps its tickets, left without a queue (each through the transition: its history says who and why). */
export async function deleteQueue(ctx: AppContext, id: number, actor?: SessionUser): Promise<void> {
  const affected = await ctx.db.transaction(async (tx) => {
    const [queue] = await tx.select({ id: queues.id }).from(queues).where(eq(queues.id, id)).for("update");
    if (!queue) throw new AppError("ERR_NO_QUEUE_FOUND");
    const held = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.queueId, id)).orderBy(tickets.id);
    const moved: number[] = [];
    for (const t of held)
      if ((await transitionTicket(tx, t.id, actor ? adminActor(actor) : { kind: "system" }, { type: "queueDeleted" })).changed)
        moved.push(t.id);
    await tx.delete(queues).where(eq(queues.id, id));
    return moved;
  });
  ctx.events.publish("queue.deleted", { queueId: id });
  if (affected.length) ctx.events.publish("tickets.changed", { ticketIds: affected });
}

export async function assertQueuesExist(db: DbOrTx, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const found = await db.select({ id: queues.id }).from(queues).where(inArray(queues.id, unique));
  if (found.length !== unique.length) throw new AppError("ERR_NO_QUEUE_FOUND");
}
