import type { Ticket } from "@balcao/contract";
import { and, eq, gt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { tickets } from "../../db/schema/index.js";
import { type HistoryRow, transitionTicket, writeHistory } from "./apply-transition.js";
import { liveTicketOf, type TicketRow } from "./queries.js";
import { type Actor, decideTransition, type TicketState } from "./state-machine.js";

/**
 * The ticket a channel message goes to, decided inside the message's transaction: the contact's
 * live ticket on the connection, or its latest one reopened within `timeCreateNewTicket` (our own
 * echoed messages join it as they are), or a new pending one; then a connection with one queue
 * routes it there. Every change goes through the transition function (`transitionTicket`; a new
 * ticket's routing is decided by `decideTransition` on its state at birth and written with it), so
 * `ticket_history` records the creation, the reopening and the routing as it records an agent's actions.
 */

const BOT: Actor = { kind: "bot" };
const SYSTEM: Actor = { kind: "system" };
const CUSTOMER: Actor = { kind: "customer" };

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

/**
 * A new ticket at its birth: pending, routed at once when the connection's one queue takes it (the
 * transition function decides the routing on the new ticket's state), with its history rows in
 * order (its creation, then the routing) and, when routed, the state before the routing.
 */
export function bornTicket(a: { whatsappId: number; isGroup: boolean; fromMe: boolean; soleQueueId: number | undefined }): {
  state: TicketState;
  history: Omit<HistoryRow, "ticketId">[];
  previous?: State;
} {
  const born: TicketState = { status: "pending", queueId: null, userId: null, transf: false, whatsappId: a.whatsappId, isGroup: a.isGroup };
  const pending = { status: "pending", queueId: null, userId: null } as const;
  const create = { to: pending, actor: a.fromMe ? SYSTEM : CUSTOMER, reason: "create" } as const;
  const routing = a.soleQueueId === undefined ? undefined : decideTransition(born, BOT, { type: "handover", queueId: a.soleQueueId });
  if (!routing?.ok || !routing.changed || routing.send.length > 0 || !routing.history) return { state: born, history: [create] };
  const next = routing.next;
  const to = { status: next.status, queueId: next.queueId, userId: next.userId };
  return { state: next, history: [create, { from: pending, to, actor: BOT, reason: routing.history.reason }], previous: pending };
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
    /** the contact was created by this transaction: it has no ticket yet */
    newContact?: boolean;
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
    const [recent] = a.newContact
      ? []
      : await tx
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
        actor: CUSTOMER,
        reason: "create",
      });
      changed = true;
      created = true;
      ticket = { id: inserted.id, status: inserted.status, queueId: inserted.queueId, userId: inserted.userId };
    } else if (recent && a.reopenSeconds > 0) {
      // the customer writes again within the window: the transition function reopens it
      const done = await transitionTicket(tx, recent.id, CUSTOMER, { type: "customerMessage" });
      if (done.changed) {
        previous = done.previous;
        changed = true;
      }
      ticket = { id: recent.id, ...done.next };
    } else {
      const born = bornTicket(a);
      const state = born.state;
      const [inserted] = await tx
        .insert(tickets)
        .values({
          contactId: a.contactId,
          whatsappId: a.whatsappId,
          status: state.status,
          queueId: state.queueId,
          userId: state.userId,
          transf: state.transf,
          isGroup: a.isGroup,
        })
        .onConflictDoNothing()
        .returning();
      const row = inserted ?? (await liveTicketOf(tx, a.contactId, a.whatsappId));
      if (!row) throw new Error("ticket vanished");
      if (inserted) {
        await writeHistory(tx, ...born.history.map((h) => ({ ...h, ticketId: inserted.id })));
        previous = born.previous;
        changed = true;
        created = true;
      }
      ticket = { id: row.id, status: row.status, queueId: row.queueId, userId: row.userId };
    }
  }
  // routing, not a bot: the connection's one queue takes a conversation that has none and no agent
  if (a.soleQueueId !== undefined && ticket.queueId === null && ticket.userId === null && ticket.status !== "closed") {
    const done = await transitionTicket(tx, ticket.id, BOT, { type: "handover", queueId: a.soleQueueId });
    previous ??= done.previous;
    changed = true;
    ticket = { id: ticket.id, ...done.next };
  }
  return { ticket, previous, changed, created };
}
