import type { ClientToServerEvents, ServerToClientEvents } from "@balcao/contract";
import { type Socket, io } from "socket.io-client";
import { http } from "./http";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A socket authenticated with the current access token (read again on every reconnect). */
export function connectSocket(): AppSocket {
  return io({
    path: "/socket.io",
    transports: ["websocket", "polling"],
    auth: (cb) => cb({ token: http.getToken() ?? "" }),
  });
}
