import { describe, expect, it } from "vitest";
import { createRateLimiter, DEFAULT_RATE_LIMIT } from "../src/lib/pace.js";
import { fakeClock } from "./fake-clock.js";

describe("send pacing (one pace per number)", () => {
  it("documents its defaults", () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ minIntervalMs: 1000, jitterMs: 1500, burst: 3, burstRefillMs: 10_000 });
  });

  it("lets a burst go back to back, then spaces sends by the minimum interval plus jitter", async () => {
    const { clock, waits } = fakeClock();
    const limiter = createRateLimiter({}, clock, () => 0.5);
    const sentAt: number[] = [];
    await Promise.all(Array.from({ length: 5 }, (_, i) => limiter.run(async () => sentAt.push(clock.now()) && i)));
    // 3 burst tokens, then 1000 + 0.5·1500 each
    expect(waits).toEqual([1750, 1750]);
    expect(sentAt.map((t) => t - sentAt[0])).toEqual([0, 0, 0, 1750, 3500]);
  });

  it("jitter spans 0 to jitterMs", async () => {
    for (const [r, wait] of [
      [0, 1000],
      [1, 2500],
    ]) {
      const { clock, waits } = fakeClock();
      const limiter = createRateLimiter({ burst: 0 }, clock, () => r);
      await limiter.run(async () => 1);
      await limiter.run(async () => 2);
      expect(waits).toEqual([wait]);
    }
  });

  it("runs sends one at a time in order and returns each result", async () => {
    const { clock } = fakeClock();
    const limiter = createRateLimiter({ burst: 10 }, clock, () => 0);
    const order: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running += 1;
      expect(running).toBe(1);
      await Promise.resolve();
      order.push(name);
      running -= 1;
      return name;
    };
    const results = await Promise.all(["a", "b", "c"].map((n) => limiter.run(task(n))));
    expect(results).toEqual(["a", "b", "c"]);
    expect(order).toEqual(["a", "b", "c"]);
    expect(limiter.pending).toBe(0);
  });

  it("a failed send rejects alone; the queue goes on", async () => {
    const { clock } = fakeClock();
    const limiter = createRateLimiter({}, clock, () => 0);
    const failed = limiter.run(async () => {
      throw new Error("boom");
    });
    const next = limiter.run(async () => "ok");
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ok");
  });

  it("time already passed since the last send counts toward the interval", async () => {
    const { clock, waits, advance } = fakeClock();
    const limiter = createRateLimiter({ burst: 0 }, clock, () => 0.5);
    await limiter.run(async () => 1);
    advance(1000);
    await limiter.run(async () => 2);
    expect(waits).toEqual([750]);
    advance(5000);
    await limiter.run(async () => 3);
    expect(waits).toEqual([750]);
  });

  it("the burst allowance refills one send per burstRefillMs of quiet, up to burst", async () => {
    const { clock, waits, advance } = fakeClock();
    const limiter = createRateLimiter({}, clock, () => 0);
    for (let i = 0; i < 3; i++) await limiter.run(async () => i);
    expect(waits).toEqual([]);
    advance(10_000);
    // one token back: one immediate send, then the next waits
    await limiter.run(async () => "refilled");
    await limiter.run(async () => "paced");
    expect(waits).toEqual([1000]);
    advance(60_000);
    for (let i = 0; i < 3; i++) await limiter.run(async () => i);
    expect(waits).toEqual([1000]);
    await limiter.run(async () => "fourth");
    expect(waits).toEqual([1000, 1000]);
  });

  it("a steady stream earns no burst back: every send after the first burst is paced", async () => {
    const { clock, waits } = fakeClock();
    const limiter = createRateLimiter({}, clock, () => 0.5);
    await Promise.all(Array.from({ length: 23 }, (_, i) => limiter.run(async () => i)));
    expect(waits).toEqual(Array(20).fill(1750));
  });
});
