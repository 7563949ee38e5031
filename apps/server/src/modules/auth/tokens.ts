import { createHash, randomBytes, randomUUID } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import type { Config } from "../../config.js";

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
    const { payload } = await jwtVerify(token, enc.encode(config.jwtSecret), { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.v !== "number") return null;
    return payload as unknown as AccessClaims;
  } catch {
    return null;
  }
}

export function newRefreshToken(): { token: string; hash: string; family: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashRefreshToken(token), family: randomUUID() };
}

export function hashRefreshToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
