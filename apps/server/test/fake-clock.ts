import type { Clock } from "../src/lib/pace.js";

/**
 * A clock that moves only when the test says so (or when code sleeps on it): timers fire as the
 * time passes them. Every sleep is recorded.
 */
export function fakeClock(start = Date.UTC(2026, 10, 23, 12, 0, 0)) {
  let now = start;
  const waits: number[] = [];
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let seq = 0;
  const fire = () => {
    for (;;) {
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) return;
      timers = timers.filter((t) => t !== due);
      due.fn();
    }
  };
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
      fire();
    },
    setTimer: (fn, ms) => {
      const t = { at: now + ms, fn, id: ++seq };
      timers.push(t);
      return () => {
        timers = timers.filter((x) => x !== t);
      };
    },
  };
  return {
    clock,
    waits,
    at: () => now,
    /** moves the time forward, firing the timers it passes */
    advance(ms: number) {
      now += ms;
      fire();
    },
  };
}
