/**
 * What to do when a Baileys socket closes. Pure: the driver passes what it knows, the policy
 * answers; randomness comes in as a function so the jitter can be pinned in tests.
 */

/** Baileys' DisconnectReason codes (src/Types/index.ts), kept here so the policy needs no runtime import. */
export const DisconnectCode = {
  loggedOut: 401,
  forbidden: 403,
  /** also DisconnectReason.connectionLost, and the end of a socket's QR codes */
  timedOut: 408,
  multideviceMismatch: 411,
  connectionClosed: 428,
  connectionReplaced: 440,
  /** also what Baileys reports for a stream error it cannot name */
  badSession: 500,
  unavailableService: 503,
  restartRequired: 515,
} as const;

export interface ReconnectPolicyOptions {
  /** first backoff step; attempt n waits between half and all of min(maxDelayMs, baseDelayMs·2^(n-1)) */
  baseDelayMs: number;
  maxDelayMs: number;
  /** automatic reconnects before giving up (DISCONNECTED); Infinity keeps trying at maxDelayMs */
  maxRetries: number;
  /** QR codes shown without a scan before the session stops with TIMEOUT */
  maxQrCodes: number;
  /** consecutive badSession (500) closes tolerated before the auth is cleared */
  badSessionLimit: number;
}

export const DEFAULT_RECONNECT_POLICY: ReconnectPolicyOptions = {
  baseDelayMs: 2_000,
  maxDelayMs: 300_000,
  maxRetries: Number.POSITIVE_INFINITY,
  maxQrCodes: 10,
  badSessionLimit: 3,
};

export interface DisconnectContext {
  /** lastDisconnect.error.output.statusCode; undefined when the error carried none */
  statusCode: number | undefined;
  /** automatic reconnects already made since the last successful open */
  retries: number;
  /** the socket was showing QR codes, not yet paired */
  pairing: boolean;
  /** QR codes shown since the last start / new-QR request */
  qrCodesShown: number;
  /** consecutive badSession closes before this one, since the last successful open */
  badSessionStreak: number;
}

export type DisconnectDecision =
  | {
      action: "reconnect";
      /** 0 = at once */
      delayMs: number;
      /** wipe creds and keys first (the next socket pairs by QR) */
      clearAuth: boolean;
      /** counts as an automatic retry (shown on the connection) */
      countRetry: boolean;
      reason: string;
    }
  | { action: "stop"; status: "DISCONNECTED" | "TIMEOUT"; clearAuth: boolean; reason: string };

export function reasonName(code: number | undefined): string {
  switch (code) {
    case DisconnectCode.loggedOut:
      return "loggedOut";
    case DisconnectCode.forbidden:
      return "forbidden";
    case DisconnectCode.timedOut:
      return "timedOut";
    case DisconnectCode.multideviceMismatch:
      return "multideviceMismatch";
    case DisconnectCode.connectionClosed:
      return "connectionClosed";
    case DisconnectCode.connectionReplaced:
      return "connectionReplaced";
    case DisconnectCode.badSession:
      return "badSession";
    case DisconnectCode.unavailableService:
      return "unavailableService";
    case DisconnectCode.restartRequired:
      return "restartRequired";
    default:
      return code === undefined ? "unknown" : `unknown(${code})`;
  }
}

/** Exponential backoff with "equal jitter": between half and all of the capped step. */
export function backoffDelay(
  attempt: number,
  opts: Pick<ReconnectPolicyOptions, "baseDelayMs" | "maxDelayMs">,
  random: () => number,
): number {
  const step = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (r * step) / 2);
}

export function decideOnDisconnect(
  ctx: DisconnectContext,
  opts: ReconnectPolicyOptions = DEFAULT_RECONNECT_POLICY,
  random: () => number = Math.random,
): DisconnectDecision {
  const reason = reasonName(ctx.statusCode);
  const transient = (why: string): DisconnectDecision => {
    if (ctx.retries >= opts.maxRetries)
      return { action: "stop", status: "DISCONNECTED", clearAuth: false, reason: `${why}: retries exhausted` };
    return { action: "reconnect", delayMs: backoffDelay(ctx.retries + 1, opts, random), clearAuth: false, countRetry: true, reason: why };
  };

  switch (ctx.statusCode) {
    // after pairing (and now and then) WhatsApp asks for a fresh connection: not a failure
    case DisconnectCode.restartRequired:
      return { action: "reconnect", delayMs: 0, clearAuth: false, countRetry: false, reason };
    // the phone removed this device: the auth is dead, an admin must scan a new QR
    case DisconnectCode.loggedOut:
      return { action: "stop", status: "DISCONNECTED", clearAuth: true, reason };
    // another WhatsApp Web took over, or the number is banned/blocked: reconnecting would fight or make it worse
    case DisconnectCode.connectionReplaced:
    case DisconnectCode.forbidden:
      return { action: "stop", status: "DISCONNECTED", clearAuth: false, reason };
    // the phone's WhatsApp does not support multi-device: pairing again is the only way
    case DisconnectCode.multideviceMismatch:
      return { action: "stop", status: "DISCONNECTED", clearAuth: true, reason };
    // Baileys also reports unnamed stream errors as 500, so only a streak of them condemns the auth
    case DisconnectCode.badSession:
      if (ctx.badSessionStreak + 1 >= opts.badSessionLimit)
        return { action: "reconnect", delayMs: 0, clearAuth: true, countRetry: false, reason };
      return transient(reason);
    case DisconnectCode.timedOut:
      // while pairing, 408 means this socket's QR codes ran out without a scan
      if (ctx.pairing) {
        if (ctx.qrCodesShown >= opts.maxQrCodes)
          return { action: "stop", status: "TIMEOUT", clearAuth: false, reason: "qrAttemptsExhausted" };
        return { action: "reconnect", delayMs: 0, clearAuth: false, countRetry: false, reason: "qrExpired" };
      }
      return transient(reason);
    default:
      // connectionClosed, unavailableService, and anything unknown: the network or WhatsApp hiccuped
      return transient(reason);
  }
}
