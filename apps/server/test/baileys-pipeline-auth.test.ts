import { describe, expect, it } from "vitest";
import { createBaileysChannel } from "../src/channels/baileys/driver.js";
import type { BaileysSocketConfig } from "../src/channels/baileys/socket.js";
import { FakeSocket, flush, MemoryAuthStore, ManualTimer, makeDeps, ME_JID } from "./baileys-fake-socket.js";

/**
 * The order of auth writes around reconnects, with a store whose writes can be held back (a busy
 * database): what the pipeline tests on PostgreSQL hit only by chance, pinned here.
 */

class SlowStore extends MemoryAuthStore {
  private held: (() => void)[] = [];
  hold = false;
  override async set(entries: Map<string, string | null>) {
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    return super.set(entries);
  }
  release() {
    this.hold = false;
    for (const r of this.held.splice(0)) r();
  }
}

function setup() {
  const store = new SlowStore();
  const sockets: FakeSocket[] = [];
  const { deps } = makeDeps(store);
  const session = createBaileysChannel(deps, {
    socketFactory: (config: BaileysSocketConfig) => {
      const s = new FakeSocket(config);
      sockets.push(s);
      return s;
    },
    timer: new ManualTimer(),
    random: () => 0.5,
  });
  return { store, sockets, session };
}

describe("baileys auth writes around reconnects", () => {
  it("the socket after the post-scan restart reads the identity saved just before it, even when that write is slow", async () => {
    const t = setup();
    await t.session.start();
    t.sockets[0].qr("2@qr");
    t.store.hold = true;
    t.sockets[0].emit("creds.update", { me: { id: ME_JID, name: "Provedor Net" }, registered: true });
    t.sockets[0].close(515);
    await flush(10);
    // still waiting for the write: a socket now would pair again with blank creds
    expect(t.sockets).toHaveLength(1);
    t.store.release();
    await flush(10);
    expect(t.sockets).toHaveLength(2);
    expect(t.sockets[1].config.auth.creds.me?.id).toBe(ME_JID);
    expect(t.sockets[1].config.auth.creds.registered).toBe(true);
  });

  it("a logout while writes are pending leaves nothing behind: queued writes are dropped, not replayed over the clear", async () => {
    const t = setup();
    await t.session.start();
    t.sockets[0].open();
    await flush();
    await t.store.set(new Map([["creds", "{}"]]));
    t.store.hold = true;
    t.sockets[0].emit("creds.update", { me: { id: ME_JID, name: "Provedor Net" } });
    t.sockets[0].emit("creds.update", { registered: true });
    const loggedOut = t.session.logout();
    await flush(10);
    t.store.release();
    await loggedOut;
    await flush(10);
    expect([...t.store.data.keys()]).toEqual([]);
  });

  it("stop() resolves after the pending writes landed (the database closes right after a shutdown)", async () => {
    const t = setup();
    await t.session.start();
    t.sockets[0].open();
    await flush();
    t.store.hold = true;
    t.sockets[0].emit("creds.update", { me: { id: ME_JID, name: "Provedor Net" }, registered: true });
    let stopped = false;
    const stopping = t.session.stop().then(() => {
      stopped = true;
    });
    await flush(10);
    expect(stopped).toBe(false);
    t.store.release();
    await stopping;
    expect(t.store.data.get("creds")).toContain(ME_JID);
  });
});
