import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import type { MediaStore } from "../../lib/media.js";

/**
 * What the conversation services (tickets, messages, the inbound pipeline) need besides the app
 * context: the live channels (typing, read receipts, number checks), the media store, and the
 * outbox's sender, woken after a commit that queued messages.
 */
export interface ConvDeps {
  ctx: AppContext;
  channels: ChannelManager;
  media: MediaStore;
  outbox: Outbox;
}

/** A message stored and queued in a transaction that has committed. */
export interface Queued {
  id: number;
  whatsappId: number;
}

export interface Outbox {
  /** Wakes a connection's sender (something was queued, or it may send again). */
  wake(whatsappId: number): void;
  /** After a commit that queued messages: their senders are woken and the messages published (the agent sees the clock at once). */
  committed(queued: Queued[]): Promise<void>;
}
