import type { ChannelDeps, ChannelEvent, ChannelSession } from "../channel.js";
import type { BaileysChannelOptions } from "./driver.js";

/**
 * A Baileys session whose library (about 60 MiB of a process's memory) is loaded when the session is first used —
 * its start, a send, a media download — not at boot: a server without a Baileys connection never loads it.
 * Every call goes to the real driver (`driver.ts`) once loaded.
 */
export function createLazyBaileysChannel(deps: ChannelDeps, opts?: BaileysChannelOptions): ChannelSession {
  let loaded: ChannelSession | undefined;
  let loading: Promise<ChannelSession> | undefined;
  const real = () =>
    (loading ??= import("./driver.js").then((m) => {
      loaded = m.createBaileysChannel(deps, opts);
      return loaded;
    }));
  return {
    whatsappId: deps.whatsappId,
    type: "baileys",
    start: async () => (await real()).start(),
    // never started here: nothing to stop
    stop: async () => loaded?.stop(),
    logout: async () => (await real()).logout(),
    requestNewQr: async () => (await real()).requestNewQr(),
    get connected() {
      return loaded?.connected ?? false;
    },
    send: async (to, content, quoted, o) => (await real()).send(to, content, quoted, o),
    downloadMedia: async (ref) => (await real()).downloadMedia(ref),
    resolve: async (event: ChannelEvent) => {
      const s = await real();
      return s.resolve ? s.resolve(event) : event;
    },
    deleteForEveryone: async (to, id, fromMe) => (await real()).deleteForEveryone(to, id, fromMe),
    setTyping: async (to, typing) => (await real()).setTyping(to, typing),
    markRead: async (to, ids) => (await real()).markRead(to, ids),
    checkNumber: async (number) => (await real()).checkNumber(number),
    profilePictureUrl: async (to) => (await real()).profilePictureUrl(to),
    rejectCall: async (callId, from) => (await real()).rejectCall(callId, from),
    contacts: async () => {
      const s = await real();
      return s.contacts ? s.contacts() : [];
    },
  };
}
