import { hostname } from "node:os";
import type { ChannelManager } from "../../channels/manager.js";

/**
 * Which process this is and which WhatsApp sessions it owns: the one place GET /health and the
 * metrics read it. Today a process owns the sessions that run in its channel manager; with the
 * session ownership lease (issue 28 §2) these answer from the lease.
 */

/** "<hostname>:<pid>", the name this process goes by in /health, /ready and the metrics. */
export const PROCESS_ID = `${hostname()}:${process.pid}`;

/** Ids of the connections whose sessions this process owns. */
export function ownedSessionIds(channels: ChannelManager): number[] {
  return channels.ids().sort((a, b) => a - b);
}

/** The owner of each connection this process knows one for (its own sessions: this process). */
export function sessionOwners(channels: ChannelManager): Map<number, string> {
  return new Map(ownedSessionIds(channels).map((id) => [id, PROCESS_ID]));
}
