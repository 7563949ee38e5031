import { recordAudit } from "../audit/service.js";
import type { AuthAnswer, LoginBody, SignupBody } from "@balcao/contract";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { refreshTokens, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { hashPassword, needsRehash, verifyPassword } from "../../lib/password.js";
import { getSettingValue } from "../settings/service.js";
import { createUser, endSessions, findUserByEmail, getUser } from "../users/service.js";
import { hashRefreshToken, newRefreshToken, signAccessToken, successorRefreshToken } from "./tokens.js";

export interface Session extends AuthAnswer {
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** A new session of the user (a refresh token family of its own) at the user's current token version. */
export async function openSession(ctx: AppContext, userId: number): Promise<Session> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("ERR_SESSION_EXPIRED");
  const fresh = newRefreshToken();
  const refreshExpiresAt = new Date(Date.now() + ctx.config.REFRESH_TOKEN_TTL * 1000);
  await ctx.db.insert(refreshTokens).values({
    tokenHash: fresh.hash,
    userId,
    family: fresh.family,
    tokenVersion: row.tokenVersion,
    expiresAt: refreshExpiresAt,
  });
  const token = await signAccessToken(ctx.config, row);
  return { token, user: await getUser(ctx.db, userId), refreshToken: fresh.token, refreshExpiresAt };
}

/** The answer for a refresh token already stored (a successor): a fresh access token beside it. */
async function answerWith(ctx: AppContext, token: string, row: typeof refreshTokens.$inferSelect): Promise<Session> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  if (!user || user.tokenVersion !== row.tokenVersion || row.expiresAt.getTime() <= Date.now()) throw new AppError("ERR_SESSION_EXPIRED");
  return {
    token: await signAccessToken(ctx.config, user),
    user: await getUser(ctx.db, user.id),
    refreshToken: token,
    refreshExpiresAt: row.expiresAt,
  };
}

/**
 * A rotated token presented again within the grace (two tabs refreshing at once): the same
 * successor is answered, following at most a few rotations made meanwhile. Undefined when the
 * grace is over or the successor is gone or revoked otherwise: that is reuse.
 */
async function withinGrace(ctx: AppContext, presented: string, row: typeof refreshTokens.$inferSelect): Promise<Session | undefined> {
  const graceMs = ctx.config.REFRESH_GRACE_S * 1000;
  let token = presented;
  let current = row;
  for (let hop = 0; hop < 4; hop++) {
    if (!current.revokedAt) return answerWith(ctx, token, current);
    if (Date.now() - current.revokedAt.getTime() > graceMs) return undefined;
    const next = successorRefreshToken(ctx.config, token);
    const [successor] = await ctx.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(next)));
    if (!successor || successor.family !== current.family) return undefined;
    token = next;
    current = successor;
  }
  return undefined;
}

export async function login(ctx: AppContext, input: LoginBody, ip = ""): Promise<Session> {
  const row = await findUserByEmail(ctx.db, input.email);
  const ok = await verifyPassword(input.password, row?.passwordHash);
  if (!row || !ok) {
    // the e-mail typed is recorded (never the password); an unknown e-mail has no user id
    await recordAudit(ctx.db, {
      actor: { id: row?.id ?? null, name: input.email },
      action: "auth.loginFailed",
      target: row ? `user:${row.id}` : "",
      ip,
    });
    throw new AppError("ERR_INVALID_CREDENTIALS");
  }
  if (row.passwordHash && needsRehash(row.passwordHash)) {
    // a hash of older parameters: today's, now that the password is known (a failure keeps the old one)
    const passwordHash = await hashPassword(input.password);
    await ctx.db
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, row.id), eq(users.passwordHash, row.passwordHash)))
      .catch((err) => ctx.log.warn({ err, userId: row.id }, "re-hashing a password failed"));
  }
  const session = await openSession(ctx, row.id);
  await recordAudit(ctx.db, { actor: { id: row.id, name: row.name }, action: "auth.login", target: `user:${row.id}`, ip });
  return session;
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
    const again = await withinGrace(ctx, presented, row);
    if (again) return again;
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
  // one transaction revokes the token and stores its successor; a concurrent refresh of the same
  // token finds it revoked and answers the same successor (withinGrace)
  const successor = successorRefreshToken(ctx.config, presented);
  const refreshExpiresAt = new Date(Date.now() + ctx.config.REFRESH_TOKEN_TTL * 1000);
  const rotated = await ctx.db.transaction(async (tx) => {
    const revoked = await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.tokenHash, hash), isNull(refreshTokens.revokedAt)))
      .returning({ h: refreshTokens.tokenHash });
    if (revoked.length === 0) return false;
    await tx
      .insert(refreshTokens)
      .values({
        tokenHash: hashRefreshToken(successor),
        userId: row.userId,
        family: row.family,
        tokenVersion: row.tokenVersion,
        expiresAt: refreshExpiresAt,
      })
      .onConflictDoNothing();
    return true;
  });
  if (!rotated) {
    const [now] = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash));
    const again = now && (await withinGrace(ctx, presented, now));
    if (again) return again;
    throw new AppError("ERR_SESSION_EXPIRED");
  }
  // housekeeping: drop this user's long-expired tokens
  await ctx.db
    .delete(refreshTokens)
    .where(and(eq(refreshTokens.userId, row.userId), or(lt(refreshTokens.expiresAt, new Date(Date.now() - 86_400_000)))));
  return {
    token: await signAccessToken(ctx.config, user),
    user: await getUser(ctx.db, user.id),
    refreshToken: successor,
    refreshExpiresAt,
  };
}

/**
 * Ends the user's sessions: the presented refresh token's family is revoked and the user's token
 * version moves on, so access tokens already issued are refused on their next request and the
 * user's sockets close (every device of the user: one version per user).
 */
export async function logout(ctx: AppContext, presented: string | undefined, bearerUserId?: number): Promise<void> {
  let userId = bearerUserId;
  if (presented) {
    const [row] = await ctx.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(presented)));
    if (row) {
      await ctx.db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.family, row.family));
      userId ??= row.userId;
    }
  }
  if (userId !== undefined) await endSessions(ctx, userId);
}

export async function signup(ctx: AppContext, input: SignupBody): Promise<Session> {
  if ((await getSettingValue(ctx.db, "userCreation")) !== "enabled") throw new AppError("ERR_USER_CREATION_DISABLED");
  const user = await createUser(ctx, { ...input, profile: "user", queueIds: [] });
  return openSession(ctx, user.id);
}
