import type { SessionLookup, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import type { EventBus } from "../../lib/events.js";
import { loadSessionUser } from "./service.js";

/**
 * Every request resolves its token to the current user. This keeps that lookup off the database
 * for a few seconds per user; any change to a user (profile, queues, password, deletion) drops
 * the entry at once through the domain events (on every process), so refusals stay immediate.
 */
export class SessionCache implements SessionLookup {
  private readonly entries = new Map<number, { user: SessionUser; tokenVersion: number; at: number }>();

  constructor(
    private readonly db: DbOrTx,
    events: EventBus,
    private readonly ttlMs = 5000,
  ) {
    // on every process: a change made on any of them is refused at once everywhere
    events.onEverywhere("user.saved", ({ user }) => this.entries.delete(user.id));
    events.onEverywhere("user.deleted", ({ userId }) => this.entries.delete(userId));
    events.onEverywhere("user.sessionsEnded", ({ userId }) => this.entries.delete(userId));
    events.onEverywhere("queue.deleted", () => this.entries.clear());
  }

  /** The user when the token's version is current, else null. */
  async get(id: number, tokenVersion: number): Promise<SessionUser | null> {
    const hit = this.entries.get(id);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.tokenVersion === tokenVersion ? hit.user : null;
    const loaded = await loadSessionUser(this.db, id);
    if (!loaded) {
      this.entries.delete(id);
      return null;
    }
    this.entries.set(id, { user: loaded.user, tokenVersion: loaded.tokenVersion, at: Date.now() });
    if (this.entries.size > 10_000) this.entries.clear();
    return loaded.tokenVersion === tokenVersion ? loaded.user : null;
  }
}
