import type { Ticket } from "@balcao/contract";
import { and, eq, gt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { tickets } from "../../db/schema/index.js";
import { transitionTicket, writeHistory } from "./apply-transition.js";
import { liveTicketOf, type TicketRow } from "./queries.js";

/**
 * The ticket a channel message goes to, decided inside the message's transaction: the contact's
 * live ticket on the connection, or its latest one reopened within `timeCreateNewTicket` (our own
 * echoed messages join it as they are), or a new pending one; then a connection with one queue
 * routes it there. Every change goes through the transition function (`transitionTicket`), so
 * `ticket_history` records the reopening and the routing as it records an agent's actions.
 */

export type LiveTicket = Pick<TicketRow, "id" | "status" | "queueId" | "userId">;
type State = { status: Ticket["status"]; queueId: number | null; userId: number | null };

export interface InboundTicket {
  ticket: LiveTicket;
  /** status/queue/user before, when this message created, reopened or routed the ticket */
  previous?: State;
  changed: boolean;
  /** this message opened a new ticket */
  created: boolean;
}

export async function ticketForMessage(
  tx: DbOrTx,
  a: {
    contactId: number;
    whatsappId: number;
    isGroup: boolean;
    fromMe: boolean;
    /** the contact's live ticket on the connection, already locked */
    live: LiveTicket | undefined;
    reopenSeconds: number;
    /** the connection's one queue, when it routes this message's new conversations there */
    soleQueueId: number | undefined;
    /** the message asks for nothing from an agent (an opt-out answer): it joins the latest ticket as is, reopening nothing */
    quiet?: boolean;
  },
): Promise<InboundTicket> {
  let ticket = a.live;
  let previous: State | undefined;
  let changed = false;
  let created = false;
  if (!ticket) {
    const [recent] = await tx
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.contactId, a.contactId),
          eq(tickets.whatsappId, a.whatsappId),
          a.fromMe || a.quiet ? undefined : gt(tickets.updatedAt, sql`now() - make_interval(secs => ${a.reopenSeconds})`),
        ),
      )
      .orderBy(sql`${tickets.updatedAt} desc nulls last`)
      .limit(1)
      .for("update");
    if ((a.fromMe || a.quiet) && recent) {
      // our own message echoed by the engine (or sent from the phone), or an opt-out answer: it joins the latest ticket as is
      ticket = recent;
    } else if (a.quiet) {
      // an opt-out answer from a contact without a ticket here: kept in a closed one, as a disparo is
      const [inserted] = await tx
        .insert(tickets)
        .values({ contactId: a.contactId, whatsappId: a.whatsappId, status: "closed", closedAt: new Date(), isGroup: a.isGroup })
        .returning();
      await writeHistory(tx, {
        ticketId: inserted.id,
        to: { status: "closed", queueId: null, userId: null },
        actor: { kind: "customer" },
        reason: "create",
      });
      changed = true;
      created = true;
      ticket = { id: inserted.id, status: inserted.status, queueId: inserted.queueId, userId: inserted.userId };
    } else if (recent && a.reopenSeconds > 0) {
      // the customer writes again within the window: the transition function reopens it
      const done = await transitionTicket(tx, recent.id, { kind: "customer" }, { type: "customerMessage" });
      if (done.changed) {
        previous = done.previous;
        changed = true;
      }
      ticket = { id: recent.id, ...done.next };
    } else {
      const [inserted] = await tx
        .insert(tickets)
        .values({ contactId: a.contactId, whatsappId: a.whatsappId, status: "pending", isGroup: a.isGroup })
        .onConflictDoNothing()
        .returning();
      const row = inserted ?? (await liveTicketOf(tx, a.contactId, a.whatsappId));
      if (!row) throw new Error("ticket vanished");
      if (inserted) {
        await writeHistory(tx, {
          ticketId: inserted.id,
          to: { status: "pending", queueId: null, userId: null },
          actor: a.fromMe ? { kind: "system" } : { kind: "customer" },
          reason: "create",
        });
        changed = true;
        created = true;
      }
      ticket = { id: row.id, status: row.status, queueId: row.queueId, userId: row.userId };
    }
  }
  // routing, not a bot: the connection's one queue takes a conversation that has none and no agent
  if (a.soleQueueId !== undefined && ticket.queueId === null && ticket.userId === null && ticket.status !== "closed") {
    const done = await transitionTicket(tx, ticket.id, { kind: "bot" }, { type: "handover", queueId: a.soleQueueId });
    previous ??= done.previous;
    changed = true;
    ticket = { id: ticket.id, ...done.next };
  }
  return { ticket, previous, changed, created };
}
