import type { Schedule, ScheduleCreateBody } from "@balcao/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";

/** The screen's filters as typed (dates as YYYY-MM-DD; §5 sends from at T00:00:00 and to at T23:59:59). */
export interface ScheduleFilters {
  status: string;
  from: string;
  to: string;
}

const keys = {
  all: ["schedules"] as const,
  ticket: (ticketId: number) => ["schedules", "ticket", ticketId] as const,
  list: (f: ScheduleFilters) => ["schedules", "list", f] as const,
};

export function useTicketSchedules(ticketId: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.ticket(ticketId),
    queryFn: ({ signal }) => http.get<Schedule[]>("/schedules", { ticketId }, signal),
    enabled,
  });
}

export function useSchedules(f: ScheduleFilters) {
  return useQuery({
    queryKey: keys.list(f),
    queryFn: ({ signal }) =>
      http.get<Schedule[]>(
        "/schedules",
        {
          status: f.status || undefined,
          from: f.from ? `${f.from}T00:00:00` : undefined,
          to: f.to ? `${f.to}T23:59:59` : undefined,
        },
        signal,
      ),
  });
}

export function useCreateSchedule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduleCreateBody) => http.post<Schedule>("/schedules", body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all }),
    // the dialog says what went wrong, once (a past time at its field)
    meta: { silent: true },
  });
}

export function useDeleteSchedule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ removed: boolean }>(`/schedules/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all }),
  });
}

/** The `schedule` socket event: every loaded list of schedules is fetched again. */
export function useSchedulesLive() {
  const qc = useQueryClient();
  useSocketEvent("schedule", () => void qc.invalidateQueries({ queryKey: keys.all }));
}

/** Reloads every list of schedules (the refresh icon). */
export function useReloadSchedules() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: keys.all });
}
