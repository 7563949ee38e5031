import type { AppContext } from "../context.js";
import { ROOM, type RealtimeServer } from "./server.js";

/**
 * `whatsappHealth` to admins (the connections screen is theirs): a number's health, and the alert when a ban signal paused it.
 * Heard on every process, each emitting to its own sockets (like realtime/server.ts).
 */
export function registerHealthRealtime(ctx: AppContext, io: RealtimeServer) {
  ctx.events.onEverywhere("whatsapp.health", ({ whatsappId, health, alert }) =>
    io.local.to(ROOM.admins).emit("whatsappHealth", { whatsappId, health, ...(alert && { alert }) }),
  );
}
