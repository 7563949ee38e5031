import type { ChannelEventHandler } from "../../channels/manager.js";
import { createCallHandler } from "./calls.js";
import { applyStatus } from "../connections/service.js";
import type { ConvDeps } from "../outbox/deps.js";
import { customerTyping } from "../tickets/typing.js";
import { createMessageBuilder, type MessageBuilderHooks } from "./inbound.js";
import { createInboundConfig } from "./inbound-config.js";
import { type Journal, markDone } from "./journal.js";
import { createMessageUpdates } from "./updates.js";

/**
 * The one way in: every channel event (journaled first by the channel manager) goes to the module
 * that owns it — messages to the message builder, acks/edits/deletions to the message updates,
 * the connection's status to connections, typing to tickets, calls to calls.
 */
export function createChannelEventHandler(conv: ConvDeps, journal: Journal, hooks: MessageBuilderHooks = {}): ChannelEventHandler {
  const { ctx } = conv;
  const config = createInboundConfig(ctx);
  const receive = createMessageBuilder(conv, journal, config, hooks);
  const updates = createMessageUpdates(ctx, journal);
  const call = createCallHandler(conv, journal, config, receive);
  return async (whatsappId, event, journalId) => {
    switch (event.type) {
      case "message":
        return receive(whatsappId, event.message, journalId);
      case "ack":
        return updates.ack(whatsappId, event.id, event.ack, journalId);
      case "failed":
        return updates.fail(whatsappId, event.id, event.reason, journalId);
      case "edit":
        return updates.change(whatsappId, event.id, { body: event.body }, journalId);
      case "delete":
        return updates.change(whatsappId, event.id, { deleted: true }, journalId);
      case "status":
        return applyStatus(ctx, whatsappId, event);
      case "call":
        return call(whatsappId, event, journalId);
      case "reaction":
        return markDone(journal, journalId);
      case "typing":
        return customerTyping(ctx, whatsappId, event.from, event.typing);
    }
  };
}
