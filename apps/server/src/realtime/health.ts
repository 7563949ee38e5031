import type { AppContext } from "../context.js";
import { ROOM, type RealtimeServer } from "./server.js";

/** `whatsappHealth` to admins (the connections screen is theirs): a number's health, and the alert when a ban signal paused it. */
export function registerHealthRealtime(ctx: AppContext, io: RealtimeServer) {
  ctx.events.on("whatsapp.health", ({ whatsappId, health, alert }) =>
    io.to(ROOM.admins).emit("whatsappHealth", { whatsappId, health, ...(alert && { alert }) }),
  );
}
