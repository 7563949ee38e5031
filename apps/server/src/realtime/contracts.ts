import type { AppContext } from "../context.js";
import { canSee } from "../modules/tickets/queries.js";
import { localSockets, ROOM, type RealtimeServer, type SocketData } from "./server.js";

/**
 * `contract` to the sockets whose user may see the contract: admins always, others when they see
 * its ticket (the same rule as GET /api/contratos). 'Assinado' arrives live this way. Runs on every
 * process, each judging its own sockets.
 */
export function registerContractRealtime(ctx: AppContext, io: RealtimeServer) {
  const reach = (
    routing: { queueId: number | null; userId: number | null } | null,
    emit: (s: { emit: RealtimeServer["emit"] }) => void,
  ) => {
    for (const s of localSockets(io, ROOM.all)) {
      const user = (s.data as SocketData).user;
      if (user.profile === "admin" || (routing && canSee(user, routing))) emit(s as never);
    }
  };
  ctx.events.onEverywhere("contract.changed", (p) =>
    reach(p.routing, (s) => s.emit("contract", { action: "update", contract: p.contract })),
  );
  ctx.events.onEverywhere("contract.deleted", (p) => reach(p.routing, (s) => s.emit("contract", { action: "delete", id: p.id })));
}
