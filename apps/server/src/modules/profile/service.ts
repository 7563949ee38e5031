import type { MyProfile, MyProfileBody } from "@balcao/contract";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { refreshTokens, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { hashPassword, verifyPassword } from "../../lib/password.js";
import { recordAudit } from "../audit/service.js";
import { getUser } from "../users/service.js";

/**
 * "Meu perfil": what any signed-in user reads and changes of their own account — their name, their
 * password (with the current one), and their preferences (language, theme, notification sound).
 * Only ever the caller's own row: the id comes from the session, never from the request; the role,
 * queues and e-mail stay with the admins (`PUT /users/{id}`).
 */

type UserRow = typeof users.$inferSelect;

const toProfile = (row: UserRow): MyProfile => ({
  id: row.id,
  name: row.name,
  email: row.email,
  profile: row.profile,
  language: row.language ?? null,
  theme: row.theme,
  notificationSound: row.notificationSound,
});

export async function getMyProfile(db: DbOrTx, userId: number): Promise<MyProfile> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("ERR_NO_USER_FOUND");
  return toProfile(row);
}

/** The fields a change is audited by; the password only as `passwordChanged`. */
const AUDITED = ["name", "language", "theme", "notificationSound"] as const;

/**
 * Saves the caller's own changes. A new password needs the current one (`ERR_WRONG_PASSWORD`
 * otherwise, nothing saved) and ends every session of the user: the token version moves on (access
 * tokens refused, sockets closed, on every process) and every refresh token is revoked. The caller's
 * route then opens a new session for the device that asked (`passwordChanged`).
 */
export async function updateMyProfile(
  ctx: AppContext,
  actor: SessionUser,
  input: MyProfileBody,
): Promise<{ profile: MyProfile; passwordChanged: boolean }> {
  const newPassword = input.password ? input.password : undefined;
  let checkedHash: string | undefined;
  if (newPassword) {
    if (!input.currentPassword) throw new AppError("ERR_VALIDATION", 400, { currentPassword: ["Required"] });
    const [row] = await ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, actor.id));
    if (!row) throw new AppError("ERR_NO_USER_FOUND");
    if (!(await verifyPassword(input.currentPassword, row.hash))) throw new AppError("ERR_WRONG_PASSWORD");
    checkedHash = row.hash;
  }
  const passwordHash = newPassword ? await hashPassword(newPassword) : undefined;

  const { saved, changed } = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(eq(users.id, actor.id)).for("update");
    if (!existing) throw new AppError("ERR_NO_USER_FOUND");
    // the password checked above must still be the stored one (another change may have landed meanwhile)
    if (checkedHash !== undefined && existing.passwordHash !== checkedHash) throw new AppError("ERR_WRONG_PASSWORD");
    const next = {
      name: input.name !== undefined ? input.name.trim() : existing.name,
      language: input.language ?? existing.language,
      theme: input.theme ?? existing.theme,
      notificationSound: input.notificationSound ?? existing.notificationSound,
    };
    const changed = AUDITED.filter((k) => next[k] !== existing[k]);
    if (changed.length === 0 && !passwordHash) return { saved: existing, changed };
    const [saved] = await tx
      .update(users)
      .set({
        ...Object.fromEntries(changed.map((k) => [k, next[k]])),
        ...(passwordHash && { passwordHash, tokenVersion: existing.tokenVersion + 1 }),
        updatedAt: new Date(),
      })
      .where(eq(users.id, actor.id))
      .returning();
    if (passwordHash) {
      // every refresh token of the user, this device's included: the route opens this device a new session
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.userId, actor.id), isNull(refreshTokens.revokedAt)));
    }
    await recordAudit(tx, {
      actor,
      action: "user.update",
      target: `user:${actor.id}`,
      before: Object.fromEntries(changed.map((k) => [k, existing[k]])),
      after: { ...Object.fromEntries(changed.map((k) => [k, next[k]])), ...(passwordHash && { passwordChanged: true }) },
    });
    return { saved, changed };
  });

  if (changed.includes("name") || passwordHash) {
    // the name reaches every screen (top bar, lists); the session cache drops the user on every process
    ctx.events.publish("user.saved", { action: "update", user: await getUser(ctx.db, actor.id) });
  }
  if (passwordHash) ctx.events.publish("user.sessionsEnded", { userId: actor.id });
  return { profile: toProfile(saved), passwordChanged: Boolean(passwordHash) };
}
