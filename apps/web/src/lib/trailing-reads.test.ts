import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { cacheUnderTest } from "./query-testing";
import { trailingReads } from "./trailing-reads";

// A number's health panel beside its live events: whatever order a read and an event land in, the
// panel ends on what the server holds after the last event.

type Health = { whatsappId: number; paused: boolean; sentToday: number };
const key = (id: number) => ["whatsappHealth", id] as const;

const t = cacheUnderTest();

/** A panel observing each number's health; the server answers each read when the test says. */
async function panels(ids: number[], first: (id: number) => Health) {
  const reads: { id: number; answer: (h: Health) => void; signal: AbortSignal }[] = [];
  for (const id of ids) {
    const observer = new QueryObserver(t.client, {
      queryKey: key(id),
      queryFn: ({ signal }) => new Promise<Health>((answer) => reads.push({ id, answer, signal })),
    });
    t.stops.push(observer.subscribe(() => undefined));
  }
  await vi.advanceTimersByTimeAsync(0);
  for (const r of reads.splice(0)) r.answer(first(r.id));
  await vi.advanceTimersByTimeAsync(0);
  return reads;
}

describe("reads made again after live events", () => {
  it("a ban's pause event beats the session change's read, and the read after it shows the number paused", async () => {
    const reads = await panels([3], (id) => ({ whatsappId: id, paused: false, sentToday: 40 }));
    const after = trailingReads(t.client);
    // the session dropped: the panel reads the number again (answered slowly)
    void t.client.invalidateQueries({ queryKey: key(3) });
    await vi.advanceTimersByTimeAsync(0);
    // the ban paused it meanwhile: the event lands first, the read that started before it lands after
    t.client.setQueryData(key(3), { whatsappId: 3, paused: true, sentToday: 40 });
    after.ask(key(3));
    reads[0].answer({ whatsappId: 3, paused: false, sentToday: 40 });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.client.getQueryData<Health>(key(3))?.paused).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(2);
    reads[1].answer({ whatsappId: 3, paused: true, sentToday: 40 });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.client.getQueryData<Health>(key(3))?.paused).toBe(true);
    after.dispose();
  });

  it("asks during the wait join it: one read per number asked, none for the others, none after dispose", async () => {
    const reads = await panels([3, 4, 5], (id) => ({ whatsappId: id, paused: false, sentToday: 0 }));
    const after = trailingReads(t.client);
    after.ask(key(3));
    await vi.advanceTimersByTimeAsync(200);
    after.ask(key(4), key(3));
    after.ask(key(3));
    expect(reads).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(300);
    expect(reads.map((r) => r.id).sort()).toEqual([3, 4]);
    // a later event starts a new wait
    after.ask(key(5));
    after.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toHaveLength(2);
  });
});
