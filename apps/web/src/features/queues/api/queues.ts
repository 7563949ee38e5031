import type { Queue, QueueBody } from "@balcao/contract";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useDeleteEntity, useSaveEntity } from "../../../lib/entity-api";
import { shareNewer } from "../../../lib/live-merge";
import { useSocketEvent } from "../../../lib/socket";

export const queuesQuery = queryOptions({
  queryKey: ["queues"],
  queryFn: ({ signal }) => http.get<Queue[]>("/queue", undefined, signal),
  // a read that lands after a `queue` event keeps the newer copy of each queue (updatedAt)
  structuralSharing: shareNewer,
});

export function useQueues() {
  return useQuery(queuesQuery);
}

/** The `queue` socket event edits the cached list in place. */
export function useQueuesLive() {
  const queryClient = useQueryClient();
  useSocketEvent("queue", (p) => {
    queryClient.setQueryData<Queue[]>(queuesQuery.queryKey, (old) => {
      if (!old) return old;
      if (p.action === "delete") return old.filter((q) => q.id !== p.queueId);
      const exists = old.some((q) => q.id === p.queue.id);
      return exists ? old.map((q) => (q.id === p.queue.id ? p.queue : q)) : [...old, p.queue];
    });
  });
}

export const useSaveQueue = () => useSaveEntity<QueueBody, Queue>("/queue", queuesQuery.queryKey);

export const useDeleteQueue = () => useDeleteEntity("/queue", queuesQuery.queryKey);
