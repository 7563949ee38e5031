import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, vi } from "vitest";

/**
 * For tests of the cache beside live events (imported by tests only): each test gets a fresh
 * QueryClient on fake timers; what it pushes to `stops` (observers, live handlers) is stopped after it.
 */
export function cacheUnderTest() {
  const t = { client: undefined as unknown as QueryClient, stops: [] as (() => void)[] };
  beforeEach(() => {
    vi.useFakeTimers();
    t.client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });
  afterEach(() => {
    for (const stop of t.stops.splice(0)) stop();
    t.client.clear();
    vi.useRealTimers();
  });
  return t;
}

/** A read held open by a test's server answered, and the cache given the turn to take it. */
export async function answer<T>(read: { answer: (v: T) => void }, v: T) {
  read.answer(v);
  await vi.advanceTimersByTimeAsync(0);
}
