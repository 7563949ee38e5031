import { createHash, createHmac, randomBytes, randomUUID, webcrypto } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import type { Config } from "../../config.js";
import type { AppContext, SessionUser } from "../../context.js";

export interface AccessClaims {
  sub: string;
  profile: string;
  v: number;
}

const enc = new TextEncoder();

export function signAccessToken(config: Config, user: { id: number; profile: string; tokenVersion: number }): Promise<string> {
  return new SignJWT({ profile: user.profile, v: user.tokenVersion })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(user.id))
    .setIssuedAt()
    .setExpirationTime(`${config.ACCESS_TOKEN_TTL}s`)
    .sign(enc.encode(config.jwtSecret));
}

/**
 * Per server (its config): the HMAC key, imported once (jose imported the raw bytes again on every
 * verify), and the tokens whose signature was checked, with their claims (newest last; at most
 * VERIFIED_MAX). An agent's every request presents the same token, and its signature cannot
 * change: only that check is kept. The expiry is checked on every use, revocation by `ctx.sessions`.
 */
const VERIFIED_MAX = 5000;
const perServer = new WeakMap<Config, { key: Promise<webcrypto.CryptoKey>; verified: Map<string, AccessClaims & { exp: number }> }>();
function stateOf(config: Config) {
  let state = perServer.get(config);
  if (!state) {
    const key = webcrypto.subtle.importKey("raw", enc.encode(config.jwtSecret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    state = { key, verified: new Map() };
    perServer.set(config, state);
  }
  return state;
}

/** The claims of a valid, unexpired token, or null. */
export async function verifyAccessToken(config: Config, token: string): Promise<AccessClaims | null> {
  const { key, verified } = stateOf(config);
  const known = verified.get(token);
  if (known) {
    if (known.exp * 1000 > Date.now()) return known;
    verified.delete(token);
    return null;
  }
  try {
    // a token without an expiry would be valid forever: refused
    const { payload } = await jwtVerify(token, await key, { algorithms: ["HS256"], requiredClaims: ["exp", "sub"] });
    if (typeof payload.sub !== "string" || typeof payload.v !== "number" || typeof payload.exp !== "number") return null;
    const claims = payload as unknown as AccessClaims & { exp: number };
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
    return claims;
  } catch {
    return null;
  }
}

/** Resolves an access token to the current user, or null when invalid, expired or revoked. */
export async function userFromToken(ctx: AppContext, token: string): Promise<SessionUser | null> {
  const claims = await verifyAccessToken(ctx.config, token);
  if (!claims) return null;
  return ctx.sessions.get(Number(claims.sub), claims.v);
}

export function newRefreshToken(): { token: string; hash: string; family: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashRefreshToken(token), family: randomUUID() };
}

/**
 * The token a refresh token is rotated into, derived from it: a refresh presented again within the
 * grace (two tabs refreshing at once) can answer the same successor, though only hashes are stored.
 */
export function successorRefreshToken(config: Config, token: string): string {
  return createHmac("sha256", config.jwtSecret).update(`refresh:${token}`).digest("base64url");
}

export function hashRefreshToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
