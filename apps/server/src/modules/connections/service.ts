import { randomBytes } from "node:crypto";
import {
  type ConnectionStatus,
  MSG,
  type TypebotSettingsBody,
  type Whatsapp,
  type WhatsappBody,
  type WhatsappUpdateBody,
} from "@balcao/contract";
import { asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { queues, whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";
import { iso } from "../../lib/sql.js";
import { cloudColumns, cloudSettingsOf } from "../cloud/settings.js";
import { type ConnectionQueue, queuesOf } from "../connection-facts/info.js";
import { DEFAULT_HEALTH_SETTINGS, type HealthSettings, healthSettingsOf, saveHealthSettings } from "../health/service.js";

type WhatsappRow = typeof whatsapps.$inferSelect;

function toWhatsapp(r: WhatsappRow, qs: ConnectionQueue[], health: HealthSettings = DEFAULT_HEALTH_SETTINGS): Whatsapp {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    status: r.status,
    qrcode: r.qrcode,
    retries: r.retries,
    number: r.number,
    disconnectReason: r.disconnectReason,
    isDefault: r.isDefault,
    acceptCalls: r.acceptCalls,
    callRefuseMessage: r.callRefuseMessage,
    greetingMessage: r.greetingMessage,
    farewellMessage: r.farewellMessage,
    hasToken: !!r.token,
    queues: qs.map((q) => ({ id: q.id, name: q.name, color: q.color })),
    sendIntervalMs: r.sendIntervalMs,
    sendJitterMs: r.sendJitterMs,
    sendBurst: r.sendBurst,
    replyGapMs: r.replyGapMs,
    typebot: {
      enabled: r.typebotEnabled,
      baseUrl: r.typebotBaseUrl,
      slug: r.typebotSlug,
      hasApiKey: r.typebotApiKey !== "",
      expiryMinutes: r.typebotExpiryMinutes,
      endKeyword: r.typebotEndKeyword,
      unknownMessage: r.typebotUnknownMessage,
      delayMs: r.typebotDelayMs,
    },
    selfService: r.selfService,
    cloud: cloudSettingsOf(r),
    ...health,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** A connection as agents and supervisors read it: the Cloud webhook's verify token is the admins' (it proves a webhook is Meta's). */
export function forNonAdmins(w: Whatsapp): Whatsapp {
  return w.cloud ? { ...w, cloud: { ...w.cloud, verifyToken: "" } } : w;
}

/** Connections, in the order they were created. The API token is never answered (hasToken says whether one is set). */
export async function listWhatsapps(db: DbOrTx): Promise<Whatsapp[]> {
  const rows = await db.select().from(whatsapps).orderBy(asc(whatsapps.id));
  const ids = rows.map((r) => r.id);
  const qs = await queuesOf(db, ids);
  const health = await healthSettingsOf(db, ids);
  return rows.map((r) => toWhatsapp(r, qs.get(r.id) ?? [], health.get(r.id)));
}

export async function getWhatsapp(db: DbOrTx, id: number): Promise<Whatsapp> {
  const [row] = await db.select().from(whatsapps).where(eq(whatsapps.id, id));
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  const qs = await queuesOf(db, [id]);
  const health = await healthSettingsOf(db, [id]);
  return toWhatsapp(row, qs.get(id) ?? [], health.get(id));
}

function mapUnique(err: unknown): never {
  if (isUniqueViolation(err, "whatsapps_name_key")) throw new AppError("ERR_WAPP_NAME_ALREADY_EXISTS");
  if (isUniqueViolation(err, "whatsapps_token_key")) throw new AppError("ERR_VALIDATION", 400, { token: [MSG.inUse] });
  if (isUniqueViolation(err, "whatsapps_one_default")) throw new AppError("ERR_NO_OTHER_WHATSAPP");
  if (isUniqueViolation(err, "whatsapps_cloud_phone_key"))
    throw new AppError("ERR_VALIDATION", 400, { "cloud.phoneNumberId": [MSG.inUse] });
  throw err;
}

async function setQueues(tx: DbOrTx, whatsappId: number, queueIds: number[]) {
  const unique = [...new Set(queueIds)];
  if (unique.length) {
    const found = await tx.select({ id: queues.id }).from(queues).where(inArray(queues.id, unique));
    if (found.length !== unique.length) throw new AppError("ERR_NO_QUEUE_FOUND");
  }
  await tx.delete(whatsappQueues).where(eq(whatsappQueues.whatsappId, whatsappId));
  if (unique.length) await tx.insert(whatsappQueues).values(unique.map((queueId) => ({ whatsappId, queueId })));
}

/** With more than one queue the customer gets a menu, which opens with the connection's greeting. */
function assertGreeting(queueCount: number, greeting: string) {
  if (queueCount > 1 && !greeting.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
}

/**
 * Creates a connection and starts its session. The first connection is the default; a new
 * default takes the flag from the previous one (there is always exactly one).
 */
export async function createWhatsapp(ctx: AppContext, channels: ChannelManager, input: WhatsappBody): Promise<Whatsapp> {
  const queueIds = input.queueIds ?? [];
  assertGreeting(new Set(queueIds).size, input.greetingMessage ?? "");
  const whatsapp = await ctx.db
    .transaction(async (tx) => {
      const [{ n }] = await tx.select({ n: count() }).from(whatsapps);
      const isDefault = n === 0 || input.isDefault === true;
      if (isDefault) await tx.update(whatsapps).set({ isDefault: false }).where(eq(whatsapps.isDefault, true));
      const [row] = await tx
        .insert(whatsapps)
        .values({
          name: input.name,
          type: input.channel ?? input.type ?? "baileys",
          isDefault,
          ...cloudColumns(input.channel ?? input.type, input.cloud, undefined),
          acceptCalls: input.acceptCalls ?? true,
          callRefuseMessage: input.callRefuseMessage ?? "",
          greetingMessage: input.greetingMessage ?? "",
          farewellMessage: input.farewellMessage ?? "",
          token: input.token ? input.token : null,
          ...(input.sendIntervalMs !== undefined && { sendIntervalMs: input.sendIntervalMs }),
          ...(input.sendJitterMs !== undefined && { sendJitterMs: input.sendJitterMs }),
          ...(input.sendBurst !== undefined && { sendBurst: input.sendBurst }),
          ...(input.replyGapMs !== undefined && { replyGapMs: input.replyGapMs }),
          ...(input.selfService !== undefined && { selfService: input.selfService }),
        })
        .returning();
      await setQueues(tx, row.id, queueIds);
      await saveHealthSettings(tx, row.id, input);
      return getWhatsapp(tx, row.id);
    })
    .catch(mapUnique);
  ctx.events.publish("whatsapp.saved", { whatsapp });
  // several processes: a lease round (here or on another process) may find the new row and start it
  // first; starting it again would replace the QR code the page has just been shown
  await startSession(ctx, channels, whatsapp.id, "ensure");
  return getWhatsapp(ctx.db, whatsapp.id);
}

export async function updateWhatsapp(ctx: AppContext, channels: ChannelManager, id: number, input: WhatsappUpdateBody): Promise<Whatsapp> {
  let typeChanged = false;
  const whatsapp = await ctx.db
    .transaction(async (tx) => {
      // "no key update", not "update": a status change in flight holds the number's health row and
      // inserts rows that reference this one (their key-share check would wait on "for update"
      // while this waits on the health row: a deadlock on PostgreSQL)
      const [existing] = await tx.select().from(whatsapps).where(eq(whatsapps.id, id)).for("no key update");
      if (!existing) throw new AppError("ERR_NO_WAPP_FOUND");
      if (input.isDefault === false && existing.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP");
      if (input.isDefault === true && !existing.isDefault) {
        await tx.update(whatsapps).set({ isDefault: false }).where(eq(whatsapps.isDefault, true));
      }
      const type = input.channel ?? input.type;
      typeChanged = type !== undefined && type !== existing.type;
      const cloud = cloudColumns(type ?? existing.type, input.cloud, existing);
      const cloudChanged = Object.keys(cloud).length > 0;
      const queueCount =
        input.queueIds !== undefined
          ? new Set(input.queueIds).size
          : (await tx.select({ n: count() }).from(whatsappQueues).where(eq(whatsappQueues.whatsappId, id)))[0].n;
      assertGreeting(queueCount, input.greetingMessage ?? existing.greetingMessage);
      await tx
        .update(whatsapps)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(type !== undefined && { type }),
          ...cloud,
          ...(input.isDefault !== undefined && { isDefault: input.isDefault }),
          ...(input.acceptCalls !== undefined && { acceptCalls: input.acceptCalls }),
          ...(input.callRefuseMessage !== undefined && { callRefuseMessage: input.callRefuseMessage }),
          ...(input.greetingMessage !== undefined && { greetingMessage: input.greetingMessage }),
          ...(input.farewellMessage !== undefined && { farewellMessage: input.farewellMessage }),
          ...(input.token !== undefined && { token: input.token ? input.token : null }),
          ...(input.sendIntervalMs !== undefined && { sendIntervalMs: input.sendIntervalMs }),
          ...(input.sendJitterMs !== undefined && { sendJitterMs: input.sendJitterMs }),
          ...(input.sendBurst !== undefined && { sendBurst: input.sendBurst }),
          ...(input.replyGapMs !== undefined && { replyGapMs: input.replyGapMs }),
          ...(input.selfService !== undefined && { selfService: input.selfService }),
          updatedAt: new Date(),
        })
        .where(eq(whatsapps.id, id));
      if (input.queueIds !== undefined) await setQueues(tx, id, input.queueIds);
      typeChanged ||= cloudChanged;
      await saveHealthSettings(tx, id, input);
      return getWhatsapp(tx, id);
    })
    .catch(mapUnique);
  ctx.events.publish("whatsapp.saved", { whatsapp });
  if (typeChanged) await startSession(ctx, channels, id);
  return whatsapp;
}

/**
 * POST /whatsapp/:id/token — 'Gerar novo token': a new random message-API token replaces the old
 * one (which stops working at once) and is answered this once; afterwards only hasToken tells.
 */
export async function regenerateToken(ctx: AppContext, id: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const [row] = await ctx.db
    .update(whatsapps)
    .set({ token, updatedAt: new Date() })
    .where(eq(whatsapps.id, id))
    .returning({ id: whatsapps.id });
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  ctx.events.publish("whatsapp.saved", { whatsapp: await getWhatsapp(ctx.db, id) });
  return token;
}

/** Deletes a connection; when it was the default, the oldest remaining one becomes the default. */
export async function deleteWhatsapp(ctx: AppContext, channels: ChannelManager, id: number): Promise<void> {
  if (!(await channels.atOwner(id, "stop"))) await channels.stop(id);
  const promoted = await ctx.db.transaction(async (tx) => {
    // the number's health row first, as a status change does (health/service.ts statusChanged): the
    // stop above may still be recording its status, and the other order deadlocks on PostgreSQL
    await tx.execute(sql`select 1 from connection_health where whatsapp_id = ${id} for update`);
    const [deleted] = await tx.delete(whatsapps).where(eq(whatsapps.id, id)).returning();
    if (!deleted) throw new AppError("ERR_NO_WAPP_FOUND");
    if (!deleted.isDefault) return undefined;
    const [next] = await tx.select({ id: whatsapps.id }).from(whatsapps).where(ne(whatsapps.id, id)).orderBy(asc(whatsapps.id)).limit(1);
    if (!next) return undefined;
    await tx.update(whatsapps).set({ isDefault: true, updatedAt: new Date() }).where(eq(whatsapps.id, next.id));
    return getWhatsapp(tx, next.id);
  });
  ctx.events.publish("whatsapp.deleted", { whatsappId: id });
  if (promoted) ctx.events.publish("whatsapp.saved", { whatsapp: promoted });
}

// ---------- sessions ----------

async function refOf(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: whatsapps.id, name: whatsapps.name, type: whatsapps.type })
    .from(whatsapps)
    .where(eq(whatsapps.id, id));
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  return row;
}

/**
 * POST /whatsappsession/:id — (re)connects with the stored auth; a QR code follows when there is none.
 * `mode`: "start" (re)starts it where it runs (asked of its owner when another process holds its
 * lease); "ensure" (a new connection) leaves a session that already runs alone; "owned": this
 * process's take-over of the lease starts it here.
 */
export async function startSession(
  ctx: AppContext,
  channels: ChannelManager,
  id: number,
  mode: "start" | "ensure" | "owned" = "start",
): Promise<void> {
  const ref = await refOf(ctx.db, id);
  if (mode !== "owned" && (await channels.atOwner(id, mode))) return;
  if (mode === "ensure" && channels.get(id)) return;
  await applyStatus(ctx, id, { status: "OPENING", qrcode: "" });
  const session = await channels.start(ref).catch((err) => {
    ctx.log.error({ err, whatsappId: id }, "starting a session failed");
    return undefined;
  });
  if (!session) await applyStatus(ctx, id, { status: "DISCONNECTED", qrcode: "", reason: "no driver" });
}

/** PUT /whatsappsession/:id — a fresh QR code (the stored auth is dropped). */
export async function requestNewQr(ctx: AppContext, channels: ChannelManager, id: number): Promise<void> {
  const ref = await refOf(ctx.db, id);
  if (await channels.atOwner(id, "newQr")) return;
  const session = channels.get(id);
  if (!session) return startSession(ctx, channels, ref.id);
  await session.requestNewQr();
}

/** DELETE /whatsappsession/:id — logs out and forgets the auth. */
export async function disconnectSession(ctx: AppContext, channels: ChannelManager, id: number): Promise<void> {
  await refOf(ctx.db, id);
  if (await channels.atOwner(id, "logout")) return;
  const session = channels.get(id);
  if (session) await session.logout().catch((err) => ctx.log.warn({ err, whatsappId: id }, "logout failed"));
  await channels.stop(id);
  await applyStatus(ctx, id, { status: "DISCONNECTED", qrcode: "", reason: "logged out" });
}

/**
 * At boot (one process): every connection gets its session back (those without auth will show a
 * QR code). Several processes: each takes its share through the leases (ownership.ts) instead.
 */
export async function startAllSessions(ctx: AppContext, channels: ChannelManager): Promise<void> {
  const rows = await ctx.db.select({ id: whatsapps.id }).from(whatsapps).orderBy(asc(whatsapps.id));
  for (const r of rows) await startSession(ctx, channels, r.id);
}

/** Reasons a session gives when its phone is unlinked (Baileys' policy, the simulator, DELETE /whatsappsession). */
const LOGGED_OUT = new Set(["loggedOut", "logged out"]);

/** A session reported its status: stored and announced (whatsappSession update). */
export async function applyStatus(
  ctx: AppContext,
  id: number,
  s: { status: ConnectionStatus; qrcode?: string; reason?: string; number?: string; retries?: number },
): Promise<void> {
  const [before] = await ctx.db.select({ status: whatsapps.status }).from(whatsapps).where(eq(whatsapps.id, id));
  const [row] = await ctx.db
    .update(whatsapps)
    .set({
      status: s.status,
      qrcode: s.status === "qrcode" ? (s.qrcode ?? "") : "",
      // the linked phone's number: set when it connects, gone once it is unlinked or a new QR code waits for a phone
      ...(s.number !== undefined && s.number !== "" && s.status === "CONNECTED" && { number: s.number }),
      ...((s.status === "qrcode" || LOGGED_OUT.has(s.reason ?? "")) && { number: "" }),
      ...(s.retries !== undefined ? { retries: s.retries } : s.status === "CONNECTED" ? { retries: 0 } : {}),
      ...(s.reason !== undefined && { disconnectReason: s.reason }),
      updatedAt: new Date(),
    })
    .where(eq(whatsapps.id, id))
    .returning({
      status: whatsapps.status,
      qrcode: whatsapps.qrcode,
      retries: whatsapps.retries,
      number: whatsapps.number,
      updatedAt: whatsapps.updatedAt,
    });
  if (!row) return;
  ctx.events.publish("whatsapp.session", {
    id,
    status: row.status,
    number: row.number ?? "",
    qrcode: row.qrcode,
    retries: row.retries,
    updatedAt: iso(row.updatedAt),
    // number health listens: the change recorded, a new pairing dated, a ban signal pauses the number
    ...(before?.status !== undefined && { previous: before.status }),
    ...(s.reason !== undefined && { reason: s.reason }),
  });
}

// ---------- bot settings ----------

export async function getTypebot(db: DbOrTx, id: number) {
  const w = await getWhatsapp(db, id);
  return w.typebot;
}

/** The same Typebot address, written either way (case, trailing slashes). */
function sameTypebotAddress(a: string, b: string): boolean {
  const norm = (v: string) => {
    try {
      const u = new URL(v.trim());
      return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
    } catch {
      return v.trim().replace(/\/+$/, "");
    }
  };
  return norm(a) === norm(b);
}

export const TYPEBOT_KEY_RETYPE = "Digite a chave de API para o novo endereço: a chave salva só é enviada ao endereço salvo.";

export async function updateTypebot(ctx: AppContext, id: number, input: TypebotSettingsBody) {
  const [before] = await ctx.db
    .select({ baseUrl: whatsapps.typebotBaseUrl, apiKey: whatsapps.typebotApiKey })
    .from(whatsapps)
    .where(eq(whatsapps.id, id));
  if (!before) throw new AppError("ERR_NO_WAPP_FOUND");
  const baseUrl = input.baseUrl ?? "";
  // the saved key goes only to the saved address: a new one needs the key typed (no address: the key is dropped)
  const moved = before.apiKey !== "" && !input.apiKey && !sameTypebotAddress(baseUrl, before.baseUrl);
  if (moved && baseUrl !== "") throw new AppError("ERR_VALIDATION", 400, { apiKey: [TYPEBOT_KEY_RETYPE] });
  const [row] = await ctx.db
    .update(whatsapps)
    .set({
      typebotEnabled: input.enabled,
      typebotBaseUrl: input.baseUrl ?? "",
      typebotSlug: input.slug ?? "",
      ...(input.expiryMinutes !== undefined && { typebotExpiryMinutes: input.expiryMinutes }),
      ...(input.endKeyword !== undefined && { typebotEndKeyword: input.endKeyword }),
      ...(input.unknownMessage !== undefined && { typebotUnknownMessage: input.unknownMessage }),
      ...(input.delayMs !== undefined && { typebotDelayMs: input.delayMs }),
      // blank keeps the existing key (for the same address)
      ...(input.apiKey ? { typebotApiKey: input.apiKey } : moved ? { typebotApiKey: "" } : {}),
      updatedAt: new Date(),
    })
    .where(eq(whatsapps.id, id))
    .returning({ id: whatsapps.id });
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  const whatsapp = await getWhatsapp(ctx.db, id);
  ctx.events.publish("whatsapp.saved", { whatsapp });
  return whatsapp.typebot;
}
