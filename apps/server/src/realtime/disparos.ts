import type { AppContext } from "../context.js";
import { ROOM, type RealtimeServer } from "./server.js";

/** `disparos:update` to admins (the Disparos screen is theirs): the counts now, and a failure-pause alert. Every process tells its own sockets. */
export function registerDisparoRealtime(ctx: AppContext, io: RealtimeServer) {
  ctx.events.onEverywhere("disparos.changed", (p) => io.local.to(ROOM.admins).emit("disparos:update", p));
}
