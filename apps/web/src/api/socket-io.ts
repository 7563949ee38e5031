import type { ClientToServerEvents, ServerToClientEvents } from "@balcao/contract";
import { type Socket, io } from "socket.io-client";
import { http } from "./http";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A socket authenticated with the current access token (read again on every reconnect). The server
 * closes a user's sockets when their sessions end (logout, a new password); when this page holds a
 * newer token by then (its own password change opened it a new session), the socket connects again
 * with it.
 */
export function connectSocket(): AppSocket {
  let used: string | null = null;
  const socket: AppSocket = io({
    path: "/socket.io",
    transports: ["websocket", "polling"],
    auth: (cb) => {
      used = http.getToken();
      cb({ token: used ?? "" });
    },
  });
  socket.on("disconnect", (reason) => {
    const now = http.getToken();
    if (reason === "io server disconnect" && now && now !== used) socket.connect();
  });
  // the server's path to its other processes came back after an outage (Redis restarted): events of
  // that gap never reached this socket, so every screen reads again, as after a reconnect (whose
  // "connect" listeners join their rooms and read their lists again)
  socket.on("resync", () => {
    socket.disconnect();
    socket.connect();
  });
  return socket;
}
