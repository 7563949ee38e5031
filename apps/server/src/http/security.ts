import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config.js";

/**
 * Response headers every answer carries unless its route set its own (the simulator page and
 * served media have stricter or page-specific ones): a Content-Security-Policy the web app runs
 * under (its scripts are files of its own origin; MUI injects <style> elements, hence inline
 * styles; images and audio previews use blob: and data: URLs; frames only of the finance tool's
 * origin, setting `financeBaseUrl`, and blob: for a contract's PDF fetched with the session),
 * no MIME sniffing, no framing of the app, no referrer to other sites.
 */
export function appCsp(frameOrigin?: string): string {
  return APP_CSP.replace("frame-src 'self' blob:", `frame-src 'self' blob:${frameOrigin ? ` ${frameOrigin}` : ""}`);
}

/** The origin frames may load (of the financeBaseUrl setting), or undefined. */
export function frameOriginOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'self' blob:",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
].join("; ");

export function registerSecurityHeaders(app: FastifyInstance, config: Config, frameOrigin: () => string | undefined = () => undefined) {
  const fixed: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), geolocation=(), payment=(), usb=(), microphone=(self)",
    ...(config.isProduction && { "strict-transport-security": "max-age=15552000; includeSubDomains" }),
  };
  app.addHook("onSend", async (_req, reply, payload) => {
    if (!reply.hasHeader("content-security-policy")) reply.header("content-security-policy", appCsp(frameOrigin()));
    for (const [name, value] of Object.entries(fixed)) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });
}

/** A CSP for a self-contained HTML page: its own inline scripts allowed by hash, nothing else inline. */
export function inlinePageCsp(html: string, extra: string[] = []): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(" ")}`.trim(),
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob: data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
    ...extra,
  ].join("; ");
}

/** The origins allowed besides the app's own: CORS_ORIGINS, comma separated. */
export function extraOrigins(config: Config): Set<string> {
  return new Set(
    (config.CORS_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim().replace(/\/+$/, ""))
      .filter(Boolean),
  );
}

/**
 * Whether a browser request from `origin` may talk to the app: no Origin (not a browser), the
 * app's own (the request's host, or the proxy's forwarded host when TRUST_PROXY), or a listed one.
 */
export function originAllowed(
  origin: string | undefined,
  req: Pick<IncomingMessage, "headers">,
  config: Config,
  extra: Set<string>,
): boolean {
  if (!origin) return true;
  if (extra.has(origin)) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const own = [req.headers.host];
  if (config.TRUST_PROXY === "true") {
    const fwd = req.headers["x-forwarded-host"];
    own.push(...(Array.isArray(fwd) ? fwd : fwd ? fwd.split(",").map((h) => h.trim()) : []));
  }
  return own.some((h) => h === host);
}

/**
 * CORS for the origins of CORS_ORIGINS only (with credentials); the app's own pages need none.
 * Other origins get no CORS headers, so browsers keep their answers from them.
 */
export function registerCors(app: FastifyInstance, config: Config) {
  const extra = extraOrigins(config);
  if (extra.size === 0) return;
  const allowedHere = (req: FastifyRequest) => {
    const origin = req.headers.origin;
    return origin && extra.has(origin) ? origin : undefined;
  };
  app.addHook("onRequest", async (req, reply) => {
    const origin = allowedHere(req);
    if (!origin) return;
    reply.header("access-control-allow-origin", origin);
    reply.header("access-control-allow-credentials", "true");
    reply.header("vary", "Origin");
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
      reply.header("access-control-allow-methods", "GET, POST, PUT, DELETE, PATCH");
      reply.header("access-control-allow-headers", "authorization, content-type, x-settings-token, idempotency-key");
      reply.header("access-control-max-age", "600");
      return reply.status(204).send();
    }
  });
}
