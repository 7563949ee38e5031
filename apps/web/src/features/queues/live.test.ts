import type { Queue } from "@balcao/contract";
import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { answer, cacheUnderTest } from "../../lib/query-testing";
import { queuesQuery } from "./api/queues";

// The queues screen beside the `queue` event: a read that started before an edit and lands after
// its event keeps the edited queue.

const t = cacheUnderTest();

const queue = (id: number, name: string, updatedAt: string): Queue => ({
  id,
  name,
  color: "#2dc6c0",
  greetingMessage: "",
  createdAt: "2026-11-28T10:00:00.000Z",
  updatedAt,
});

describe("the queues list beside its live event", () => {
  it("a queue renamed while the list is being read keeps its new name when the older read lands", async () => {
    const reads: { answer: (q: Queue[]) => void }[] = [];
    const observer = new QueryObserver(t.client, {
      ...queuesQuery,
      queryFn: () => new Promise<Queue[]>((resolve) => reads.push({ answer: resolve })),
    });
    t.stops.push(observer.subscribe(() => undefined));
    await vi.advanceTimersByTimeAsync(0);
    await answer(reads[0], [queue(1, "Suporte", "2026-11-28T10:00:00.000Z"), queue(2, "Financeiro", "2026-11-28T10:00:00.000Z")]);
    void t.client.refetchQueries({ queryKey: queuesQuery.queryKey });
    await vi.advanceTimersByTimeAsync(0);
    // the event of the rename, as useQueuesLive writes it
    t.client.setQueryData<Queue[]>(queuesQuery.queryKey, (old) =>
      old?.map((q) => (q.id === 1 ? queue(1, "Suporte técnico", "2026-11-28T10:05:00.000Z") : q)),
    );
    await answer(reads[1], [queue(1, "Suporte", "2026-11-28T10:00:00.000Z"), queue(2, "Financeiro", "2026-11-28T10:00:00.000Z")]);
    expect(t.client.getQueryData<Queue[]>(queuesQuery.queryKey)?.map((q) => q.name)).toEqual(["Suporte técnico", "Financeiro"]);
  });
});
