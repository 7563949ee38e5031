import type { MediaType } from "@balcao/contract";
import type { Ack, ChannelEvent, InboundMessage } from "../channel.js";

/**
 * Pure functions from Meta's webhook payloads (reference §5) to the channel's events. Every entry,
 * change, message and status of one POST is walked (one POST may carry several). Ids: a customer's
 * message keeps its wamid; ours are known by our own id, which Meta echoes in
 * `biz_opaque_callback_data` — a wamid that only Meta knows is turned back into ours with `ourId`.
 */

export interface WebhookBody {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: WebhookValue }[] }[];
}

export interface WebhookValue {
  messaging_product?: string;
  metadata?: { display_phone_number?: string; phone_number_id?: string };
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  messages?: CloudMessage[];
  statuses?: CloudStatus[];
  errors?: CloudErrorItem[];
}

export interface CloudErrorItem {
  code?: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

type MediaObj = {
  id?: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
  filename?: string;
  voice?: boolean;
  animated?: boolean;
};

export interface CloudMessage {
  from?: string;
  id?: string;
  timestamp?: string;
  type?: string;
  context?: { from?: string; id?: string };
  text?: { body?: string };
  image?: MediaObj;
  video?: MediaObj;
  audio?: MediaObj;
  document?: MediaObj;
  sticker?: MediaObj;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string; url?: string };
  contacts?: {
    name?: { formatted_name?: string; first_name?: string; last_name?: string };
    phones?: { phone?: string; wa_id?: string; type?: string }[];
    emails?: { email?: string; type?: string }[];
  }[];
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
  };
  button?: { payload?: string; text?: string };
  reaction?: { message_id?: string; emoji?: string };
  errors?: CloudErrorItem[];
}

export interface CloudStatus {
  id?: string;
  status?: string;
  timestamp?: string;
  recipient_id?: string;
  biz_opaque_callback_data?: string;
  errors?: CloudErrorItem[];
}

/** The changes of a webhook POST, with the phone number id each belongs to. */
export function changesOf(body: WebhookBody): { phoneNumberId: string; value: WebhookValue }[] {
  const out: { phoneNumberId: string; value: WebhookValue }[] = [];
  for (const entry of Array.isArray(body?.entry) ? body.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const id = change?.value?.metadata?.phone_number_id;
      if (change?.field === "messages" && typeof id === "string" && id)
        out.push({ phoneNumberId: id, value: change.value as WebhookValue });
    }
  }
  return out;
}

/** A media of a customer's message: the Graph media id to download it by. */
export interface CloudMediaRef {
  mediaId: string;
}

const STATUS_ACK: Record<string, Ack> = { sent: 1, delivered: 2, read: 3 };

/** What a status of one of our messages says. */
export type StatusItem =
  | { kind: "ack"; ourId?: string; wamid: string; ack: Ack; at: number }
  | { kind: "failed"; ourId?: string; wamid: string; code: number; title: string; at: number };

export function statusItems(value: WebhookValue): StatusItem[] {
  const out: StatusItem[] = [];
  for (const s of value.statuses ?? []) {
    if (!s?.id || !s.status) continue;
    const at = Number(s.timestamp ?? 0) * 1000;
    const ourId = typeof s.biz_opaque_callback_data === "string" && s.biz_opaque_callback_data ? s.biz_opaque_callback_data : undefined;
    if (s.status === "failed") {
      const e = s.errors?.[0];
      out.push({
        kind: "failed",
        ourId,
        wamid: s.id,
        code: Number(e?.code ?? 0),
        title: e?.error_data?.details ?? e?.title ?? e?.message ?? "",
        at,
      });
    } else if (STATUS_ACK[s.status] !== undefined) out.push({ kind: "ack", ourId, wamid: s.id, ack: STATUS_ACK[s.status], at });
  }
  return out;
}

/** Every wamid a value refers to that may be one of ours (quotes, reactions, statuses without our id). */
export function referencedWamids(value: WebhookValue): string[] {
  const ids = new Set<string>();
  for (const m of value.messages ?? []) {
    if (m.context?.id) ids.add(m.context.id);
    if (m.reaction?.message_id) ids.add(m.reaction.message_id);
  }
  for (const s of value.statuses ?? []) if (s.id && !s.biz_opaque_callback_data) ids.add(s.id);
  return [...ids];
}

function vcardOf(c: NonNullable<CloudMessage["contacts"]>[number]): { displayName: string; vcard: string; number?: string } {
  const displayName = c.name?.formatted_name ?? [c.name?.first_name, c.name?.last_name].filter(Boolean).join(" ");
  const lines = ["BEGIN:VCARD", "VERSION:3.0", `FN:${displayName}`];
  for (const p of c.phones ?? []) {
    if (!p.phone && !p.wa_id) continue;
    lines.push(`TEL;type=${p.type ?? "CELL"}${p.wa_id ? `;waid=${p.wa_id}` : ""}:${p.phone ?? p.wa_id}`);
  }
  for (const e of c.emails ?? []) if (e.email) lines.push(`EMAIL;type=${e.type ?? "INTERNET"}:${e.email}`);
  lines.push("END:VCARD");
  const first = c.phones?.find((p) => p.wa_id || p.phone);
  const number = first?.wa_id ?? first?.phone?.replace(/\D/g, "");
  return { displayName, vcard: lines.join("\n"), ...(number && { number }) };
}

const MEDIA_KIND: Record<string, { type: MediaType; fallback: string }> = {
  image: { type: "image", fallback: "image/jpeg" },
  video: { type: "video", fallback: "video/mp4" },
  audio: { type: "audio", fallback: "audio/ogg" },
  document: { type: "document", fallback: "application/octet-stream" },
  sticker: { type: "sticker", fallback: "image/webp" },
};

/**
 * The customers' messages and reactions of a value. `ourId` turns a wamid of one of our messages
 * into our id (quotes of our messages, reactions to them); media carry a ref the session downloads.
 */
export function messageEvents(
  value: WebhookValue,
  ourId: (wamid: string) => string | undefined,
  download: (ref: CloudMediaRef) => Promise<Buffer>,
): ChannelEvent[] {
  const names = new Map<string, string>();
  for (const c of value.contacts ?? []) if (c?.wa_id && c.profile?.name) names.set(c.wa_id, c.profile.name);
  const out: ChannelEvent[] = [];
  for (const m of value.messages ?? []) {
    if (!m?.id || !m.from) continue;
    const from = m.from.replace(/\D/g, "");
    const name = names.get(m.from);
    const local = (id: string | undefined) => (id ? (ourId(id) ?? id) : undefined);
    if (m.type === "reaction") {
      const target = local(m.reaction?.message_id);
      if (target) out.push({ type: "reaction", id: target, emoji: m.reaction?.emoji ?? "", from: { number: from } });
      continue;
    }
    const msg: InboundMessage = {
      id: m.id,
      fromMe: false,
      chat: { number: from, isGroup: false, ...(name && { name }) },
      ...(name && { pushName: name }),
      timestamp: m.timestamp ? new Date(Number(m.timestamp) * 1000) : new Date(),
      body: "",
      mediaType: "chat",
      ...(m.context?.id && { quotedId: local(m.context.id) }),
    };
    const type = m.type ?? "";
    const kind = MEDIA_KIND[type];
    if (kind) {
      const media = (m as Record<string, unknown>)[type] as MediaObj | undefined;
      msg.mediaType = kind.type;
      msg.body = media?.caption ?? (type === "document" ? (media?.filename ?? "") : "");
      if (media?.id) {
        const ref: CloudMediaRef = { mediaId: media.id };
        let mimetype = media.mime_type ?? kind.fallback;
        if (type === "audio" && media.voice && !mimetype.includes("opus")) mimetype = "audio/ogg; codecs=opus";
        msg.media = { mimetype, ...(media.filename && { fileName: media.filename }), data: () => download(ref), ref };
      }
    } else if (type === "text") msg.body = m.text?.body ?? "";
    else if (type === "location") {
      const l = m.location ?? {};
      msg.mediaType = "location";
      msg.body = [l.name, l.address].filter(Boolean).join(" - ");
      msg.location = { latitude: Number(l.latitude ?? 0), longitude: Number(l.longitude ?? 0), name: l.name, address: l.address };
    } else if (type === "contacts") {
      const cards = (m.contacts ?? []).map(vcardOf);
      msg.mediaType = "vcard";
      msg.body = cards.map((c) => c.displayName).join(", ");
      if (cards.length)
        msg.vcard = {
          displayName: msg.body,
          vcard: cards.map((c) => c.vcard).join("\n"),
          ...(cards[0].number && { number: cards[0].number }),
        };
    } else if (type === "interactive") {
      msg.body = m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title ?? "";
    } else if (type === "button") {
      msg.body = m.button?.text ?? m.button?.payload ?? "";
    } else {
      msg.mediaType = "other";
      msg.body = m.errors?.[0]?.title ?? "";
    }
    out.push({ type: "message", message: msg });
  }
  return out;
}
