/**
 * The pace of one number's sends (every source together, through the outbox sender), to keep it
 * from looking like a robot (and getting banned).
 *
 * Sends run one at a time, in order. A send waits until `minIntervalMs` plus a random
 * 0–`jitterMs` have passed since the previous one, unless the burst allowance has a token: up to
 * `burst` sends may go back to back after a quiet spell (an agent answering several things at
 * once); the allowance earns one send back per `burstRefillMs` without sends.
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

export interface RateLimiter {
  /** Runs `task` when its turn and pace allow; resolves or rejects with it. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Sends queued or running. */
  readonly pending: number;
}

export function createRateLimiter(
  options: Partial<RateLimitOptions> = {},
  clock: Clock = realClock,
  random: () => number = Math.random,
): RateLimiter {
  const opts = { ...DEFAULT_RATE_LIMIT, ...options };
  let tokens = opts.burst;
  let refilledAt = clock.now();
  let lastSendAt: number | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;

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

  const waitTurn = async () => {
    refill();
    if (tokens >= 1) {
      tokens -= 1;
      return;
    }
    if (lastSendAt !== undefined) {
      const gap = opts.minIntervalMs + Math.min(1, Math.max(0, random())) * opts.jitterMs;
      const wait = Math.round(lastSendAt + gap - clock.now());
      if (wait > 0) await clock.sleep(wait);
    }
  };

  return {
    get pending() {
      return pending;
    },
    run<T>(task: () => Promise<T>): Promise<T> {
      pending += 1;
      const result = tail.then(async () => {
        try {
          await waitTurn();
          lastSendAt = clock.now();
          return await task();
        } finally {
          pending -= 1;
        }
      });
      // the queue goes on whether this send failed or not
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
