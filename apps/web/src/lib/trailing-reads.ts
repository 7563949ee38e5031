import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Reads made again after live events. A screen writes an event's payload into the cache at once,
 * but payloads carry no version: a read already under way (a bulk action's, a reconnect's, an
 * interval's) can land after newer events and put the older state back, and two events can
 * arrive in the other order than the server read them. `ask(key)` reads `key` again `everyMs`
 * after the first ask of a burst; asks made while that wait runs join it, so the read always
 * starts after the last event it follows (the screen ends on the server's state), and the
 * invalidation cancels a read still under way (it cannot land after the new one). A first read
 * still under way cannot be cancelled that way (TanStack joins it instead of reading again): its key
 * waits another round, and is read again once that first read has landed.
 */
export function trailingReads(queryClient: QueryClient, everyMs = 500) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const due = new Map<string, QueryKey>();
  const firstReadUnderWay = (queryKey: QueryKey) =>
    queryClient
      .getQueryCache()
      .findAll({ queryKey, fetchStatus: "fetching" })
      .some((q) => q.state.data === undefined);
  const ask = (...keys: QueryKey[]) => {
    for (const k of keys) due.set(JSON.stringify(k), k);
    if (!timer) arm();
  };
  const arm = () => {
    timer = setTimeout(() => {
      timer = undefined;
      for (const [k, queryKey] of [...due]) {
        if (firstReadUnderWay(queryKey)) continue;
        due.delete(k);
        void queryClient.invalidateQueries({ queryKey });
      }
      if (due.size) arm();
    }, everyMs);
  };
  return {
    ask,
    /** Asks for every query under `keys` being fetched now (a read that may answer from before the event just applied). */
    askIfBeingRead(...keys: QueryKey[]) {
      const under = keys.flatMap((queryKey) =>
        queryClient
          .getQueryCache()
          .findAll({ queryKey, fetchStatus: "fetching" })
          .map((q) => q.queryKey),
      );
      if (under.length) ask(...under);
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      due.clear();
    },
  };
}
