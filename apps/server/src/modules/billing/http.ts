import { type AllowList, NO_PRIVATE_HOSTS, OutgoingError, outgoingFetch } from "../../lib/outgoing-http.js";
import type { Clock } from "../../lib/pace.js";

/**
 * How Balcão talks to a billing system: every call time-limited, reads retried with backoff, and
 * one circuit breaker per configured system so that a billing system that is down answers "down"
 * at once instead of holding the inbox's requests. Never logs or throws a secret: errors carry the
 * path only, never headers or bodies.
 */

export type BillingErrorKind = "timeout" | "unreachable" | "refused" | "auth" | "bad_answer" | "not_found" | "http" | "circuit_open";

export class BillingError extends Error {
  constructor(
    readonly kind: BillingErrorKind,
    message: string,
    readonly status?: number,
    /** the outgoing client's code (ERR_OUTGOING_…) when the request itself failed */
    readonly outgoing?: OutgoingError,
  ) {
    super(message);
    this.name = "BillingError";
  }
  /** failures that say the system is unwell (count towards opening the circuit; worth a retry) */
  get transient(): boolean {
    return (
      this.kind === "timeout" ||
      this.kind === "unreachable" ||
      this.kind === "bad_answer" ||
      (this.kind === "http" && (this.status ?? 0) >= 500)
    );
  }
}

export interface HttpOptions {
  timeoutMs: number;
  /** attempts for reads (1 = no retry) */
  attempts: number;
  /** first backoff; doubled each attempt, with jitter */
  backoffMs: number;
  /** consecutive failures that open the circuit */
  breakerThreshold: number;
  /** how long it stays open before one probe may pass */
  breakerCooldownMs: number;
  /** ALLOWED_PRIVATE_HOSTS (an SGP on the provider's LAN) */
  allow: AllowList;
  /** the largest answer read (a list of invoices is a few kB) */
  maxBytes: number;
}

export const DEFAULT_HTTP: HttpOptions = {
  timeoutMs: 5000,
  attempts: 2,
  backoffMs: 300,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
  allow: NO_PRIVATE_HOSTS,
  maxBytes: 4 * 1024 * 1024,
};

export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  private probing = false;
  constructor(
    private readonly clock: Clock,
    private readonly threshold: number,
    private readonly cooldownMs: number,
  ) {}

  get state(): "closed" | "open" | "half-open" {
    if (this.failures < this.threshold) return "closed";
    return this.clock.now() < this.openUntil ? "open" : "half-open";
  }

  /** Throws when the circuit is open (or a probe is already out while half-open). */
  enter(): void {
    const s = this.state;
    if (s === "open" || (s === "half-open" && this.probing))
      throw new BillingError("circuit_open", "billing system unavailable (circuit open)");
    if (s === "half-open") this.probing = true;
  }

  success(): void {
    this.failures = 0;
    this.probing = false;
  }

  failure(): void {
    this.failures++;
    this.probing = false;
    if (this.failures >= this.threshold) this.openUntil = this.clock.now() + this.cooldownMs;
  }

  /** A call ended without telling us anything about the system's health (4xx, not found). */
  neutral(): void {
    this.probing = false;
  }
}

export interface HttpRequest {
  method: "GET" | "POST" | "PUT";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** reads may be retried; writes (unlock, ticket) are sent once */
  idempotent: boolean;
}

export interface HttpAnswer {
  status: number;
  text: string;
  contentType: string;
}

export class BillingHttp {
  readonly breaker: CircuitBreaker;
  constructor(
    private readonly clock: Clock,
    readonly opts: HttpOptions = DEFAULT_HTTP,
  ) {
    this.breaker = new CircuitBreaker(clock, opts.breakerThreshold, opts.breakerCooldownMs);
  }

  /** One call through the breaker, with retries for reads. 4xx answers are returned, not thrown. */
  async send(req: HttpRequest): Promise<HttpAnswer> {
    this.breaker.enter();
    const attempts = req.idempotent ? Math.max(1, this.opts.attempts) : 1;
    let last: BillingError | undefined;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await this.clock.sleep(this.opts.backoffMs * 2 ** (i - 1) * (0.75 + Math.random() * 0.5));
      try {
        const answer = await this.once(req);
        if (answer.status >= 500) throw new BillingError("http", `${pathOf(req.url)} answered ${answer.status}`, answer.status);
        this.breaker.success();
        return answer;
      } catch (err) {
        last = err instanceof BillingError ? err : new BillingError("unreachable", `${pathOf(req.url)}: network error`);
        if (!last.transient) break;
      }
    }
    if (last?.transient) this.breaker.failure();
    else this.breaker.neutral();
    throw last ?? new BillingError("unreachable", "no attempt made");
  }

  private async once(req: HttpRequest): Promise<HttpAnswer> {
    try {
      const res = await outgoingFetch(req.url, {
        allow: this.opts.allow,
        method: req.method,
        headers: req.headers,
        body: req.body,
        timeoutMs: this.opts.timeoutMs,
        maxBytes: this.opts.maxBytes,
      });
      return { status: res.status, text: res.text(), contentType: res.headers["content-type"] ?? "" };
    } catch (err) {
      if (!(err instanceof OutgoingError)) throw err;
      if (err.code === "ERR_OUTGOING_TIMEOUT")
        throw new BillingError("timeout", `${pathOf(req.url)} took longer than ${this.opts.timeoutMs} ms`, undefined, err);
      // refused by our own rules (a private address, a redirect elsewhere, a bad URL): not the system's health
      const refused = ["ERR_OUTGOING_PRIVATE_ADDRESS", "ERR_OUTGOING_REDIRECT", "ERR_OUTGOING_BAD_URL", "ERR_OUTGOING_TOO_LARGE"].includes(
        err.code,
      );
      throw new BillingError(refused ? "refused" : "unreachable", `${pathOf(req.url)}: ${err.code}`, undefined, err);
    }
  }
}

/** JSON of an answer; an HTML error page served with 200 (seen in both systems) is a bad answer. */
export function jsonOf(answer: HttpAnswer, url: string): unknown {
  const t = answer.text.trim();
  if (!t) return null;
  if (t.startsWith("<")) throw new BillingError("bad_answer", `${pathOf(url)} answered HTML instead of JSON`);
  try {
    return JSON.parse(t);
  } catch {
    throw new BillingError("bad_answer", `${pathOf(url)} answered something that is not JSON`);
  }
}

/** The path of a URL, without query (never credentials). */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "(bad url)";
  }
}

/** Short-lived answers: the same question within the TTL is answered from memory. */
export class TtlCache {
  private readonly map = new Map<string, { at: number; value: Promise<unknown> }>();
  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.map.get(key);
    if (hit && this.clock.now() - hit.at < this.ttlMs) return hit.value as Promise<T>;
    const value = load();
    const entry = { at: this.clock.now(), value: value as Promise<unknown> };
    this.map.set(key, entry);
    // a failure is not remembered (only this entry: a newer one for the key stays)
    value.catch(() => {
      if (this.map.get(key) === entry) this.map.delete(key);
    });
    if (this.map.size > 500) this.map.delete(this.map.keys().next().value as string);
    return value;
  }

  dropPrefix(prefix: string): void {
    for (const k of [...this.map.keys()]) if (k.startsWith(prefix)) this.map.delete(k);
  }
}
