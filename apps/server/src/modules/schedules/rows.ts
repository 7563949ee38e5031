import type { Schedule, ScheduleStatus } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import type { Clock } from "../../lib/pace.js";
import { iso } from "../../lib/sql.js";
import type { ConvDeps } from "../outbox/deps.js";
import { canSee } from "../tickets/queries.js";

/** What both halves of the schedules module share: the deps, the send job's names, a row as the screen reads it, who sees it, its event. */

export const SEND_JOB = "schedules.send";
export const SWEEP_JOB = "schedules.sweep";
export const keyOf = (id: number) => `schedule:${id}`;
/** The send jobs' keys of a connection's pending schedules due by `at` (a subquery for the job runner). */
export const dueScheduleKeys = (whatsappId: number, at: string | Date) => sql`
  select 'schedule:' || s.id::text from schedules s
  where s.status = 'pending' and s.whatsapp_id = ${whatsappId} and s."when" <= ${typeof at === "string" ? at : at.toISOString()}::timestamptz`;

export interface ScheduleDeps {
  conv: ConvDeps;
  clock: Clock;
  /** the job runner looks for due jobs now (after a commit that queued one) */
  wakeRunner: () => void;
}

export type Row = {
  id: number | string;
  ticket_id: number | null;
  contact_id: number | null;
  whatsapp_id: number | null;
  user_id: number | null;
  customer_number: string;
  message: string;
  when: Date | string;
  status: ScheduleStatus;
  reason: string;
  cancel_on_reply: boolean;
  sign: boolean;
  message_id: number | string | null;
  sent_at: Date | string | null;
  created_at: Date | string;
  user_name: string | null;
  contact_name: string | null;
  whatsapp_name: string | null;
  queue_id: number | null;
  owner_id: number | null;
};

export const SELECT = sql`
  select s.id, s.ticket_id, s.contact_id, s.whatsapp_id, s.user_id, s.customer_number, s.message, s."when", s.status, s.reason,
         s.cancel_on_reply, s.sign, s.message_id, s.sent_at, s.created_at, u.name as user_name, c.name as contact_name, w.name as whatsapp_name,
         t.queue_id, t.user_id as owner_id
  from schedules s
  left join users u on u.id = s.user_id
  left join contacts c on c.id = s.contact_id
  left join whatsapps w on w.id = s.whatsapp_id
  left join tickets t on t.id = s.ticket_id`;

export const toSchedule = (r: Row): Schedule => ({
  id: Number(r.id),
  ticketId: r.ticket_id,
  contactId: r.contact_id,
  customerNumber: r.customer_number,
  userId: r.user_id,
  userName: r.user_name,
  contactName: r.contact_name,
  whatsappId: r.whatsapp_id,
  whatsappName: r.whatsapp_name,
  message: r.message,
  when: iso(r.when),
  status: r.status,
  reason: r.reason,
  cancelOnReply: !!r.cancel_on_reply,
  sign: !!r.sign,
  messageId: r.message_id === null ? null : Number(r.message_id),
  sentAt: r.sent_at ? iso(r.sent_at) : null,
  createdAt: iso(r.created_at),
});

export async function loadRows(db: DbOrTx, where: ReturnType<typeof sql>): Promise<Row[]> {
  const { rows } = await db.execute<Row>(sql`${SELECT} where ${where} order by s."when" desc, s.id desc limit 5000`);
  return rows;
}

/** Who may see a schedule: who may see its ticket (admins all; a schedule without a ticket, admins only). */
export function visible(user: SessionUser, r: Pick<Row, "ticket_id" | "queue_id" | "owner_id">): boolean {
  if (user.profile === "admin") return true;
  if (r.ticket_id === null) return false;
  return canSee(user, { queueId: r.queue_id, userId: r.owner_id });
}

export async function publish(ctx: AppContext, ids: number[], action: "create" | "update" = "update") {
  if (!ids.length) return;
  const rows = await loadRows(
    ctx.db,
    sql`s.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  for (const r of rows) {
    ctx.events.publish("schedule.changed", {
      update: { action, schedule: toSchedule(r) },
      routing: { ticketId: r.ticket_id, queueId: r.queue_id, userId: r.owner_id },
    });
  }
}
