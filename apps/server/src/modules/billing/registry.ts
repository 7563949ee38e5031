import { type BillingConnection, type BillingContract, type BillingInvoice, SETTING_DEFAULTS, type UnlockResult } from "@balcao/contract";
import { createHash } from "node:crypto";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import type { Clock } from "../../lib/pace.js";
import { isTimeZone } from "../../lib/zoned-time.js";
import { getSettingValues } from "../settings/service.js";
import { BillingError, BillingHttp, DEFAULT_HTTP, type HttpOptions, TtlCache } from "./http.js";
import { createMkAuth } from "./mkauth.js";
import { createSgp } from "./sgp.js";
import type { BillingSystem } from "./types.js";

/**
 * The configured billing system, chosen by `integrationSystem`, built once per configuration (so
 * its circuit breaker, token and cache live as long as the settings do) and rebuilt when the URL
 * or a credential changes. Reads are cached for CACHE_MS; an unlock drops its contract's entries.
 */

export const CACHE_MS = 60_000;

export class Billing {
  private readonly cache: TtlCache;
  constructor(
    readonly system: BillingSystem,
    readonly http: BillingHttp,
    clock: Clock,
  ) {
    this.cache = new TtlCache(clock, CACHE_MS);
  }
  get name() {
    return this.system.name;
  }
  findByDocument(doc: string): Promise<BillingContract[]> {
    return this.cache.get(`doc:${doc}`, () => this.system.findByDocument(doc));
  }
  findByPhone(phone: string): Promise<BillingContract[]> {
    return this.cache.get(`phone:${phone}`, () => this.system.findByPhone(phone));
  }
  openInvoices(c: BillingContract): Promise<BillingInvoice[]> {
    return this.cache.get(`c:${c.id}:inv`, () => this.system.openInvoices(c));
  }
  pixFor(c: BillingContract, i: BillingInvoice): Promise<string | null> {
    return this.cache.get(`c:${c.id}:pix:${i.id}`, () => this.system.pixFor(c, i));
  }
  connection(c: BillingContract): Promise<BillingConnection> {
    return this.cache.get(`c:${c.id}:conn`, () => this.system.connection(c));
  }
  async unlock(c: BillingContract, note: string): Promise<UnlockResult> {
    const r = await this.system.unlock(c, note);
    this.cache.dropPrefix(`c:${c.id}:`);
    this.cache.dropPrefix("doc:");
    this.cache.dropPrefix("phone:");
    return r;
  }
  openTicket(c: BillingContract, text: string) {
    return this.system.openTicket(c, text);
  }
  test() {
    return this.system.test();
  }
}

export interface BillingSettings {
  system: "SGP" | "MK-AUTH";
  url: string;
  app: string;
  token: string;
  unlockDays: number;
  /** the product's zone (setting `timezone`); São Paulo when not given */
  timeZone?: string;
}

export class BillingRegistry {
  private current?: { key: string; billing: Billing };
  constructor(
    private readonly clock: Clock,
    private readonly http: Partial<HttpOptions> = {},
  ) {}

  async settings(db: DbOrTx): Promise<BillingSettings> {
    const s = await getSettingValues(db, [
      "integrationSystem",
      "integrationUrl",
      "integrationApp",
      "integrationToken",
      "mkAuthUnlockDays",
      "timezone",
    ]);
    return {
      system: s.integrationSystem === "MK-AUTH" ? "MK-AUTH" : "SGP",
      url: s.integrationUrl.trim(),
      app: s.integrationApp.trim(),
      token: s.integrationToken,
      unlockDays: Number(s.mkAuthUnlockDays) || 0,
      timeZone: isTimeZone(s.timezone) ? s.timezone : SETTING_DEFAULTS.timezone,
    };
  }

  /** The configured system; ERR_BILLING_NOT_CONFIGURED without a URL and credentials. */
  async get(db: DbOrTx): Promise<Billing> {
    return this.build(await this.settings(db));
  }

  /** `standalone`: a fresh instance that does not replace the live one (the settings' test of unsaved values). */
  build(s: BillingSettings, standalone = false): Billing {
    if (!/^https?:\/\//i.test(s.url) || !s.token || (s.system === "MK-AUTH" && !s.app) || (s.system === "SGP" && !s.app))
      throw new AppError("ERR_BILLING_NOT_CONFIGURED");
    const timeZone = s.timeZone ?? SETTING_DEFAULTS.timezone;
    const key = [s.system, s.url, s.app, createHash("sha256").update(s.token).digest("hex"), s.unlockDays, timeZone].join("|");
    if (!standalone && this.current?.key === key) return this.current.billing;
    const http = new BillingHttp(this.clock, { ...DEFAULT_HTTP, ...this.http });
    const cfg = { url: s.url, app: s.app, token: s.token, unlockDays: s.unlockDays, timeZone };
    const system = s.system === "MK-AUTH" ? createMkAuth(cfg, http, this.clock) : createSgp(cfg, http, this.clock);
    const billing = new Billing(system, http, this.clock);
    if (!standalone) this.current = { key, billing };
    return billing;
  }
}

/** A billing failure as the API answers it. */
export function toAppError(err: unknown): unknown {
  if (err instanceof BillingError) return new AppError(err.kind === "auth" ? "ERR_BILLING_AUTH" : "ERR_BILLING_UNAVAILABLE");
  return err;
}
