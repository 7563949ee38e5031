import type { FastifyInstance, FastifyRequest } from "fastify";
import { redactUrl } from "../lib/redact.js";

/**
 * How errors are logged: a failed statement's parameters (passwords, hashes, tokens, mail
 * secrets) and the database's row details never reach the log. Drizzle puts the parameters in
 * the error (`params`) and in its message ("Failed query: … params: …"); PostgreSQL puts the row
 * in `detail` ("Failing row contains (…)").
 */
const SECRET_FIELDS = new Set(["params", "parameters", "detail", "values", "where", "internalQuery", "password", "token", "apiKey"]);
const REDACTED = "[redacted]";

function scrubText(text: string): string {
  // drizzle: "Failed query: <sql>\nparams: a,b,c"
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${REDACTED}`);
}

function serialize(value: unknown, depth: number, seen: Set<unknown>): unknown {
  if (value === null || typeof value !== "object") return typeof value === "string" ? scrubText(value) : value;
  if (seen.has(value) || depth > 4) return "[…]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => serialize(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  if (value instanceof Error) {
    out.type = value.constructor.name;
    out.message = scrubText(value.message);
    if (value.stack) out.stack = scrubText(value.stack);
  }
  for (const [k, v] of Object.entries(value)) {
    if (k !== "cause") out[k] = SECRET_FIELDS.has(k) ? REDACTED : serialize(v, depth + 1, seen);
  }
  const cause = (value as { cause?: unknown }).cause;
  if (cause !== undefined) out.cause = serialize(cause, depth + 1, seen);
  return out;
}

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/** The `err` serializer of the app's logger. */
export function errSerializer(err: Error): SerializedError {
  const out = serialize(err, 0, new Set());
  return out && typeof out === "object" && !Array.isArray(out)
    ? { type: "Error", message: "", stack: "", ...(out as Record<string, unknown>) }
    : { type: typeof err, message: String(out), stack: "" };
}

/**
 * The `req` serializer: Fastify's fields, with the URL's credentials cut (a signing link's token,
 * `?token=` of the message API, …).
 */
export function reqSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The request log: one line per completed request (method, the URL with its credentials cut, the
 * route pattern, status, milliseconds), in place of Fastify's two (incoming + completed). A 5xx
 * is logged at `error`, a request slower than `slowMs` at `warn`, the rest at `info`: LOG_LEVEL=warn
 * keeps only the failed and the slow ones.
 */
export function registerRequestLog(app: FastifyInstance, slowMs: number) {
  app.addHook("onResponse", (req, reply, done) => {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    const level = status >= 500 ? "error" : ms >= slowMs ? "warn" : "info";
    reply.log[level](
      { method: req.method, url: redactUrl(req.url), route: req.routeOptions.url, statusCode: status, ms: Math.round(ms * 10) / 10 },
      status >= 500 ? "request failed" : level === "warn" ? "slow request" : "request",
    );
    done();
  });
}
