import type { Metrics } from "@balcao/contract";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";

/** The dashboard's period and filters as the screen holds them ("" = the server's default / all). */
export interface MetricsFilters {
  from: string;
  to: string;
  queueId: string;
  userId: string;
}

const key = ["metrics"] as const;

export function useMetrics(f: MetricsFilters) {
  return useQuery({
    queryKey: [...key, f],
    queryFn: ({ signal }) =>
      http.get<Metrics>(
        "/metrics",
        { from: f.from || undefined, to: f.to || undefined, queueId: f.queueId || undefined, userId: f.userId || undefined },
        signal,
      ),
    placeholderData: keepPreviousData,
    // the waits and the server's figures move with the clock
    refetchInterval: 60_000,
  });
}

/** Ticket and message events refresh the figures, at most once per `delayMs` (a busy inbox sends many). */
export function useMetricsLive(delayMs = 2_000) {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refresh = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: key });
    }, delayMs);
  };
  useSocketEvent("ticket", refresh);
  useSocketEvent("appMessage", refresh);
  useEffect(() => () => clearTimeout(timer.current), []);
}
