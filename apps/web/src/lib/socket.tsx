import type { ServerToClientEvents } from "@balcao/contract";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, createContext, useContext, useEffect, useRef, useState } from "react";
import type { AppSocket } from "../api/socket-io";

const SocketContext = createContext<AppSocket | null>(null);

/**
 * One socket per signed-in session: `userId` is the signed-in user (none: no socket).
 *
 * Whatever the screen read before the socket was listening (the first connect comes after the
 * page's first fetches; a reconnect after a gap) may have missed events: on every connect those
 * reads are made again, so no screen keeps a state the server has left (a message that arrived,
 * a connection's new QR code).
 */
export function SocketProvider({ userId, children }: { userId: number | undefined; children: ReactNode }) {
  const [socket, setSocket] = useState<AppSocket | null>(null);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    let s: AppSocket | undefined;
    let cancelled = false;
    const resync = () => {
      const connectedAt = Date.now();
      void queryClient.invalidateQueries({
        predicate: (q) => q.state.dataUpdatedAt > 0 && q.state.dataUpdatedAt < connectedAt,
      });
    };
    // socket.io-client loads after sign-in: it is not part of the login page's JavaScript.
    void import("../api/socket-io").then(({ connectSocket }) => {
      if (cancelled) return;
      s = connectSocket();
      s.on("connect", resync);
      setSocket(s);
    });
    return () => {
      cancelled = true;
      s?.off("connect", resync);
      s?.disconnect();
      setSocket(null);
    };
  }, [userId, queryClient]);
  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

export function useSocket() {
  return useContext(SocketContext);
}

/** Calls the latest `handler` for every `event` the socket receives while mounted. */
export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]) {
  const socket = useSocket();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = ((...args: unknown[]) => (ref.current as (...a: unknown[]) => void)(...args)) as ServerToClientEvents[E];
    // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed on() does not accept a generic event key
    (socket as any).on(event, listener);
    return () => {
      // biome-ignore lint/suspicious/noExplicitAny: see above
      (socket as any).off(event, listener);
    };
  }, [socket, event]);
}
