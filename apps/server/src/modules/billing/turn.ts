import type { BillingContract, Ticket } from "@balcao/contract";
import { and, eq, gte } from "drizzle-orm";
import { billingActions } from "../../db/schema/index.js";
import { type Clock, realClock } from "../../lib/pace.js";
import { getSettingValue } from "../settings/service.js";
import type { ConvDeps } from "../outbox/deps.js";
import { pixSettings } from "./compose.js";
import type { BillingRegistry } from "./registry.js";
import { type SelfServiceResult, type SelfServiceState, selfServiceTexts, stepSelfService } from "./self-service.js";
import { enqueueReplies, linkTicket, recordAction, storeReplyMedia } from "./service.js";
import { anyOpenIncident, linkMaintenance } from "../incidents/service.js";

/**
 * One turn of the self-service bot for a bot step (issue 19): runs the state machine on what the
 * customer wrote, then in one transaction queues its replies through the outbox (source "bot"),
 * records its unlocks in billing_actions and, on hand-over, links the identified contract to the
 * ticket. Answers the state to save and the hand-over request; moving the ticket to the queue is
 * the bot step's (the ticket transition of a bot's hand-over). With no billing system configured
 * it answers a hand-over at once and says nothing.
 */
export async function runSelfServiceTurn(
  conv: ConvDeps,
  registry: BillingRegistry,
  input: { ticket: Ticket; text: string | null; state: SelfServiceState | null },
  clock: Clock = realClock,
): Promise<{ state: SelfServiceState; handover: SelfServiceResult["handover"]; messageIds: number[] }> {
  const db = conv.ctx.db;
  let billing: Awaited<ReturnType<BillingRegistry["get"]>>;
  try {
    billing = await registry.get(db);
  } catch {
    return {
      state: { step: "done", misses: 0 },
      handover: { system: "SGP", document: null, contractId: null, reason: "unavailable" },
      messageIds: [],
    };
  }
  const [texts, pix, policy] = await Promise.all([selfServiceTexts(db), pixSettings(db), getSettingValue(db, "mkAuthUnlockEveryDays")]);
  const everyDays = Number(policy) || 0;
  // MK-AUTH exposes no trust-unlock policy: Balcão keeps one (SGP applies its own)
  const unlockRefusal =
    billing.name === "MK-AUTH" && everyDays > 0
      ? async (contract: BillingContract) => {
          const since = new Date(clock.now() - everyDays * 86_400_000);
          const [prev] = await db
            .select({ at: billingActions.createdAt })
            .from(billingActions)
            .where(
              and(
                eq(billingActions.system, billing.name),
                eq(billingActions.contractId, contract.id),
                eq(billingActions.action, "unlock"),
                eq(billingActions.ok, true),
                gte(billingActions.createdAt, since),
              ),
            )
            .limit(1);
          return prev ? `o desbloqueio de confiança já foi usado nos últimos ${everyDays} dias.` : null;
        }
      : undefined;
  const result = await stepSelfService(input.state, {
    text: input.text,
    contactNumber: input.ticket.isGroup ? null : input.ticket.contact.number,
    billing,
    texts,
    pix,
    unlockRefusal,
  });
  const stored = await storeReplyMedia(conv.media, result.replies);
  const queued = await db.transaction(async (tx) => {
    for (const a of result.actions)
      await recordAction(tx, {
        ticketId: input.ticket.id,
        userId: null,
        system: billing.name,
        contractId: a.contractId,
        action: a.action,
        result: a.result,
      });
    const h = result.handover;
    if (h?.contractId && h.document)
      await linkTicket(tx, {
        ticketId: input.ticket.id,
        contactId: input.ticket.contactId,
        system: h.system,
        document: h.document,
        contractId: h.contractId,
        city: h.city,
        pop: h.pop,
      });
    return enqueueReplies(tx, input.ticket, result.replies, stored, { source: "bot", userId: null });
  });
  await conv.outbox.committed(queued);
  await maintenanceLink(conv, billing, input.ticket, input.state, result.state);
  return { state: result.state, handover: result.handover, messageIds: queued.map((q) => q.id) };
}

/**
 * Outage mode (issue 32 §1): the self-service has just identified the customer's contract while an
 * incident is open — when the billing system says the contract's connection is in maintenance
 * (SGP `verificaacesso` 8/9), the customer and ticket are linked to the open incident. A failing
 * lookup changes nothing (the customer is served as usual).
 */
async function maintenanceLink(
  conv: ConvDeps,
  billing: Awaited<ReturnType<BillingRegistry["get"]>>,
  ticket: Ticket,
  before: SelfServiceState | null,
  after: SelfServiceState,
): Promise<void> {
  if (!after.contractId || after.contractId === before?.contractId || !after.document) return;
  if (!(await anyOpenIncident(conv.ctx))) return;
  try {
    const contract = (await billing.findByDocument(after.document)).find((c) => c.id === after.contractId);
    if (!contract || (await billing.connection(contract)).state !== "maintenance") return;
    await linkMaintenance(conv, ticket);
  } catch (err) {
    conv.ctx.log.warn({ err, ticketId: ticket.id }, "the maintenance check of an identified contract failed");
  }
}
