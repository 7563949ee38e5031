import type { AppContext } from "../context.js";
import { canSee } from "../modules/tickets/queries.js";
import { localSockets, ROOM, type RealtimeServer, type SocketData } from "./server.js";

/**
 * `schedule` to every socket whose user may see the schedule's ticket (admins: all; no ticket:
 * admins only). Runs on every process, each judging its own sockets (who they are is in memory here).
 */
export function registerScheduleRealtime(ctx: AppContext, io: RealtimeServer) {
  ctx.events.onEverywhere("schedule.changed", ({ update, routing }) => {
    for (const s of localSockets(io, ROOM.all)) {
      const user = (s.data as SocketData).user;
      if (user.profile === "admin" || (routing.ticketId !== null && canSee(user, routing))) s.emit("schedule", update);
    }
  });
}
