import type { UserFacingSocketConfig } from "baileys";
import type { ChannelDeps } from "../channel.js";

/**
 * Baileys' logger, forwarding only its warnings and errors to ours. Baileys logs whole objects
 * (message keys, nodes, sometimes key material at trace level), so only short primitive fields
 * with harmless names pass, and errors are reduced to their message.
 */

type ILogger = NonNullable<UserFacingSocketConfig["logger"]>;

const SENSITIVE = /key|cred|secret|token|noise|identity|signed|private|session|auth|adv|node|content|message|buffer/i;

export function redact(obj: unknown): Record<string, unknown> {
  if (obj instanceof Error) return { err: obj.message };
  if (typeof obj !== "object" || obj === null) return typeof obj === "string" ? { detail: obj.slice(0, 200) } : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v instanceof Error) out[k] = v.message;
    else if (SENSITIVE.test(k)) continue;
    else if (typeof v === "string") out[k] = v.length > 200 ? `${v.slice(0, 200)}…` : v;
    else if (typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

export function baileysLogger(log: ChannelDeps["log"], bindings: Record<string, unknown> = {}): ILogger {
  const safeBindings = redact(bindings);
  const at =
    (fn: (o: object, m?: string) => void) =>
    (obj: unknown, msg?: string): void => {
      fn({ baileys: true, ...safeBindings, ...redact(obj) }, typeof obj === "string" ? obj.slice(0, 200) : msg);
    };
  const noop = () => {};
  return {
    level: "warn",
    child: (more) => baileysLogger(log, { ...bindings, ...more }),
    trace: noop,
    debug: noop,
    info: noop,
    warn: at(log.warn),
    error: at(log.error),
  };
}
