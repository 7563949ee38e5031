import { createHash, createHmac, randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { type FakeRequest, json, startFake } from "./http-fake.js";

/**
 * A fake of Meta's Graph API for the WhatsApp Cloud API, from the public reference
 * (shared/reference/whatsapp-cloud-api.md): the phone number (GET /{phone-number-id}), messages
 * (POST /{phone-number-id}/messages → wamid), media upload (multipart POST /{phone-number-id}/media)
 * and download (GET /{media-id} → a URL that needs the same bearer token), templates
 * (GET /{waba-id}/message_templates, paged), error bodies { error: { code, message, ... } } (190 with
 * HTTP 401, 130429, 131047 …).
 *
 * Like Meta, it posts to the product's webhook, signed with the app secret (X-Hub-Signature-256):
 * its customers' messages, and the statuses of what it accepted (sent, then delivered) echoing
 * `biz_opaque_callback_data`; a delivery that does not get 200 is tried again until it does.
 * Like Meta, it keeps no idempotency: every accepted POST is a message (`accepted`, counted by
 * `biz_opaque_callback_data` in `countByOurId`). It keeps each customer's 24 h window: a free-form
 * message to a customer who has not written in 24 h is taken, then fails (status 131047).
 */

export interface GraphMessage {
  wamid: string;
  to: string;
  type: string;
  body: Record<string, unknown>;
  ourId?: string;
}

export interface FakeGraphOptions {
  phoneNumberId?: string;
  wabaId?: string;
  accessToken?: string;
  appSecret?: string;
  displayPhoneNumber?: string;
  /** how a webhook POST reaches the product: (raw body, headers) → HTTP status */
  deliver?: (raw: string, headers: Record<string, string>) => Promise<number>;
  /** delay between the statuses it posts (ms) */
  statusDelayMs?: number;
  /** retry delay of a webhook delivery that failed (ms) */
  redeliverMs?: number;
}

export interface FakeTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  body: string;
}

export async function startFakeGraph(opts: FakeGraphOptions = {}) {
  const phoneNumberId = opts.phoneNumberId ?? "109876543210";
  const wabaId = opts.wabaId ?? "209876543210";
  const state = {
    accessToken: opts.accessToken ?? "EAAG-test-token",
    appSecret: opts.appSecret ?? "app-secret-123",
    webhookUrl: "",
    deliver: opts.deliver,
    /** sync error bodies for the next POST /messages calls */
    nextErrors: [] as { status: number; code: number; message: string }[],
    /** failed statuses (code) for the next accepted messages */
    nextFailedStatuses: [] as number[],
    /** statuses are posted (off: the product never hears of what it sent) */
    postStatuses: true,
    windowCheck: true,
    tier: "TIER_1K" as string | undefined,
    /** the next POST /messages loses its connection: "before" Meta took it, or "after" (taken, no answer) */
    dropNext: undefined as "before" | "after" | undefined,
    /** Meta's answer to an accepted message comes this late (ms): a kill then falls between taking and answering */
    answerDelayMs: 0,
    /** told each time a message is taken, before it is answered (the crash test kills the server there) */
    onAccepted: undefined as ((count: number) => void) | undefined,
  };
  const accepted: GraphMessage[] = [];
  const media = new Map<string, { data: Buffer; mimetype: string }>();
  const lastInbound = new Map<string, number>();
  const templates: FakeTemplate[] = [
    {
      name: "retomar_contato",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      body: "Olá {{1}}, podemos continuar seu atendimento?",
    },
    {
      name: "segunda_via",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      body: "{{1}}, sua fatura de {{2}} está disponível.",
    },
    { name: "promo_pendente", language: "pt_BR", status: "PENDING", category: "MARKETING", body: "Promoção!" },
  ];
  const deliveries = { attempts: 0, ok: 0 };
  /** accepted messages whose answer was written */
  const answers = { written: 0 };
  let pending: Promise<void> = Promise.resolve();
  let closed = false;
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const authorized = (req: FakeRequest) => req.headers.authorization === `Bearer ${state.accessToken}`;
  const graphError = (res: ServerResponse, status: number, code: number, message: string) =>
    json(res, status, {
      error: {
        message,
        type: "OAuthException",
        code,
        error_data: { messaging_product: "whatsapp", details: message },
        fbtrace_id: "Afake",
      },
    });

  function sign(raw: string, secret = state.appSecret) {
    return `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
  }

  async function postOnce(raw: string, headers: Record<string, string>): Promise<number> {
    if (state.deliver) return state.deliver(raw, headers);
    const res = await fetch(state.webhookUrl, { method: "POST", headers, body: raw }).catch(() => undefined);
    if (!res) return 0;
    await res.arrayBuffer().catch(() => {});
    return res.status;
  }

  /** Posts a webhook payload signed with the app secret, again and again until it gets 200 (Meta's at-least-once). */
  async function deliverUntilOk(payload: unknown) {
    const raw = JSON.stringify(payload);
    const headers = { "content-type": "application/json", "x-hub-signature-256": sign(raw) };
    for (let i = 0; !closed; i++) {
      deliveries.attempts++;
      const status = await postOnce(raw, headers).catch(() => 0);
      if (status === 200) {
        deliveries.ok++;
        return;
      }
      await wait(opts.redeliverMs ?? 300);
    }
  }

  const envelope = (value: Record<string, unknown>) => ({
    object: "whatsapp_business_account",
    entry: [
      {
        id: wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: displayPhone(), phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  });
  const displayPhone = () => opts.displayPhoneNumber ?? "5511988887777";

  /** Statuses go in order, one delivery after the other (they may still come twice). */
  function queueStatus(status: Record<string, unknown>) {
    if (!state.postStatuses) return;
    pending = pending.then(async () => {
      await wait(opts.statusDelayMs ?? 20);
      await deliverUntilOk(envelope({ statuses: [{ timestamp: String(Math.floor(Date.now() / 1000)), ...status }] }));
    });
  }

  async function accept(req: FakeRequest, res: ServerResponse) {
    const b = req.body as Record<string, unknown>;
    if (b.status === "read") return json(res, 200, { success: true });
    const drop = state.dropNext;
    state.dropNext = undefined;
    if (drop === "before") return void res.socket?.destroy();
    const next = state.nextErrors.shift();
    if (next) return graphError(res, next.status, next.code, next.message);
    const to = String(b.to ?? "");
    const type = String(b.type ?? "");
    if (!to || !type || b.messaging_product !== "whatsapp") return graphError(res, 400, 100, "Invalid parameter");
    if (type === "template") {
      const t = b.template as { name?: string; language?: { code?: string } };
      if (!templates.some((x) => x.name === t?.name && x.language === t?.language?.code && x.status === "APPROVED"))
        return graphError(res, 404, 132001, "Template name does not exist in the translation");
    }
    for (const kind of ["image", "audio", "video", "document", "sticker"]) {
      const m = b[kind] as { id?: string } | undefined;
      if (type === kind && !(m?.id && media.has(m.id))) return graphError(res, 400, 131053, "Media upload error");
    }
    const wamid = `wamid.${randomBytes(12).toString("base64url")}`;
    const ourId = typeof b.biz_opaque_callback_data === "string" ? b.biz_opaque_callback_data : undefined;
    accepted.push({ wamid, to, type, body: b, ourId });
    state.onAccepted?.(accepted.length);
    const base = { id: wamid, recipient_id: to, ...(ourId && { biz_opaque_callback_data: ourId }) };
    queueStatuses(base, type, to);
    if (state.answerDelayMs) await wait(state.answerDelayMs);
    if (drop === "after") res.socket?.destroy();
    else {
      json(res, 200, { messaging_product: "whatsapp", contacts: [{ input: to, wa_id: to }], messages: [{ id: wamid }] });
      answers.written++;
    }
  }

  function queueStatuses(base: Record<string, unknown>, type: string, to: string) {
    const failedCode = state.nextFailedStatuses.shift();
    const windowClosed = state.windowCheck && type !== "template" && Date.now() - (lastInbound.get(to) ?? 0) > 24 * 3600_000;
    if (failedCode !== undefined || windowClosed) {
      const code = failedCode ?? 131047;
      const title = code === 131047 ? "Re-engagement message" : code === 130429 ? "Rate limit hit" : "Message undeliverable";
      queueStatus({ ...base, status: "failed", errors: [{ code, title, message: title, error_data: { details: title } }] });
      return;
    }
    queueStatus({ ...base, status: "sent" });
    queueStatus({ ...base, status: "delivered" });
  }

  const fake = await startFake(async (req, res) => {
    const parts = req.path.split("/").filter(Boolean);
    // a media URL handed out by GET /{media-id}: bytes only with the token
    if (parts[0] === "media-bytes") {
      if (!authorized(req)) return graphError(res, 401, 190, "Invalid OAuth access token");
      const m = media.get(parts[1] ?? "");
      if (!m) return graphError(res, 404, 100, "media not found");
      res.writeHead(200, { "content-type": m.mimetype }).end(m.data);
      return;
    }
    if (!authorized(req)) return graphError(res, 401, 190, "Error validating access token: Session has expired");
    if (req.method === "GET" && parts.length === 1 && parts[0] === phoneNumberId) {
      return json(res, 200, {
        id: phoneNumberId,
        display_phone_number: `+55 11 98888-7777`,
        verified_name: "Provedor Teste",
        quality_rating: "GREEN",
        ...(state.tier && { messaging_limit_tier: state.tier }),
      });
    }
    if (req.method === "POST" && parts[0] === phoneNumberId && parts[1] === "messages") return accept(req, res);
    if (req.method === "POST" && parts[0] === phoneNumberId && parts[1] === "media") {
      // multipart: messaging_product, type and the file
      const form = await new Request("http://x", {
        method: "POST",
        headers: { "content-type": String(req.headers["content-type"]) },
        body: req.rawBuffer,
      }).formData();
      const file = form.get("file");
      if (form.get("messaging_product") !== "whatsapp" || !(file instanceof Blob)) return graphError(res, 400, 100, "Invalid parameter");
      const id = String(1_000_000_000 + media.size + 1);
      media.set(id, { data: Buffer.from(await file.arrayBuffer()), mimetype: file.type || String(form.get("type")) });
      return json(res, 200, { id });
    }
    if (req.method === "GET" && parts[0] === wabaId && parts[1] === "message_templates") {
      const after = Number(req.query.get("after") ?? 0);
      const pageSize = 2;
      const page = templates.slice(after, after + pageSize);
      const next = after + pageSize < templates.length ? `${fake.url}/${wabaId}/message_templates?after=${after + pageSize}` : undefined;
      return json(res, 200, {
        data: page.map((t) => ({
          name: t.name,
          language: t.language,
          status: t.status,
          category: t.category,
          components: [{ type: "BODY", text: t.body }],
        })),
        paging: { cursors: {}, ...(next && { next }) },
      });
    }
    if (req.method === "GET" && parts.length === 1 && media.has(parts[0])) {
      const m = media.get(parts[0])!;
      return json(res, 200, {
        messaging_product: "whatsapp",
        url: `${fake.url}/media-bytes/${parts[0]}`,
        mime_type: m.mimetype,
        sha256: createHash("sha256").update(m.data).digest("hex"),
        file_size: m.data.length,
        id: parts[0],
      });
    }
    graphError(res, 400, 100, `Unsupported request: ${req.method} ${req.path}`);
  });

  return {
    url: fake.url,
    phoneNumberId,
    wabaId,
    state,
    accepted,
    media,
    templates,
    deliveries,
    answers,
    requests: fake.requests,
    sign,
    /** messages accepted per `biz_opaque_callback_data` */
    countByOurId(): Map<string, number> {
      const m = new Map<string, number>();
      for (const a of accepted) if (a.ourId) m.set(a.ourId, (m.get(a.ourId) ?? 0) + 1);
      return m;
    },
    /** A file a customer sends: stored as Meta keeps it (downloadable by id). */
    addMedia(data: Buffer, mimetype: string): string {
      const id = String(2_000_000_000 + media.size + 1);
      media.set(id, { data, mimetype });
      return id;
    },
    /** The payload of a customer's message (Meta's shape); `message` is merged over { from, id, timestamp }. */
    customerPayload(from: string, name: string, message: Record<string, unknown>) {
      const id = (message.id as string) ?? `wamid.IN${randomBytes(10).toString("hex")}`;
      return {
        id,
        payload: envelope({
          contacts: [{ profile: { name }, wa_id: from }],
          messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
        }),
      };
    },
    /** A customer writes: posted to the webhook (until 200); opens their 24 h window. Answers the wamid. */
    async customerSends(from: string, name: string, message: Record<string, unknown>): Promise<string> {
      const { id, payload } = this.customerPayload(from, name, message);
      lastInbound.set(from, Date.now());
      await deliverUntilOk(payload);
      return id;
    },
    /** Posts a payload as is, with the signature given (or a right one): answers the product's HTTP status. */
    async post(payload: unknown, signature?: string | null): Promise<number> {
      const raw = JSON.stringify(payload);
      const headers: Record<string, string> = { "content-type": "application/json" };
      const sig = signature === undefined ? sign(raw) : signature;
      if (sig !== null) headers["x-hub-signature-256"] = sig;
      return postOnce(raw, headers);
    },
    /** The customer reads one of our messages. */
    read(wamid: string) {
      const a = accepted.find((x) => x.wamid === wamid);
      queueStatus({ id: wamid, status: "read", recipient_id: a?.to ?? "", ...(a?.ourId && { biz_opaque_callback_data: a.ourId }) });
    },
    /** Opens a customer's window without a message (as if they had written earlier). */
    openWindow(number: string) {
      lastInbound.set(number, Date.now());
    },
    /** Resolves when every status queued so far was delivered. */
    settled: () => pending,
    async close() {
      closed = true;
      await fake.close();
    },
  };
}

export type FakeGraph = Awaited<ReturnType<typeof startFakeGraph>>;
