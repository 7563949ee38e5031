/**
 * The pace of one number's unsolicited sends (messages to chats where the customer has not
 * written in the last 24 h: disparos, schedules and API sends to a quiet chat), to keep the number
 * from looking like a robot (and getting banned). Replies in live conversations do not use it (see
 * modules/outbox/sender.ts).
 *
 * A send may go once `minIntervalMs` plus a random 0–`jitterMs` have passed since the previous
 * one, unless the burst allowance has a token: up to `burst` sends may go back to back after a
 * quiet spell; the allowance earns one send back per `burstRefillMs` without sends. The pace never
 * sleeps: the sender asks when the next send may go and sets a timer, so nothing else waits.
 */

export interface RateLimitOptions {
  minIntervalMs: number;
  jitterMs: number;
  burst: number;
  burstRefillMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = {
  minIntervalMs: 1_000,
  jitterMs: 1_500,
  burst: 3,
  burstRefillMs: 10_000,
};

/** Time as the code sees it: tests move a fake one by hand. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Calls `fn` after `ms` (it never keeps the process alive); answers the cancel. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

export interface Pace {
  /** When the next send may go: now (or earlier) when it may go at once. */
  readyAt(): number;
  /** A send went now: it uses a burst token, or starts the next interval. */
  took(): void;
}

export function createPace(options: Partial<RateLimitOptions> = {}, clock: Clock = realClock, random: () => number = Math.random): Pace {
  const opts = { ...DEFAULT_RATE_LIMIT, ...options };
  let tokens = opts.burst;
  let refilledAt = clock.now();
  let lastSendAt: number | undefined;
  // the gap after the last send, its jitter drawn when that send went
  let gap = 0;

  // the allowance refills only with quiet time: a steady stream of sends never earns a token
  const refill = () => {
    if (opts.burstRefillMs <= 0 || tokens >= opts.burst) return;
    const quietSince = Math.max(lastSendAt ?? refilledAt, refilledAt);
    const earned = Math.floor((clock.now() - quietSince) / opts.burstRefillMs);
    if (earned > 0) {
      tokens = Math.min(opts.burst, tokens + earned);
      refilledAt = quietSince + earned * opts.burstRefillMs;
    }
  };

  return {
    readyAt() {
      refill();
      if (tokens >= 1 || lastSendAt === undefined) return clock.now();
      return lastSendAt + gap;
    },
    took() {
      refill();
      if (tokens >= 1) tokens -= 1;
      lastSendAt = clock.now();
      gap = Math.round(opts.minIntervalMs + Math.min(1, Math.max(0, random())) * opts.jitterMs);
    },
  };
}
