import type { SelfServiceMode } from "@balcao/contract";
import { asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { queues, whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";

/**
 * Connection facts every module may read (a leaf: it imports no other module): what the inbound
 * pipeline and the bots need of a connection, its queues, and the default connection. Changing a
 * connection, its session and its health is the connections module's.
 */

export interface ConnectionQueue {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
}

export async function queuesOf(db: DbOrTx, ids: number[]): Promise<Map<number, ConnectionQueue[]>> {
  const out = new Map<number, ConnectionQueue[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      whatsappId: whatsappQueues.whatsappId,
      id: queues.id,
      name: queues.name,
      color: queues.color,
      greetingMessage: queues.greetingMessage,
    })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(inArray(whatsappQueues.whatsappId, ids))
    .orderBy(asc(queues.name), asc(queues.id));
  for (const r of rows) {
    const list = out.get(r.whatsappId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color, greetingMessage: r.greetingMessage });
    out.set(r.whatsappId, list);
  }
  return out;
}

/** What the inbound pipeline needs of a connection. */
export interface ConnectionInfo {
  id: number;
  name: string;
  greetingMessage: string;
  farewellMessage: string;
  acceptCalls: boolean;
  callRefuseMessage: string;
  queues: ConnectionQueue[];
  /** the Typebot bridge, with its key (server side only) */
  typebot: {
    enabled: boolean;
    baseUrl: string;
    slug: string;
    apiKey: string;
    expiryMinutes: number;
    endKeyword: string;
    unknownMessage: string;
    delayMs: number;
  };
  /** the billing self-service bot's place */
  selfService: SelfServiceMode;
}

export async function connectionInfo(db: DbOrTx, id: number): Promise<ConnectionInfo | undefined> {
  const [row] = await db.select().from(whatsapps).where(eq(whatsapps.id, id));
  if (!row) return undefined;
  const qs = await queuesOf(db, [id]);
  return {
    id: row.id,
    name: row.name,
    greetingMessage: row.greetingMessage,
    farewellMessage: row.farewellMessage,
    acceptCalls: row.acceptCalls,
    callRefuseMessage: row.callRefuseMessage,
    queues: qs.get(id) ?? [],
    typebot: {
      enabled: row.typebotEnabled,
      baseUrl: row.typebotBaseUrl,
      slug: row.typebotSlug,
      apiKey: row.typebotApiKey,
      expiryMinutes: row.typebotExpiryMinutes,
      endKeyword: row.typebotEndKeyword,
      unknownMessage: row.typebotUnknownMessage,
      delayMs: row.typebotDelayMs,
    },
    selfService: row.selfService,
  };
}

/** The default connection, used when a ticket is opened without naming one. */
export async function defaultWhatsappId(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.isDefault, true));
  if (!row) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
  return row.id;
}
