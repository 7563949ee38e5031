import type { SharedStore } from "./cluster/store.js";
import { RateLimiter } from "./rate-limiter.js";

/**
 * Sign-in brute-force protection keyed on (IP, e-mail): failures from one address against one
 * account earn a wait that doubles with each failure past the free ones, while the same account
 * signing in from anywhere that never failed is not held back (a guesser cannot lock the real user
 * out) and an office behind one address is not blocked by one person's typos. An address that
 * fails against many accounts (password spraying) is capped separately.
 */
export interface ThrottlePolicy {
  /** failures of one (IP, e-mail) before waits begin */
  freeFailures: number;
  /** the first wait, doubled for each further failure */
  baseDelayS: number;
  maxDelayS: number;
  /** failures from one IP, any e-mail, per window */
  ipFailures: number;
  windowS: number;
}

/** Seconds one must wait after this many consecutive failures (pure, for the tests). */
export function backoffSeconds(failures: number, p: Pick<ThrottlePolicy, "freeFailures" | "baseDelayS" | "maxDelayS">): number {
  if (failures < p.freeFailures) return 0;
  return Math.min(p.maxDelayS, p.baseDelayS * 2 ** (failures - p.freeFailures));
}

/**
 * The policy over the shared store (`lib/cluster/`), so failures on any process count: a pair's
 * failures are a counter whose window restarts with each failure (quiet long enough, it starts
 * over), the address's failures a fixed-window counter.
 */
export class LoginThrottle {
  private readonly perIp: RateLimiter;
  private readonly forgetMs: number;

  constructor(
    private readonly policy: ThrottlePolicy,
    private readonly store: SharedStore,
  ) {
    this.perIp = new RateLimiter(store, "login-ip", policy.ipFailures, policy.windowS * 1000);
    // a pair quiet for this long starts over
    this.forgetMs = Math.max(policy.maxDelayS, policy.windowS) * 2000;
  }

  private key(ip: string, email: string) {
    return `login:${ip}|${email.toLowerCase()}`;
  }

  /** Seconds to wait before this (IP, e-mail) may try again; 0 when it may. */
  async retryAfter(ip: string, email: string): Promise<number> {
    const [pair, ipWait] = await Promise.all([this.store.peek(this.key(ip, email)), this.perIp.retryAfter(ip)]);
    let pairWait = 0;
    if (pair) {
      // the last failure was (forgetMs - ttl) ago; its wait ends backoff seconds after it
      const sinceLastMs = this.forgetMs - pair.ttlMs;
      const leftMs = backoffSeconds(pair.count, this.policy) * 1000 - sinceLastMs;
      pairWait = leftMs > 0 ? Math.ceil(leftMs / 1000) : 0;
    }
    return Math.max(pairWait, ipWait);
  }

  async failed(ip: string, email: string): Promise<void> {
    await Promise.all([this.store.hit(this.key(ip, email), this.forgetMs, true), this.perIp.hit(ip)]);
  }

  async succeeded(ip: string, email: string): Promise<void> {
    await this.store.drop(this.key(ip, email));
  }
}
