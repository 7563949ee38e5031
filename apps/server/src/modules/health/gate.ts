import type { AppContext } from "../../context.js";
import type { SendGate } from "../outbox/sender.js";
import { timeZoneOf } from "../settings/service.js";
import { nextLocalMidnight } from "./rules.js";
import { countUnsolicited, gateState, publishHealth, recordFailure } from "./service.js";

/**
 * What the outbox sender asks before an unsolicited row (a quiet chat) goes: not while the number
 * is paused (until resumed), not past today's cap (until the next local day). Replies never ask.
 * The state is read from the database and kept a few seconds per connection (the sender runs in
 * the session's owner; a pause or a settings change here drops it at once, elsewhere within the TTL).
 */
export class HealthGate implements SendGate {
  private readonly cache = new Map<number, { paused: boolean; cap: number; sent: number; day: string; zone: string; readAt: number }>();
  private readonly published = new Map<number, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly ttlMs = 5000,
  ) {
    // the cache is dropped by changes made on any process (the sender runs in the number's owner)
    ctx.events.onEverywhere("whatsapp.health", ({ whatsappId }) => this.cache.delete(whatsappId));
    ctx.events.onEverywhere("whatsapp.saved", ({ whatsapp }) => this.cache.delete(whatsapp.id));
    ctx.events.onEverywhere("whatsapp.deleted", ({ whatsappId }) => this.cache.delete(whatsappId));
    ctx.events.onEverywhere("setting.updated", ({ setting }) => {
      if (setting.key === "timezone") this.cache.clear();
    });
  }

  private async state(whatsappId: number, now: number) {
    const hit = this.cache.get(whatsappId);
    if (hit && now - hit.readAt < this.ttlMs && now >= hit.readAt) return hit;
    const zone = await timeZoneOf(this.ctx.db);
    const s = { ...(await gateState(this.ctx.db, whatsappId, now, zone)), zone, readAt: now };
    this.cache.set(whatsappId, s);
    return s;
  }

  async unsolicitedBlockedUntil(whatsappId: number, now: number): Promise<number | undefined> {
    const s = await this.state(whatsappId, now);
    if (s.paused) return Number.POSITIVE_INFINITY;
    if (s.sent >= s.cap) return nextLocalMidnight(now, s.zone);
    return undefined;
  }

  async sentUnsolicited(whatsappId: number, now: number): Promise<void> {
    const s = await this.state(whatsappId, now);
    await countUnsolicited(this.ctx.db, whatsappId, s.day);
    s.sent++;
    // the panel follows the count, at most every 10 s per number
    const last = this.published.get(whatsappId) ?? 0;
    if (now - last >= 10_000 || now < last || s.sent >= s.cap) {
      this.published.set(whatsappId, now);
      await publishHealth(this.ctx, whatsappId);
    }
  }

  async failed(whatsappId: number, reason: string, permanent: boolean): Promise<void> {
    await recordFailure(this.ctx, whatsappId, reason, permanent);
  }
}
