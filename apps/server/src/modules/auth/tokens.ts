import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
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

/** The claims of a valid, unexpired token, or null. */
export async function verifyAccessToken(config: Config, token: string): Promise<AccessClaims | null> {
  try {
    // a token without an expiry would be valid forever: refused
    const { payload } = await jwtVerify(token, enc.encode(config.jwtSecret), { algorithms: ["HS256"], requiredClaims: ["exp", "sub"] });
    if (typeof payload.sub !== "string" || typeof payload.v !== "number") return null;
    return payload as unknown as AccessClaims;
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
