import type { AppContext } from "../context.js";
import { canSee } from "../modules/tickets/queries.js";
import { ROOM, type RealtimeServer, type SocketData } from "./server.js";

/** `schedule` to every socket whose user may see the schedule's ticket (admins: all; no ticket: admins only). */
export function registerScheduleRealtime(ctx: AppContext, io: RealtimeServer) {
  ctx.events.on("schedule.changed", ({ update, routing }) => {
    for (const id of io.sockets.adapter.rooms.get(ROOM.all) ?? []) {
      const s = io.sockets.sockets.get(id);
      if (!s) continue;
      const user = (s.data as SocketData).user;
      if (user.profile === "admin" || (routing.ticketId !== null && canSee(user, routing))) s.emit("schedule", update);
    }
  });
}
