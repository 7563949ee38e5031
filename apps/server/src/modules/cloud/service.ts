import { createHmac, timingSafeEqual } from "node:crypto";
import { type ChatWindowAnswer, type CloudTemplate, type CloudTemplatesAnswer, renderTemplate } from "@balcao/contract";
import { and, eq, sql } from "drizzle-orm";
import { GraphClient, GraphError, reasonOf } from "../../channels/cloud/graph.js";
import { changesOf, type WebhookBody } from "../../channels/cloud/normalize.js";
import { approvedTemplates } from "../../channels/cloud/templates.js";
import type { CloudConfig, CloudNumberInfo } from "../../channels/cloud/session.js";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";

/**
 * The Cloud API's side of the product: the connection's settings for the channel, the one webhook
 * (verification, signature, hand-over to the number's session), the approved templates (cached)
 * and the customer's 24-hour window.
 */

/**
 * The send ledger's entries (channels/cloud/session.ts: `out:<our id>`, `seen:<our id>`,
 * `wamid:<wamid>` → our id) older than `days` are removed, except those of a message still in the
 * outbox (queued or failed and waiting for 'Reenviar': its ledger is what keeps a send from going
 * twice). A status Meta posts for a message after that long is ignored. The job runner calls it.
 */
export async function pruneCloudLedger(db: DbOrTx, days = 30): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    with d as (
      delete from whatsapp_auth_keys k
      where k.updated_at < now() - make_interval(days => ${days})
        and k.whatsapp_id in (select id from whatsapps where type = 'cloud')
        and (k.key like 'out:%' or k.key like 'seen:%' or k.key like 'wamid:%')
        and not exists (
          select 1 from outbox o where o.whatsapp_id = k.whatsapp_id
            and o.wid = case when k.key like 'wamid:%' then k.value else substr(k.key, strpos(k.key, ':') + 1) end)
      returning 1)
    select count(*)::int as n from d`);
  return Number(rows[0]?.n ?? 0);
}

/** A chat's free-form window: 24 h after the customer's last message. */
export const WINDOW_MS = 24 * 3600_000;
const TEMPLATE_TTL_MS = 10 * 60_000;

export async function cloudConfig(db: DbOrTx, whatsappId: number): Promise<CloudConfig | undefined> {
  const [r] = await db
    .select({
      phoneNumberId: whatsapps.cloudPhoneNumberId,
      businessAccountId: whatsapps.cloudBusinessAccountId,
      accessToken: whatsapps.cloudAccessToken,
      defaultTemplate: whatsapps.cloudDefaultTemplate,
    })
    .from(whatsapps)
    .where(and(eq(whatsapps.id, whatsappId), eq(whatsapps.type, "cloud")));
  return r?.phoneNumberId
    ? {
        phoneNumberId: r.phoneNumberId,
        businessAccountId: r.businessAccountId,
        accessToken: r.accessToken,
        defaultTemplate: r.defaultTemplate,
      }
    : undefined;
}

export async function saveNumberInfo(ctx: AppContext, whatsappId: number, info: CloudNumberInfo): Promise<void> {
  await ctx.db
    .update(whatsapps)
    .set({ cloudTierLimit: info.tierLimit ?? null })
    .where(eq(whatsapps.id, whatsappId));
}

/** GET /webhooks/whatsapp: Meta's verification — the token must be one Cloud connection's verifyToken. */
export async function verifyChallenge(db: DbOrTx, query: Record<string, unknown>): Promise<string | undefined> {
  const mode = query["hub.mode"];
  const token = query["hub.verify_token"];
  const challenge = query["hub.challenge"];
  if (mode !== "subscribe" || typeof token !== "string" || !token || typeof challenge !== "string") return undefined;
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.type, "cloud"), eq(whatsapps.cloudVerifyToken, token)))
    .limit(1);
  return row ? challenge : undefined;
}

/** `sha256=` + the hex HMAC-SHA256 of the raw body with the app secret, compared in constant time. */
export function signatureValid(raw: Buffer, header: unknown, appSecret: string): boolean {
  if (typeof header !== "string" || !header.startsWith("sha256=") || !appSecret) return false;
  const expected = Buffer.from(createHmac("sha256", appSecret).update(raw).digest("hex"), "utf8");
  const given = Buffer.from(header.slice(7).toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * POST /webhooks/whatsapp: every change's number is found; the signature must be right for each
 * (else 401 and nothing kept); then each change goes to its session, which journals its events;
 * the answer (200) comes once all are kept. A change for a number we do not have is skipped; a
 * number whose session does not run in this process answers 503 (Meta delivers again).
 */
/** Owner call (several processes): a webhook change received by a process that does not own the number's session. */
export const CLOUD_WEBHOOK_CALL = "cloud.webhook";
export function cloudWebhookCallHandler(channels: ChannelManager) {
  return async (whatsappId: number, value: unknown): Promise<boolean> => {
    const session = channels.get(whatsappId);
    if (!session?.receivePush) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 503);
    await session.receivePush(value);
    return true;
  };
}

/**
 * Meta's webhook. Each change goes to its number's session: this process's, or (several processes) the
 * owner's through `ask`; answered once it is journaled there. No session anywhere: 503, Meta redelivers.
 */
export async function receiveWebhook(
  ctx: AppContext,
  channels: ChannelManager,
  raw: Buffer,
  signature: unknown,
  ask?: (whatsappId: number, method: string, args: unknown) => Promise<unknown>,
): Promise<void> {
  let body: WebhookBody;
  try {
    body = JSON.parse(raw.toString("utf8")) as WebhookBody;
  } catch {
    throw new AppError("ERR_WEBHOOK_SIGNATURE", 401);
  }
  const changes = changesOf(body);
  const ids = [...new Set(changes.map((c) => c.phoneNumberId))];
  const conns = ids.length
    ? await ctx.db
        .select({ id: whatsapps.id, phoneNumberId: whatsapps.cloudPhoneNumberId, appSecret: whatsapps.cloudAppSecret })
        .from(whatsapps)
        .where(
          and(
            eq(whatsapps.type, "cloud"),
            sql`${whatsapps.cloudPhoneNumberId} in (${sql.join(
              ids.map((i) => sql`${i}`),
              sql`, `,
            )})`,
          ),
        )
    : [];
  const byNumber = new Map(conns.map((c) => [c.phoneNumberId, c]));
  // nothing we know, or a bad signature for any number we know: refused, nothing kept
  if (!conns.length || conns.some((c) => !signatureValid(raw, signature, c.appSecret))) throw new AppError("ERR_WEBHOOK_SIGNATURE", 401);
  for (const change of changes) {
    const conn = byNumber.get(change.phoneNumberId);
    if (!conn) continue;
    const session = channels.get(conn.id);
    if (session?.receivePush) await session.receivePush(change.value);
    else if (ask) await ask(conn.id, CLOUD_WEBHOOK_CALL, change.value);
    else throw new AppError("ERR_WAPP_NOT_INITIALIZED", 503);
  }
}

// ---------- templates ----------

const templateCache = new Map<number, { at: number; answer: CloudTemplatesAnswer }>();

/** The approved templates of the connection's business account (GET /{waba}/message_templates, every page), cached 10 min. */
export async function listTemplates(ctx: AppContext, whatsappId: number, refresh = false): Promise<CloudTemplatesAnswer> {
  const hit = templateCache.get(whatsappId);
  if (hit && !refresh && Date.now() - hit.at < TEMPLATE_TTL_MS) return hit.answer;
  const config = await cloudConfig(ctx.db, whatsappId);
  if (!config) throw new AppError("ERR_NOT_CLOUD_CONNECTION", 400);
  const graph = new GraphClient({ baseUrl: graphUrl(ctx), allow: ctx.config.allowedPrivateHosts }, () => config.accessToken);
  let templates: CloudTemplate[];
  try {
    templates = await approvedTemplates(graph, config.businessAccountId, graphUrl(ctx));
  } catch (err) {
    if (err instanceof GraphError) throw new AppError("ERR_CLOUD_GRAPH", 502, { graph: [reasonOf(err.code, err.title)] });
    throw err;
  }
  const answer = { templates, fetchedAt: new Date().toISOString() };
  templateCache.set(whatsappId, { at: Date.now(), answer });
  return answer;
}

export function graphUrl(ctx: AppContext): string {
  return ctx.config.WHATSAPP_GRAPH_URL;
}

/**
 * A template to send on a ticket's connection: it must be an approved one of the connection's
 * business account, with as many variables as its body takes; the message shows its rendered text.
 */
export async function templateContent(
  ctx: AppContext,
  whatsappId: number | null,
  t: { name: string; language: string; variables?: string[] },
): Promise<{ kind: "text"; body: string; template: { name: string; language: string; variables: string[] } }> {
  if (whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
  const { templates } = await listTemplates(ctx, whatsappId);
  const found = templates.find((x) => x.name === t.name && x.language === t.language);
  if (!found) throw new AppError("ERR_VALIDATION", 400, { template: ["modelo não aprovado ou inexistente"] });
  const variables = (t.variables ?? []).map((v) => v.replace(/\s+/g, " ").trim());
  if (variables.length !== found.variables || variables.some((v) => !v))
    throw new AppError("ERR_VALIDATION", 400, { "template.variables": [`o modelo pede ${found.variables} variável(is)`] });
  return { kind: "text", body: renderTemplate(found.body, variables), template: { name: found.name, language: found.language, variables } };
}

// ---------- the 24 h window ----------

/** When the customer of a ticket last wrote on its connection (any ticket of the contact there). */
export async function lastInboundAt(db: DbOrTx, ticketId: number): Promise<Date | undefined> {
  const { rows } = await db.execute<{ at: string | Date | null }>(sql`
    select max(m.created_at) as at from tickets t
    join tickets t2 on t2.contact_id = t.contact_id and t2.whatsapp_id = t.whatsapp_id
    join messages m on m.ticket_id = t2.id and not m.from_me
    where t.id = ${ticketId}`);
  const at = rows[0]?.at;
  return at ? new Date(at) : undefined;
}

export async function chatWindow(db: DbOrTx, ticketId: number, now = Date.now()): Promise<ChatWindowAnswer> {
  const { rows } = await db.execute<{ type: string | null }>(sql`
    select w.type from tickets t left join whatsapps w on w.id = t.whatsapp_id where t.id = ${ticketId}`);
  const channel = rows[0]?.type ?? "baileys";
  const last = await lastInboundAt(db, ticketId);
  const closesAt = last ? new Date(last.getTime() + WINDOW_MS) : undefined;
  return {
    channel,
    open: channel !== "cloud" || (closesAt !== undefined && closesAt.getTime() > now),
    closesAt: closesAt?.toISOString() ?? null,
  };
}
