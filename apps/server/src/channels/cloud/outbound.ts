import type { OutboundContent } from "../channel.js";

/**
 * The Cloud API's request body of one message (`POST /{phone-number-id}/messages`), a pure
 * function of what is sent: the number, the content, the quoted message's wamid (`context`), our
 * id (`biz_opaque_callback_data`, how a status finds the message again) and, for a file, the media
 * id its upload answered. Tested on recorded payloads (test/cloud-outbound.test.ts), as Baileys'
 * normalizer is.
 */
export function requestBody(o: {
  to: string;
  content: OutboundContent;
  context?: string;
  id: string;
  mediaId?: string;
}): Record<string, unknown> {
  const { to, content, context, id } = o;
  const base = {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to,
    biz_opaque_callback_data: id,
    ...(context && { context: { message_id: context } }),
  };
  switch (content.kind) {
    case "text":
      if (content.template) {
        const t = content.template;
        return {
          ...base,
          type: "template",
          template: {
            name: t.name,
            language: { code: t.language, policy: "deterministic" },
            components: t.variables.length ? [{ type: "body", parameters: t.variables.map((text) => ({ type: "text", text })) }] : [],
          },
        };
      }
      return { ...base, type: "text", text: { body: content.body, preview_url: /https?:\/\//.test(content.body) } };
    case "media": {
      const type = content.mediaType;
      const captioned = type === "image" || type === "video" || type === "document";
      return {
        ...base,
        type,
        [type]: {
          id: o.mediaId,
          ...(captioned && content.caption && { caption: content.caption }),
          ...(type === "document" && content.fileName && { filename: content.fileName }),
        },
      };
    }
    case "location":
      return {
        ...base,
        type: "location",
        location: { latitude: content.latitude, longitude: content.longitude, name: content.name, address: content.address },
      };
    case "contact": {
      const tel = /waid=(\d+)/i.exec(content.vcard)?.[1] ?? /^TEL[^:]*:(.+)$/im.exec(content.vcard)?.[1]?.replace(/\D/g, "");
      return {
        ...base,
        type: "contacts",
        contacts: [
          {
            name: { formatted_name: content.displayName, first_name: content.displayName },
            phones: tel ? [{ phone: `+${tel}`, wa_id: tel, type: "CELL" }] : [],
          },
        ],
      };
    }
  }
}
