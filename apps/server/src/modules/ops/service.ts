import { type HealthAnswer, READY_CHECKS, type ReadyAnswer, type ReadyCheck } from "@balcao/contract";
import type { ChannelManager } from "../../channels/manager.js";
import type { AppContext } from "../../context.js";
import { pendingMigrations } from "../../db/client.js";
import { pingRedis } from "../../lib/redis-ping.js";
import type { Storage } from "../../lib/storage.js";
import { ownedSessionIds, PROCESS_ID } from "./ownership.js";

export interface OpsDeps {
  ctx: AppContext;
  channels: ChannelManager;
  storage: Storage;
}

/** GET /health: the process is alive (no dependency is asked). */
export function health(d: OpsDeps): HealthAnswer {
  return { ok: true, engine: d.ctx.database.engine, process: PROCESS_ID, sessions: ownedSessionIds(d.channels) };
}

const CHECK_TIMEOUT_MS = 3000;

function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in time`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** What a failed check says: a short reason, never a connection string or a key. */
function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e?.code && /^[0-9A-Z_]+$/.test(e.code)) return `unreachable (${e.code})`;
  const m = e?.message ?? "";
  return /^(redis|storage|database)[: ]/.test(m) || /no answer in time/.test(m) ? m : "unreachable";
}

/**
 * GET /ready: the process can serve: the database answers and holds every committed migration,
 * Redis answers (with REDIS_URL), the S3 bucket answers (with S3_BUCKET). Checks run side by side.
 */
export async function readiness(d: OpsDeps): Promise<ReadyAnswer> {
  const checks: Partial<Record<ReadyCheck, string>> = {};
  const run = async (name: ReadyCheck, fn: () => Promise<string | undefined>) => {
    try {
      checks[name] = (await withTimeout(fn(), name)) ?? "ok";
    } catch (err) {
      checks[name] = reason(err);
    }
  };
  await Promise.all([
    run("database", async () => {
      await d.ctx.database.query("select 1");
      return undefined;
    }),
    run("migrations", async () => {
      const pending = await pendingMigrations(d.ctx.database);
      return pending === 0 ? undefined : `${pending} not applied`;
    }),
    ...(d.ctx.config.REDIS_URL
      ? [run("redis", () => pingRedis(d.ctx.config.REDIS_URL as string, CHECK_TIMEOUT_MS).then(() => undefined))]
      : []),
    ...(d.storage.kind === "s3" ? [run("storage", () => d.storage.check().then(() => undefined))] : []),
  ]);
  const ordered = Object.fromEntries(READY_CHECKS.filter((c) => checks[c] !== undefined).map((c) => [c, checks[c]]));
  return { ok: Object.values(checks).every((v) => v === "ok"), process: PROCESS_ID, checks: ordered };
}
