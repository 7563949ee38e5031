import { describe, expect, it } from "vitest";
import { createPace, DEFAULT_RATE_LIMIT, type Pace } from "../src/lib/pace.js";
import { fakeClock } from "./fake-clock.js";

/** Sends `n` times as the sender does: each when the pace allows (the clock moved to that time), answering the waits. */
function sendAll(pace: Pace, fake: ReturnType<typeof fakeClock>, n: number) {
  const waits: number[] = [];
  for (let i = 0; i < n; i++) {
    const wait = pace.readyAt() - fake.at();
    if (wait > 0) {
      waits.push(wait);
      fake.advance(wait);
    }
    pace.took();
  }
  return waits;
}

describe("the pace of unsolicited sends (one per number)", () => {
  it("documents its defaults", () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ minIntervalMs: 1000, jitterMs: 1500, burst: 3, burstRefillMs: 10_000 });
  });

  it("lets a burst go back to back, then spaces sends by the minimum interval plus jitter", () => {
    const fake = fakeClock();
    const pace = createPace({}, fake.clock, () => 0.5);
    // 3 burst tokens, then 1000 + 0.5·1500 each
    expect(sendAll(pace, fake, 5)).toEqual([1750, 1750]);
  });

  it("jitter spans 0 to jitterMs", () => {
    for (const [r, wait] of [
      [0, 1000],
      [1, 2500],
    ]) {
      const fake = fakeClock();
      const pace = createPace({ burst: 0 }, fake.clock, () => r);
      expect(sendAll(pace, fake, 2)).toEqual([wait]);
    }
  });

  it("asking does not use the pace up: only a send does", () => {
    const fake = fakeClock();
    const pace = createPace({ burst: 0 }, fake.clock, () => 0);
    expect(pace.readyAt()).toBe(fake.at());
    expect(pace.readyAt()).toBe(fake.at());
    pace.took();
    expect(pace.readyAt()).toBe(fake.at() + 1000);
    expect(pace.readyAt()).toBe(fake.at() + 1000);
  });

  it("time already passed since the last send counts toward the interval", () => {
    const fake = fakeClock();
    const pace = createPace({ burst: 0 }, fake.clock, () => 0.5);
    expect(sendAll(pace, fake, 1)).toEqual([]);
    fake.advance(1000);
    expect(sendAll(pace, fake, 1)).toEqual([750]);
    fake.advance(5000);
    expect(sendAll(pace, fake, 1)).toEqual([]);
  });

  it("the burst allowance refills one send per burstRefillMs of quiet, up to burst", () => {
    const fake = fakeClock();
    const pace = createPace({}, fake.clock, () => 0);
    expect(sendAll(pace, fake, 3)).toEqual([]);
    fake.advance(10_000);
    // one token back: one immediate send, then the next waits
    expect(sendAll(pace, fake, 2)).toEqual([1000]);
    fake.advance(60_000);
    expect(sendAll(pace, fake, 3)).toEqual([]);
    expect(sendAll(pace, fake, 1)).toEqual([1000]);
  });

  it("a steady stream earns no burst back: every send after the first burst is paced", () => {
    const fake = fakeClock();
    const pace = createPace({}, fake.clock, () => 0.5);
    expect(sendAll(pace, fake, 23)).toEqual(Array(20).fill(1750));
  });
});
