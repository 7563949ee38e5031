import { randomBytes } from "node:crypto";

/**
 * A new channel message id, chosen before the message is sent (and stored with it). The shape of
 * the ids WhatsApp's own clients make ("3EB0" + 18 upper-case hex digits), which every engine
 * here accepts.
 */
export function newMessageId(): string {
  return `3EB0${randomBytes(9).toString("hex").toUpperCase()}`;
}
