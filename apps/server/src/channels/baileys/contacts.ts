import type { Contact } from "baileys";
import type { ChannelContact } from "../channel.js";
import { parseJid } from "./address.js";

/**
 * The phone's contacts as Baileys tells them (`contacts.upsert`, `contacts.update`, the contacts of
 * `messaging-history.set`): one entry per person, by number when known, else by LID. Pure; the
 * driver keeps it in the auth-state store under CONTACTS_KEY so it survives a restart and goes with
 * a logout.
 */

export const CONTACTS_KEY = "balcao:contacts";

function nameOf(c: Partial<Contact>): string | undefined {
  for (const n of [c.name, c.verifiedName, c.notify]) {
    const v = n?.trim();
    if (v) return v;
  }
  return undefined;
}

export class ContactBook {
  private readonly byKey = new Map<string, ChannelContact>();

  static decode(text: string | undefined): ContactBook {
    const book = new ContactBook();
    if (!text) return book;
    try {
      for (const c of JSON.parse(text) as ChannelContact[]) book.put(c);
    } catch {
      // an unreadable book is relearned from the next events
    }
    return book;
  }

  encode(): string {
    return JSON.stringify(this.list());
  }

  list(): ChannelContact[] {
    return [...this.byKey.values()];
  }

  get size(): number {
    return this.byKey.size;
  }

  private put(c: ChannelContact) {
    if (c.number) this.byKey.set(`pn:${c.number}`, c);
    else if (c.lid) this.byKey.set(`lid:${c.lid}`, c);
  }

  /** Merges what an event says; a field it does not carry keeps its value. Answers whether anything changed. */
  learn(incoming: Partial<Contact>[]): boolean {
    let changed = false;
    for (const c of incoming) {
      let number: string | undefined;
      let lid: string | undefined;
      for (const jid of [c.id, c.phoneNumber, c.lid]) {
        const p = parseJid(jid);
        if (p?.kind === "pn") number ??= p.user;
        if (p?.kind === "lid") lid ??= p.user;
      }
      if (!number && !lid) continue; // groups, broadcasts, newsletters
      const byLid = lid ? this.byKey.get(`lid:${lid}`) : undefined;
      const byNumber = number ? this.byKey.get(`pn:${number}`) : undefined;
      const old = byNumber ?? byLid;
      const name = nameOf(c) ?? old?.name;
      const next: ChannelContact = {
        ...((number ?? old?.number) && { number: number ?? old?.number }),
        ...((lid ?? old?.lid ?? byLid?.lid) && { lid: lid ?? old?.lid ?? byLid?.lid }),
        ...(name && { name }),
      };
      if (old && old.number === next.number && old.lid === next.lid && old.name === next.name && !(byLid && next.number)) continue;
      // a LID-only entry joins its number's entry once the number is known
      if (byLid && next.number) this.byKey.delete(`lid:${lid}`);
      this.put(next);
      changed = true;
    }
    return changed;
  }
}
