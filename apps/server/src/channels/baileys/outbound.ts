import type { AnyMessageContent, WAMessage } from "baileys";
import type { Address, OutboundContent, QuotedRef } from "../channel.js";
import { personJid } from "./address.js";

/** Pure builders for what the driver hands to `sock.sendMessage`. */

export const VOICE_NOTE_MIMETYPE = "audio/ogg; codecs=opus";

/** WhatsApp plays a voice note only from Ogg/Opus; anything else goes as an audio file. */
export function canBeVoiceNote(mimetype: string): boolean {
  const m = mimetype.toLowerCase();
  return m.startsWith("audio/ogg") || m.startsWith("audio/opus") || m.includes("codecs=opus");
}

export function toBaileysContent(content: OutboundContent): AnyMessageContent {
  switch (content.kind) {
    case "text":
      return { text: content.body };
    case "location":
      return {
        location: {
          degreesLatitude: content.latitude,
          degreesLongitude: content.longitude,
          ...(content.name ? { name: content.name } : {}),
          ...(content.address ? { address: content.address } : {}),
        },
      };
    case "contact":
      return { contacts: { displayName: content.displayName, contacts: [{ displayName: content.displayName, vcard: content.vcard }] } };
    case "media": {
      const caption = content.caption ? { caption: content.caption } : {};
      switch (content.mediaType) {
        case "image":
          return { image: content.data, mimetype: content.mimetype, ...caption };
        case "video":
          return { video: content.data, mimetype: content.mimetype, ...caption };
        case "sticker":
          return { sticker: content.data, mimetype: content.mimetype };
        case "audio": {
          // a voice note unless the caller said otherwise or the format cannot be one
          const ptt = content.ptt !== false && canBeVoiceNote(content.mimetype);
          return ptt
            ? { audio: content.data, ptt: true, mimetype: VOICE_NOTE_MIMETYPE }
            : { audio: content.data, ptt: false, mimetype: content.mimetype };
        }
        case "document":
          return {
            document: content.data,
            mimetype: content.mimetype,
            ...(content.fileName ? { fileName: content.fileName } : {}),
            ...caption,
          };
      }
    }
  }
}

/** The minimal WAMessage Baileys needs to quote: key and a text body. */
export function toQuotedMessage(chatJid: string, to: Address, quoted: QuotedRef): WAMessage {
  const participant = !quoted.fromMe && to.groupId ? personJid(quoted.author) : undefined;
  return {
    key: { remoteJid: chatJid, fromMe: quoted.fromMe, id: quoted.id, ...(participant ? { participant } : {}) },
    message: { conversation: quoted.body },
  };
}
