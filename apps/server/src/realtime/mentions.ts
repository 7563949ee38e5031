import type { AppContext } from "../context.js";
import { ROOM, type RealtimeServer } from "./server.js";

/** `mention` to each user an internal note named (modules/messages/notes.ts picked only users who may see the ticket);
 * heard on every process, each emitting to its own sockets (like realtime/server.ts). */
export function registerMentionRealtime(ctx: AppContext, io: RealtimeServer) {
  ctx.events.onEverywhere("note.mentioned", ({ userIds, ticketId, messageId, byUserId, byName, body }) => {
    for (const id of userIds)
      io.local.to(ROOM.user(id)).emit("mention", { ticketId, messageId, byUserId, byName, body: body.slice(0, 300) });
  });
}
