import type { AuthAnswer, LoginBody, SignupBody } from "@balcao/contract";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { refreshTokens, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { verifyPassword } from "../../lib/password.js";
import { getSettingValue } from "../settings/service.js";
import { createUser, findUserByEmail, getUser } from "../users/service.js";
import { hashRefreshToken, newRefreshToken, signAccessToken } from "./tokens.js";

export interface Session extends AuthAnswer {
  refreshToken: string;
  refreshExpiresAt: Date;
}

async function openSession(ctx: AppContext, userId: number, family?: string): Promise<Session> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("ERR_SESSION_EXPIRED");
  const fresh = newRefreshToken();
  const refreshExpiresAt = new Date(Date.now() + ctx.config.REFRESH_TOKEN_TTL * 1000);
  await ctx.db.insert(refreshTokens).values({
    tokenHash: fresh.hash,
    userId,
    family: family ?? fresh.family,
    tokenVersion: row.tokenVersion,
    expiresAt: refreshExpiresAt,
  });
  const token = await signAccessToken(ctx.config, row);
  return { token, user: await getUser(ctx.db, userId), refreshToken: fresh.token, refreshExpiresAt };
}

export async function login(ctx: AppContext, input: LoginBody): Promise<Session> {
  const row = await findUserByEmail(ctx.db, input.email);
  const ok = await verifyPassword(input.password, row?.passwordHash);
  if (!row || !ok) throw new AppError("ERR_INVALID_CREDENTIALS");
  return openSession(ctx, row.id);
}

/**
 * Rotates the refresh token: the presented one is revoked and a new one of the same family
 * issued. A token presented again after rotation means it leaked: the whole family is revoked.
 */
export async function refresh(ctx: AppContext, presented: string | undefined): Promise<Session> {
  if (!presented) throw new AppError("ERR_SESSION_EXPIRED");
  const hash = hashRefreshToken(presented);
  const [row] = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash));
  if (!row) throw new AppError("ERR_SESSION_EXPIRED");
  if (row.revokedAt) {
    await ctx.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.family, row.family), isNull(refreshTokens.revokedAt)));
    throw new AppError("ERR_SESSION_EXPIRED");
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  if (row.expiresAt.getTime() <= Date.now() || !user || user.tokenVersion !== row.tokenVersion) {
    throw new AppError("ERR_SESSION_EXPIRED");
  }
  // only one concurrent refresh of the same token wins
  const revoked = await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.tokenHash, hash), isNull(refreshTokens.revokedAt)))
    .returning({ h: refreshTokens.tokenHash });
  if (revoked.length === 0) throw new AppError("ERR_SESSION_EXPIRED");
  // housekeeping: drop this user's long-expired tokens
  await ctx.db
    .delete(refreshTokens)
    .where(and(eq(refreshTokens.userId, row.userId), or(lt(refreshTokens.expiresAt, new Date(Date.now() - 86_400_000)))));
  return openSession(ctx, row.userId, row.family);
}

export async function logout(ctx: AppContext, presented: string | undefined): Promise<void> {
  if (!presented) return;
  const [row] = await ctx.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashRefreshToken(presented)));
  if (row) await ctx.db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.family, row.family));
}

export async function signup(ctx: AppContext, input: SignupBody): Promise<Session> {
  if ((await getSettingValue(ctx.db, "userCreation")) !== "enabled") throw new AppError("ERR_USER_CREATION_DISABLED");
  const user = await createUser(ctx, { ...input, profile: "user", queueIds: [] });
  return openSession(ctx, user.id);
}
