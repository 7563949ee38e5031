import { SESSION_CALLS } from "../../channels/manager.js";
import { AppError } from "../../lib/errors.js";
import type { ModuleHost } from "../../module-host.js";
import { connectionRoutes } from "./routes.js";
import { disconnectSession, requestNewQr, startSession } from "./service.js";
import { SIM_CALL, simulatorCallHandler, simulatorRoutes } from "./simulator.routes.js";

/**
 * Connections: the WhatsApp numbers (their form, sessions, QR codes), the simulator's page and
 * routes (when enabled), and, with several processes, what other processes ask of the sessions
 * this one owns.
 */
export function register(host: ModuleHost): void {
  const { ctx, channels, simulator } = host;
  host.routes(connectionRoutes(ctx, channels, host.guard));
  const owners = host.ownerCalls;
  if (ctx.config.simulatorEnabled)
    host.routes(simulatorRoutes(ctx, channels, simulator, host.guard, owners && ((id, m, a) => owners.ask(id, m, a))));
  if (!owners) return;
  owners.handle("channel", async (whatsappId, args) => {
    const { method, args: params } = args as { method: string; args: unknown[] };
    const session = channels.get(whatsappId) as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
    if (!session || !(SESSION_CALLS as readonly string[]).includes(method) || typeof session[method] !== "function") {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    }
    return session[method].apply(session, params);
  });
  owners.handle("conn.start", (id) => startSession(ctx, channels, id));
  owners.handle("conn.newQr", (id) => requestNewQr(ctx, channels, id));
  owners.handle("conn.logout", (id) => disconnectSession(ctx, channels, id));
  owners.handle("conn.stop", (id) => channels.stop(id));
  owners.handle(SIM_CALL, simulatorCallHandler(channels, simulator));
}
