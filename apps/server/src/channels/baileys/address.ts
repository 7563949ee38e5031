import type { Address } from "../channel.js";

/** What a WhatsApp jid names, without its device suffix. Pure. */
export type ParsedJid =
  | { kind: "pn"; user: string }
  | { kind: "lid"; user: string }
  | { kind: "group"; user: string }
  | { kind: "broadcast"; user: string }
  | { kind: "other"; user: string };

export const PN_SERVER = "s.whatsapp.net";
export const LID_SERVER = "lid";
export const GROUP_SERVER = "g.us";
export const STATUS_BROADCAST = "status@broadcast";

export function parseJid(jid: string | null | undefined): ParsedJid | undefined {
  if (!jid) return undefined;
  const at = jid.indexOf("@");
  if (at <= 0) return undefined;
  // "5511999990000:12@s.whatsapp.net" → user "5511999990000" (":12" is the device, "_1" the agent)
  const user = jid.slice(0, at).split(":")[0].split("_")[0];
  const server = jid.slice(at + 1);
  if (!user) return undefined;
  switch (server) {
    case PN_SERVER:
    case "c.us":
      return { kind: "pn", user };
    case LID_SERVER:
      return { kind: "lid", user };
    case GROUP_SERVER:
      return { kind: "group", user };
    case "broadcast":
      return { kind: "broadcast", user };
    default:
      return { kind: "other", user };
  }
}

/** Phone number and LID for a person, from the first jids that name each. */
export function personFromJids(jids: (string | null | undefined)[]): Address {
  const out: Address = {};
  for (const jid of jids) {
    const p = parseJid(jid);
    if (p?.kind === "pn" && !out.number) out.number = p.user;
    if (p?.kind === "lid" && !out.lid) out.lid = p.user;
  }
  return out;
}

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, "");
}

/** The jid to send to: the group, else the phone number, else the LID. */
export function addressToJid(to: Address): string {
  if (to.groupId) return `${to.groupId}@${GROUP_SERVER}`;
  if (to.number) return `${digitsOnly(to.number)}@${PN_SERVER}`;
  if (to.lid) return `${to.lid}@${LID_SERVER}`;
  throw new Error("address has no group, number or lid");
}

/** The jid of a person (never the group), for quoted authors and participants. */
export function personJid(a: Address | undefined): string | undefined {
  if (!a) return undefined;
  if (a.number) return `${digitsOnly(a.number)}@${PN_SERVER}`;
  if (a.lid) return `${a.lid}@${LID_SERVER}`;
  return undefined;
}
