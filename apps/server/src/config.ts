import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { normalizePublicUrl, PUBLIC_URL_INVALID, UPLOAD_MAX_BYTES } from "@balcao/contract";
import { z } from "zod";
import { type AllowList, parseAllowList } from "./lib/outgoing-http.js";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  /**
   * Connections this process's pool opens to PostgreSQL at most (DATABASE_URL). Several processes
   * each open their own: keep their sum (plus one listener each) under the server's max_connections.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(20),
  /**
   * Redis (redis://…): with it, domain events, socket rooms, limits and online users are shared by
   * every server process through Redis; without it but with DATABASE_URL, through PostgreSQL.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must start with redis:// or rediss://")
    .optional(),
  /** Prefix of every Redis key and channel (several installations, or test runs, on one Redis) */
  REDIS_KEY_PREFIX: z.string().max(100).default("balcao:"),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(5, "must have at least 5 characters").optional(),
  JWT_SECRET: z.string().min(32, "must have at least 32 characters").optional(),
  ACCESS_TOKEN_TTL: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  /** seconds in which a just-rotated refresh token answers its successor instead of counting as reuse */
  REFRESH_GRACE_S: z.coerce.number().int().min(0).max(60).default(10),
  /** a request taking this many ms or more is logged at `warn` */
  LOG_SLOW_MS: z.coerce.number().int().min(0).default(1000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  UPLOAD_LIMIT: z.coerce.number().int().positive().default(UPLOAD_MAX_BYTES),
  /** uploads one user may send at once; more answer 429 */
  UPLOAD_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /** failed sign-ins from one IP (any e-mail) per window; the (IP, e-mail) backoff is separate */
  LOGIN_RATE_PER_IP: z.coerce.number().int().positive().default(100),
  /** failures of one (IP, e-mail) before its exponential backoff begins */
  LOGIN_RATE_PER_EMAIL: z.coerce.number().int().positive().default(5),
  LOGIN_RATE_WINDOW_S: z.coerce.number().int().positive().default(60),
  /** POST /api/messages/send calls per connection token per minute; more answer 429 with Retry-After */
  API_RATE_PER_MIN: z.coerce.number().int().positive().default(120),
  AUTO_CLOSE_INTERVAL_S: z.coerce.number().int().positive().default(60),
  ENABLE_SIMULATOR: z.enum(["true", "false"]).optional(),
  /** the Graph API base of the WhatsApp Cloud API channel (tests point it at a fake) */
  WHATSAPP_GRAPH_URL: z.url().default("https://graph.facebook.com/v23.0"),
  /** seconds a Cloud send of unknown outcome (a crash mid-request) waits for Meta's statuses before it goes again */
  CLOUD_SEND_GRACE_S: z.coerce.number().int().min(1).max(86_400).default(300),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  /**
   * The address customers and Meta reach this server at behind a proxy (https://atendimento.provedor.com.br):
   * contract signing links, the Cloud API webhook URL, the API page's examples. The setting publicUrl
   * (Configurações), when set, wins. Unset: the address each request came to.
   */
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      const url = normalizePublicUrl(v);
      if (!url) ctx.addIssue({ code: "custom", message: PUBLIC_URL_INVALID });
      return url;
    }),
  /**
   * Several processes on one PostgreSQL (DATABASE_URL): this process's node name in its session
   * leases (default: the host name; a dead owner on the same node is taken over at once), the
   * lease's expiry and its renewal, and the outbox poll of the session's owner (the safety net of
   * the wakes), in ms.
   */
  CLUSTER_NODE: z.string().max(100).optional(),
  SESSION_LEASE_TTL_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
  SESSION_LEASE_RENEW_MS: z.coerce.number().int().min(200).max(60_000).default(5_000),
  OUTBOX_POLL_MS: z.coerce.number().int().min(200).max(60_000).default(3_000),
  /** Origins allowed besides the app's own (CORS with credentials, socket.io): comma separated, e.g. http://localhost:5173 */
  CORS_ORIGINS: z
    .string()
    .optional()
    .refine(
      (v) =>
        !v ||
        v
          .split(",")
          .map((o) => o.trim())
          .filter(Boolean)
          .every((o) => /^https?:\/\/[^/\s]+\/?$/.test(o)),
      "must be a comma-separated list of origins like https://example.com",
    ),
  /** S3-compatible file storage (media, contract PDFs, branding): on when S3_BUCKET is set; else folders under DATA_DIR */
  S3_BUCKET: z.string().min(1).optional(),
  /** e.g. http://minio:9000; unset: AWS S3 of S3_REGION */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** bucket in the path (http://host/bucket/key), what MinIO and most S3-compatible stores expect */
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("true"),
  /** GET /metrics/prometheus asks `Authorization: Bearer <this>`; in production it is not served without it */
  METRICS_TOKEN: z.string().min(16, "must have at least 16 characters").optional(),
  /**
   * Private, loopback and link-local addresses outgoing requests (billing system, Typebot, media by
   * URL, AI endpoint) may reach: comma-separated host names, addresses or CIDR ranges, e.g.
   * 127.0.0.1,localhost,10.0.0.0/8 (an SGP on the provider's LAN). Unset: none.
   */
  ALLOWED_PRIVATE_HOSTS: z
    .string()
    .default("")
    .superRefine((v, ctx) => {
      try {
        parseAllowList(v);
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          message: `must be comma-separated host names, addresses or CIDR ranges: ${(err as Error).message}`,
        });
      }
    }),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  dataDir: string;
  jwtSecret: string;
  isProduction: boolean;
  simulatorEnabled: boolean;
  /** ALLOWED_PRIVATE_HOSTS, parsed (what lib/outgoing-http.ts takes) */
  allowedPrivateHosts: AllowList;
}

export class ConfigError extends Error {}

/** The demo admin of the embedded mode, documented in the README. */
export const DEMO_ADMIN = { email: "admin@balcao.local", password: "admin123" } as const;

/** Reads and validates the environment; secrets not given are generated once and kept in DATA_DIR. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new ConfigError("Invalid configuration:\n  S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together");
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const jwtSecret = e.JWT_SECRET ?? persistedSecret(dataDir, "jwt-secret");
  const isProduction = e.NODE_ENV === "production";
  return {
    ...e,
    dataDir,
    jwtSecret,
    isProduction,
    simulatorEnabled: e.ENABLE_SIMULATOR ? e.ENABLE_SIMULATOR === "true" : !isProduction,
    allowedPrivateHosts: parseAllowList(e.ALLOWED_PRIVATE_HOSTS),
  };
}

function persistedSecret(dataDir: string, name: string): string {
  const file = resolve(dataDir, `.${name}`);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
