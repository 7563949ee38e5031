import type { Incident, IncidentCloseBody, IncidentCreateBody, IncidentStatus } from "@balcao/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";

const keys = {
  all: ["incidents"] as const,
  list: (status?: IncidentStatus) => ["incidents", "list", status ?? "all"] as const,
};

/** Incidents (open ones for the banner, all for the screen); kept live by the `incident` socket event. */
export function useIncidents(status?: IncidentStatus) {
  return useQuery({
    queryKey: keys.list(status),
    queryFn: ({ signal }) => http.get<Incident[]>("/incidents", { status }, signal),
    // the counts (customers, tickets, notices sent) move without events of their own
    refetchInterval: 30_000,
  });
}

/** Every loaded list of incidents is fetched again when one is opened, changed or closed. */
export function useIncidentsLive() {
  const qc = useQueryClient();
  useSocketEvent("incident", () => void qc.invalidateQueries({ queryKey: keys.all }));
}

export function useCreateIncident() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: IncidentCreateBody) => http.post<Incident>("/incidents", body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useCloseIncident() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: IncidentCloseBody }) => http.post<Incident>(`/incidents/${id}/close`, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all }),
  });
}
