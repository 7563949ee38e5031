import type { AppContext } from "../context.js";
import { ROOM, type RealtimeServer } from "./server.js";

/** `disparos:update` to admins (the Disparos screen is theirs): the counts now, and a failure-pause alert. */
export function registerDisparoRealtime(ctx: AppContext, io: RealtimeServer) {
  ctx.events.on("disparos.changed", (p) => io.to(ROOM.admins).emit("disparos:update", p));
}
