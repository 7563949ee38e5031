import type { AllowList } from "../../lib/outgoing-http.js";
import {
  type Address,
  type ChannelDeps,
  type ChannelFactory,
  ChannelSendError,
  type ChannelSession,
  type OutboundContent,
  type QuotedRef,
  type SendOptions,
  type SentMessage,
} from "../channel.js";
import { actionOf, GraphClient, GraphError, RATE_LIMIT_CODES, reasonOf } from "./graph.js";
import { type CloudMediaRef, messageEvents, referencedWamids, statusItems, type WebhookValue } from "./normalize.js";
import { requestBody } from "./outbound.js";

/**
 * The WhatsApp Cloud API (Meta's hosted, official API) behind the channel interface. Unlike
 * Baileys there is no socket: the session is "connected" once a test call to the Graph API
 * (`GET /{phone-number-id}`) succeeds; sends are Graph calls; what WhatsApp tells (customers'
 * messages, statuses of ours) arrives on the one webhook (modules/cloud), which hands each change
 * to the session of its number (`handleWebhook`).
 *
 * Ids: a customer's message is known by its wamid. Ours keep the id they were stored with — Meta
 * picks the wamid, so each send carries our id in `biz_opaque_callback_data`, which Meta echoes in
 * every status; the wamid is kept beside it (for quotes of our messages).
 *
 * Nothing twice (the crash-safe rule). Meta keeps no idempotency key: a POST sent twice is two
 * messages. So the session keeps a send ledger in its auth-state store (the database):
 *   `out:<our id>`   written BEFORE the POST ({ at }), completed with the wamid after it;
 *   `seen:<our id>`  written when a status webhook of the message arrives (Meta had it);
 *   `wamid:<wamid>`  our id again.
 * A send of a message whose ledger entry has a wamid or a status is done (not sent again). An
 * entry without either is a send that had started when the process died (or timed out): Meta may
 * or may not have taken it. It is not sent again until a grace window has passed without any
 * status of it — counted from the later of the attempt and this session's start, since statuses
 * Meta posted while the server was down arrive only once it is back (Meta redelivers). A `sent`
 * (or any) status in the window means Meta had it: done. No status in the window: it never reached
 * Meta, and it goes again. A send Meta answered with an error is known not sent: the entry is
 * dropped.
 */

export interface CloudConfig {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  /** sent instead of an automatic free-form message outside the customer's 24 h window; its {{1}} is the message's text */
  defaultTemplate?: { name: string; language: string } | null;
}

/** What the number's `GET /{phone-number-id}` tells besides "it works". */
export interface CloudNumberInfo {
  displayPhoneNumber: string;
  verifiedName?: string;
  qualityRating?: string;
  /** business-initiated conversations per 24 h (TIER_1K → 1000…); undefined when unlimited or unknown */
  tierLimit?: number;
}

export interface CloudOptions {
  graphUrl: string;
  allow: AllowList;
  /** the connection's Cloud settings (from the database) */
  config: (whatsappId: number) => Promise<CloudConfig | undefined>;
  /** the number answered its test call (tier, quality) */
  onInfo?: (whatsappId: number, info: CloudNumberInfo) => Promise<void>;
  /** how long a send of unknown outcome waits for a status before it goes again (ms) */
  graceMs: number;
  /** delay before a send Meta refused for a rate limit (130429, 131056) goes again; n = 1, 2… */
  rateLimitDelayMs?: (n: number) => number;
  timeoutMs?: number;
}

type LedgerEntry = { at: number; wamid?: string; body?: Record<string, unknown>; tries?: number };
type RetryItem = { id: string; at: number };

const RETRIES = "cloud:retries";
/** recipients of business-initiated sends (outside the window) in the last 24 h: Meta's messaging tier counts them */
const TIER = "cloud:tier";
const DAY_MS = 24 * 3600_000;

/** What goes instead of a free-form message outside the 24 h window. */
export const WINDOW_CLOSED = "janela de 24 h fechada — envie um modelo";
const MAX_RATE_RETRIES = 6;

const TIERS: Record<string, number> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
};

/** A Cloud API number's pace: Meta's default throughput of 80 messages per second (reference §8); declared when the engine is registered. */
export const CLOUD_PACE = { minIntervalMs: 13, jitterMs: 0, burst: 20 };

export class CloudSession implements ChannelSession {
  readonly type = "cloud" as const;
  readonly whatsappId: number;
  status: "DISCONNECTED" | "OPENING" | "CONNECTED" = "DISCONNECTED";
  number = "";
  /** Meta's messaging tier of the number (conversations it may start per 24 h); undefined: unknown or unlimited */
  tierLimit?: number;
  private config?: CloudConfig;
  private readonly graph: GraphClient;
  private startedAt = Date.now();
  private timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly deps: ChannelDeps,
    private readonly opts: CloudOptions,
  ) {
    this.whatsappId = deps.whatsappId;
    this.graph = new GraphClient(
      { baseUrl: opts.graphUrl, allow: opts.allow, timeoutMs: opts.timeoutMs },
      () => this.config?.accessToken ?? "",
    );
  }

  get connected(): boolean {
    return this.status === "CONNECTED";
  }

  get phoneNumberId(): string | undefined {
    return this.config?.phoneNumberId;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.startedAt = Date.now();
    this.config = await this.opts.config(this.whatsappId);
    if (!this.config?.phoneNumberId || !this.config.accessToken) {
      await this.setStatus("DISCONNECTED", "configuração da API oficial incompleta");
      return;
    }
    await this.setStatus("OPENING");
    try {
      const info = await this.graph.call<{
        display_phone_number?: string;
        verified_name?: string;
        quality_rating?: string;
        messaging_limit_tier?: string;
      }>("GET", `${this.config.phoneNumberId}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`);
      if (this.stopped) return;
      this.number = (info.display_phone_number ?? "").replace(/\D/g, "");
      this.tierLimit = info.messaging_limit_tier ? TIERS[info.messaging_limit_tier] : undefined;
      await this.opts
        .onInfo?.(this.whatsappId, {
          displayPhoneNumber: this.number,
          verifiedName: info.verified_name,
          qualityRating: info.quality_rating,
          tierLimit: info.messaging_limit_tier ? TIERS[info.messaging_limit_tier] : undefined,
        })
        .catch((err) => this.deps.log.warn({ err, whatsappId: this.whatsappId }, "saving the Cloud number's info failed"));
      await this.setStatus("CONNECTED");
      await this.loadRetries();
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (err.network || actionOf(err) === "retry") {
        // Meta unreachable for now: try again in a while
        await this.setStatus("DISCONNECTED", `Graph API inacessível (${err.title})`);
        this.later(30_000, () => void this.start().catch(() => {}));
      } else await this.setStatus("DISCONNECTED", reasonOf(err.code, err.title));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.status = "DISCONNECTED";
  }

  /** There is nothing to log out of: the session stops (the send ledger is kept: it is what prevents doubles). */
  async logout(): Promise<void> {
    await this.stop();
    await this.deps.emit({ type: "status", status: "DISCONNECTED", qrcode: "", reason: "logged out" });
  }

  /** No QR code on the Cloud API: the test call is made again. */
  async requestNewQr(): Promise<void> {
    await this.stop();
    await this.start();
  }

  private async setStatus(status: "DISCONNECTED" | "OPENING" | "CONNECTED", reason?: string) {
    this.status = status;
    await this.deps.emit({
      type: "status",
      status,
      qrcode: "",
      ...(reason !== undefined ? { reason } : status === "CONNECTED" ? { reason: "" } : {}),
      ...(status === "CONNECTED" && { number: this.number }),
    });
  }

  private later(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }

  // ---------- the ledger ----------

  private async ledger(keys: string[]): Promise<Map<string, string>> {
    return this.deps.authState.get(keys);
  }

  private async entryOf(id: string): Promise<LedgerEntry | undefined> {
    const raw = (await this.ledger([`out:${id}`])).get(`out:${id}`);
    return raw ? (JSON.parse(raw) as LedgerEntry) : undefined;
  }

  // ---------- the webhook ----------

  /**
   * One change of a webhook POST for this number: its events are emitted (each resolves once
   * journaled), the statuses noted in the ledger. Resolves when everything is kept: the webhook
   * answers 200 only then.
   */
  /** ChannelSession.receivePush: a webhook change of this number. */
  receivePush(value: unknown): Promise<void> {
    return this.handleWebhook(value as WebhookValue);
  }

  async handleWebhook(value: WebhookValue): Promise<void> {
    const wamids = referencedWamids(value);
    const known = wamids.length ? await this.ledger(wamids.map((w) => `wamid:${w}`)) : new Map<string, string>();
    const ourId = (wamid: string) => known.get(`wamid:${wamid}`);
    const seen = new Map<string, string | null>();
    const events = messageEvents(value, ourId, (ref) => this.downloadMedia(ref));
    const after: (() => Promise<void>)[] = [];
    for (const s of statusItems(value)) {
      const id = s.ourId ?? ourId(s.wamid);
      if (!id) continue; // not one of ours (sent from another tool on the same number)
      seen.set(`seen:${id}`, s.kind);
      if (s.ourId) seen.set(`wamid:${s.wamid}`, s.ourId);
      if (s.kind === "ack") events.push({ type: "ack", id, ack: s.ack });
      else if (RATE_LIMIT_CODES.has(s.code)) after.push(() => this.rateLimited(id, s.code, s.title));
      else events.push({ type: "failed", id, reason: reasonOf(s.code, s.title) });
    }
    if (seen.size) await this.deps.authState.set(seen);
    for (const e of events) await this.deps.emit(e);
    for (const f of after) await f();
  }

  /** Meta took the message but refused it for a rate limit: it goes again later (it was not delivered). */
  private async rateLimited(id: string, code: number, title: string) {
    const entry = await this.entryOf(id);
    const tries = (entry?.tries ?? 0) + 1;
    if (!entry?.body || tries > MAX_RATE_RETRIES) {
      await this.deps.emit({ type: "failed", id, reason: reasonOf(code, title) });
      return;
    }
    const at = Date.now() + (this.opts.rateLimitDelayMs ?? ((n) => Math.min(600_000, 6000 * 4 ** (n - 1))))(tries);
    const retries = await this.retries();
    await this.deps.authState.set(
      new Map([
        [`out:${id}`, JSON.stringify({ ...entry, tries })],
        [RETRIES, JSON.stringify([...retries.filter((r) => r.id !== id), { id, at }])],
      ]),
    );
    this.schedule({ id, at });
  }

  private async retries(): Promise<RetryItem[]> {
    const raw = (await this.ledger([RETRIES])).get(RETRIES);
    return raw ? (JSON.parse(raw) as RetryItem[]) : [];
  }

  private async loadRetries() {
    for (const r of await this.retries()) this.schedule(r);
  }

  private schedule(r: RetryItem) {
    this.later(Math.max(0, r.at - Date.now()), () => void this.resend(r.id));
  }

  /** A rate-limited message goes again with its stored body (Meta said it was not delivered: no double). */
  private async resend(id: string) {
    try {
      const entry = await this.entryOf(id);
      if (entry?.body && this.connected) {
        const res = await this.graph.call<{ messages?: { id?: string }[] }>("POST", `${this.config?.phoneNumberId}/messages`, {
          json: entry.body,
        });
        const wamid = res.messages?.[0]?.id;
        await this.deps.authState.set(
          new Map([
            [`out:${id}`, JSON.stringify({ ...entry, at: Date.now(), wamid })],
            ...(wamid ? [[`wamid:${wamid}`, id] as [string, string]] : []),
          ]),
        );
      }
      const rest = (await this.retries()).filter((r) => r.id !== id);
      await this.deps.authState.set(new Map([[RETRIES, JSON.stringify(rest)]]));
    } catch (err) {
      this.deps.log.warn({ err, whatsappId: this.whatsappId }, "sending a rate-limited message again failed; later");
      this.later(60_000, () => void this.resend(id));
    }
  }

  // ---------- ChannelSession ----------

  async send(to: Address, content: OutboundContent, quoted: QuotedRef | undefined, opts: SendOptions): Promise<SentMessage> {
    if (!this.connected || !this.config) throw new ChannelSendError("a conexão da API oficial não está conectada", false);
    const id = opts.id;
    const recipient = (to.number ?? "").replace(/\D/g, "");
    if (!recipient) throw new ChannelSendError(to.groupId ? "a API oficial não envia para grupos" : "sem número", true);
    const led = await this.ledger([`out:${id}`, `seen:${id}`]);
    const raw = led.get(`out:${id}`);
    const entry = raw ? (JSON.parse(raw) as LedgerEntry) : undefined;
    if (entry?.wamid || (entry && led.get(`seen:${id}`))) return { id, timestamp: new Date(entry.at) };
    if (entry) {
      // started before, outcome unknown: wait for its statuses until the grace window ends
      const until = Math.max(entry.at, this.startedAt) + this.opts.graceMs;
      if (Date.now() < until) throw new ChannelSendError("aguardando os status de um envio anterior", false, { retryAt: until });
      this.deps.log.info({ whatsappId: this.whatsappId, id }, "no status of an earlier send in the grace window: sending again");
    }
    const outside = opts.live === false;
    const sending = this.windowed(content, opts);
    const tier = outside ? await this.tierCheck(recipient) : undefined;
    const body = await this.bodyOf(recipient, sending, quoted, id);
    const at = Date.now();
    await this.deps.authState.set(new Map([[`out:${id}`, JSON.stringify({ at, body } satisfies LedgerEntry)]]));
    let wamid: string | undefined;
    try {
      const res = await this.graph.call<{ messages?: { id?: string }[] }>("POST", `${this.config.phoneNumberId}/messages`, { json: body });
      wamid = res.messages?.[0]?.id;
    } catch (err) {
      throw await this.sendError(id, err, at);
    }
    await this.deps.authState.set(
      new Map([
        [`out:${id}`, JSON.stringify({ at, wamid: wamid ?? "?", body } satisfies LedgerEntry)],
        ...(wamid ? [[`wamid:${wamid}`, id] as [string, string]] : []),
        ...(tier ? [[TIER, JSON.stringify(tier)] as [string, string]] : []),
      ]),
    );
    return { id, timestamp: new Date(at) };
  }

  /**
   * Outside the customer's 24 h window only a template may go: an automatic message goes as the
   * connection's default template (its {{1}} the message's text); anything else is refused here
   * (Meta would fail it with 131047).
   */
  private windowed(content: OutboundContent, opts: SendOptions): OutboundContent {
    if (opts.live !== false || (content.kind === "text" && content.template)) return content;
    const fallback = this.config?.defaultTemplate;
    if (!opts.automatic || !fallback) throw new ChannelSendError(WINDOW_CLOSED, true);
    const text = (content.kind === "text" ? content.body : content.kind === "media" ? (content.caption ?? "") : "")
      .replace(/\s+/g, " ")
      .trim();
    return { kind: "text", body: text, template: { ...fallback, variables: text ? [text.slice(0, 1024)] : [] } };
  }

  /**
   * Meta's messaging tier: a number starts at most `tierLimit` conversations (distinct customers
   * outside their window) per 24 h. Answers the updated list to keep after the send, or refuses
   * until the oldest one leaves the 24 h.
   */
  private async tierCheck(to: string): Promise<{ to: string; at: number }[]> {
    const now = Date.now();
    const raw = (await this.ledger([TIER])).get(TIER);
    const list = ((raw ? JSON.parse(raw) : []) as { to: string; at: number }[]).filter((x) => now - x.at < DAY_MS);
    if (list.some((x) => x.to === to)) return list;
    if (this.tierLimit !== undefined && list.length >= this.tierLimit) {
      const oldest = Math.min(...list.map((x) => x.at));
      throw new ChannelSendError(`limite do nível da Meta atingido (${this.tierLimit} conversas em 24 h)`, false, {
        retryAt: oldest + DAY_MS,
      });
    }
    return [...list, { to, at: now }];
  }

  /** A failed POST: known refusals drop the ledger entry (not sent); no answer keeps it (unknown). */
  private async sendError(id: string, err: unknown, at: number): Promise<ChannelSendError> {
    if (!(err instanceof GraphError)) return new ChannelSendError(err instanceof Error ? err.message : String(err), false);
    if (err.network) return new ChannelSendError(`Graph API: ${err.title}`, false, { retryAt: at + this.opts.graceMs });
    await this.deps.authState.set(new Map([[`out:${id}`, null]]));
    const action = actionOf(err);
    if (action === "disconnect") {
      await this.stop();
      await this.setStatus("DISCONNECTED", reasonOf(err.code, err.title));
      return new ChannelSendError(reasonOf(err.code, err.title), false);
    }
    if (action === "retry") {
      const wait = err.code === 131056 ? 6000 : err.code === 130429 ? 2000 : undefined;
      return new ChannelSendError(reasonOf(err.code, err.title), false, wait ? { retryAt: Date.now() + wait } : undefined);
    }
    return new ChannelSendError(reasonOf(err.code, err.title), true);
  }

  private async wamidOf(quoted: QuotedRef | undefined): Promise<string | undefined> {
    if (!quoted) return undefined;
    if (!quoted.fromMe) return quoted.id;
    const e = await this.entryOf(quoted.id);
    return e?.wamid && e.wamid !== "?" ? e.wamid : undefined;
  }

  private async bodyOf(to: string, content: OutboundContent, quoted: QuotedRef | undefined, id: string): Promise<Record<string, unknown>> {
    const context = await this.wamidOf(quoted);
    // a file goes up first (its id names it in the message); the request's body is then a pure function of the rest
    const mediaId = content.kind === "media" ? await this.upload(content.data, content.mimetype, content.fileName) : undefined;
    return requestBody({ to, content, context, id, mediaId });
  }

  /** `POST /{phone-number-id}/media` (multipart): the id to send the file by. */
  private async upload(data: Buffer, mimetype: string, fileName?: string): Promise<string> {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", mimetype);
    form.set("file", new Blob([new Uint8Array(data)], { type: mimetype }), fileName ?? "file");
    try {
      const res = await this.graph.call<{ id?: string }>("POST", `${this.config?.phoneNumberId}/media`, { form });
      if (!res.id) throw new ChannelSendError("o envio do arquivo não devolveu um id", false);
      return res.id;
    } catch (err) {
      if (err instanceof GraphError) {
        const action = actionOf(err);
        throw new ChannelSendError(reasonOf(err.code, err.title), action === "fail");
      }
      throw err;
    }
  }

  /** A customer's media: `GET /{media-id}` answers a short-lived URL, fetched with the same token. */
  async downloadMedia(ref: unknown): Promise<Buffer> {
    const mediaId = (ref as CloudMediaRef | undefined)?.mediaId;
    if (typeof mediaId !== "string" || !/^[\w.-]+$/.test(mediaId)) throw new Error("bad Cloud media ref");
    if (!this.config) this.config = await this.opts.config(this.whatsappId);
    const meta = await this.graph.call<{ url?: string }>("GET", `${mediaId}?phone_number_id=${this.config?.phoneNumberId ?? ""}`);
    if (!meta.url) throw new Error("Cloud media without url");
    return this.graph.download(meta.url);
  }

  async deleteForEveryone(): Promise<void> {
    throw new ChannelSendError("a API oficial não apaga mensagens enviadas", true);
  }

  async setTyping(): Promise<void> {
    // the Cloud API shows typing only with a read receipt; nothing to do
  }

  async markRead(_to: Address, ids: { id: string; fromMe: boolean }[]): Promise<void> {
    if (!this.connected || !this.config) return;
    // marking the latest one read marks the earlier ones too
    const last = ids.filter((i) => !i.fromMe).at(-1);
    if (!last) return;
    await this.graph
      .call("POST", `${this.config.phoneNumberId}/messages`, {
        json: { messaging_product: "whatsapp", status: "read", message_id: last.id },
      })
      .catch((err) => this.deps.log.debug({ err }, "Cloud read receipt not sent"));
  }

  /** The Cloud API has no contact lookup: a number is taken as it is (a send to a number without WhatsApp fails with 131026). */
  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    const digits = number.replace(/\D/g, "");
    return digits.length >= 8 && digits.length <= 20 ? { exists: true, number: digits } : { exists: false };
  }

  async profilePictureUrl(): Promise<string | undefined> {
    return undefined;
  }

  async rejectCall(): Promise<void> {}
}

/** The Cloud sessions of this process, found by the webhook by their number id. */
export class CloudHub {
  private readonly sessions = new Map<number, CloudSession>();
  readonly factory: ChannelFactory;

  constructor(opts: CloudOptions) {
    this.factory = (deps) => {
      const session = new CloudSession(deps, opts);
      this.sessions.set(deps.whatsappId, session);
      return session;
    };
  }

  get(whatsappId: number): CloudSession | undefined {
    return this.sessions.get(whatsappId);
  }
}
