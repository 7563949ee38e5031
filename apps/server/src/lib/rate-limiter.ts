import type { SharedStore } from "./cluster/store.js";

/**
 * A fixed-window counter per key, in the shared store (`lib/cluster/`): memory with one process,
 * Redis or PostgreSQL with several, so a limit holds whatever process a request reaches.
 */
export class RateLimiter {
  constructor(
    private readonly store: SharedStore,
    /** names this limiter's keys in the store */
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private k(key: string) {
    return `limit:${this.name}:${key}`;
  }

  /** Seconds to wait when the key is over its limit, else 0. Does not count. */
  async retryAfter(key: string): Promise<number> {
    const c = await this.store.peek(this.k(key));
    return c && c.count >= this.limit ? Math.ceil(c.ttlMs / 1000) : 0;
  }

  async hit(key: string): Promise<void> {
    await this.store.hit(this.k(key), this.windowMs);
  }

  /** Counts this call and answers the seconds to wait when it is over the limit (0: it may go). One step, so two processes never both take the last one. */
  async take(key: string): Promise<number> {
    const c = await this.store.hit(this.k(key), this.windowMs);
    return c.count > this.limit ? Math.max(1, Math.ceil(c.ttlMs / 1000)) : 0;
  }

  async reset(key: string): Promise<void> {
    await this.store.drop(this.k(key));
  }
}
