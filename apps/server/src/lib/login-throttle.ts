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

export class LoginThrottle {
  private readonly pairs = new Map<string, { failures: number; until: number; lastAt: number }>();
  private readonly perIp: RateLimiter;

  constructor(private readonly policy: ThrottlePolicy) {
    this.perIp = new RateLimiter(policy.ipFailures, policy.windowS * 1000);
  }

  private key(ip: string, email: string) {
    return `${ip}\u0000${email.toLowerCase()}`;
  }

  /** Seconds to wait before this (IP, e-mail) may try again; 0 when it may. */
  retryAfter(ip: string, email: string, now = Date.now()): number {
    const pair = this.pairs.get(this.key(ip, email));
    const pairWait = pair && pair.until > now ? Math.ceil((pair.until - now) / 1000) : 0;
    return Math.max(pairWait, this.perIp.retryAfter(ip, now));
  }

  failed(ip: string, email: string, now = Date.now()): void {
    const key = this.key(ip, email);
    const prev = this.pairs.get(key);
    // a pair quiet for long enough starts over
    const forgetMs = Math.max(this.policy.maxDelayS, this.policy.windowS) * 2000;
    const failures = prev && now - prev.lastAt < forgetMs ? prev.failures + 1 : 1;
    this.pairs.set(key, { failures, until: now + backoffSeconds(failures, this.policy) * 1000, lastAt: now });
    this.perIp.hit(ip, now);
    if (this.pairs.size > 50_000) this.sweep(now, forgetMs);
  }

  succeeded(ip: string, email: string): void {
    this.pairs.delete(this.key(ip, email));
  }

  private sweep(now: number, forgetMs: number) {
    for (const [k, v] of this.pairs) if (now - v.lastAt >= forgetMs) this.pairs.delete(k);
  }
}
