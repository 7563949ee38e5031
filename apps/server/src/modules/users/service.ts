import { type AuditActor, recordAudit } from "../audit/service.js";
import type { User, UserCreateBody, UserUpdateBody, Profile } from "@balcao/contract";
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import type { AppContext, SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { queues, tickets, userQueues, users } from "../../db/schema/index.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";
import { hashPassword, verifyPassword } from "../../lib/password.js";
import { adminActor, transitionTicket } from "../tickets/apply-transition.js";
import { containsPattern, iso, pageWindow } from "../../lib/sql.js";

type UserRow = typeof users.$inferSelect;

async function queuesOf(db: DbOrTx, userIds: number[]) {
  const byUser = new Map<number, { id: number; name: string; color: string }[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(inArray(userQueues.userId, userIds))
    .orderBy(asc(queues.name));
  for (const r of rows) {
    const list = byUser.get(r.userId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color });
    byUser.set(r.userId, list);
  }
  return byUser;
}

function toUser(row: UserRow, userQueueList: { id: number; name: string; color: string }[]): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    queues: userQueueList,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export async function getUser(db: DbOrTx, id: number): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new AppError("ERR_NO_USER_FOUND");
  const q = await queuesOf(db, [id]);
  return toUser(row, q.get(id) ?? []);
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

/** The user as a request sees it, with the ids of their queues and the current token version. */
export async function loadSessionUser(db: DbOrTx, id: number): Promise<{ user: SessionUser; tokenVersion: number } | null> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      profile: users.profile,
      tokenVersion: users.tokenVersion,
      queueIds: sql<number[] | null>`(select array_agg(${userQueues.queueId}) from ${userQueues} where ${userQueues.userId} = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, id));
  const row = rows[0];
  if (!row) return null;
  return {
    user: { id: row.id, name: row.name, email: row.email, profile: row.profile, queueIds: (row.queueIds ?? []).map(Number) },
    tokenVersion: row.tokenVersion,
  };
}

export async function listUsers(db: DbOrTx, q: { searchParam: string; pageNumber: number; rowsPerPage: number }) {
  const where = q.searchParam
    ? or(ilike(sql`lower(${users.name})`, containsPattern(q.searchParam)), ilike(users.email, containsPattern(q.searchParam)))
    : undefined;
  const { offset, limit } = pageWindow(q.pageNumber, q.rowsPerPage);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  const qs = await queuesOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    users: rows.map((r) => toUser(r, qs.get(r.id) ?? [])),
    count: total,
    hasMore: offset + rows.length < total,
  };
}

async function setQueues(db: DbOrTx, userId: number, queueIds: number[]) {
  const unique = [...new Set(queueIds)];
  if (unique.length) {
    const found = await db.select({ id: queues.id }).from(queues).where(inArray(queues.id, unique));
    if (found.length !== unique.length) throw new AppError("ERR_NO_QUEUE_FOUND");
  }
  await db.delete(userQueues).where(eq(userQueues.userId, userId));
  if (unique.length) await db.insert(userQueues).values(unique.map((queueId) => ({ userId, queueId })));
}

export async function createUser(ctx: AppContext, input: UserCreateBody & { profile?: Profile }, actor?: AuditActor): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ name: input.name.trim(), email: input.email.trim().toLowerCase(), passwordHash, profile: input.profile ?? "user" })
        .returning();
      await setQueues(tx, row.id, input.queueIds ?? []);
      const created = await getUser(tx, row.id);
      if (actor !== undefined) {
        await recordAudit(tx, {
          actor,
          action: "user.create",
          target: `user:${row.id}`,
          after: { name: created.name, email: created.email, profile: created.profile, queueIds: created.queues.map((q) => q.id) },
        });
      }
      return created;
    });
    ctx.events.publish("user.saved", { action: "create", user });
    return user;
  } catch (err) {
    if (isUniqueViolation(err, "users_email_key")) throw new AppError("ERR_USER_EMAIL_ALREADY_EXISTS");
    throw err;
  }
}

async function adminCount(db: DbOrTx, exceptId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.profile, "admin"), ne(users.id, exceptId)));
  return n;
}

/**
 * Admins edit anyone; others edit only their own name, e-mail and password.
 * The last admin cannot lose the admin profile.
 */
export async function updateUser(ctx: AppContext, actor: SessionUser, id: number, input: UserUpdateBody): Promise<User> {
  const isAdmin = actor.profile === "admin";
  if (actor.id === id && input.password) {
    // one's own password changes only with the current one (a borrowed session cannot take the account)
    if (!input.currentPassword) throw new AppError("ERR_VALIDATION", 400, { currentPassword: ["Required"] });
    const [row] = await ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id));
    if (!(await verifyPassword(input.currentPassword, row?.hash))) throw new AppError("ERR_WRONG_PASSWORD");
  }
  if (!isAdmin && actor.id !== id) throw new AppError("ERR_NO_PERMISSION");
  if (!isAdmin && (input.profile !== undefined || input.queueIds !== undefined)) {
    const current = await getUser(ctx.db, id);
    const sameQueues =
      input.queueIds === undefined || JSON.stringify([...input.queueIds].sort()) === JSON.stringify(current.queues.map((q) => q.id).sort());
    if ((input.profile !== undefined && input.profile !== current.profile) || !sameQueues) throw new AppError("ERR_NO_PERMISSION");
  }
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  let sessionsEnded = false;
  try {
    const user = await ctx.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(users).where(eq(users.id, id)).for("update");
      if (!existing) throw new AppError("ERR_NO_USER_FOUND");
      if (existing.profile === "admin" && input.profile && input.profile !== "admin" && (await adminCount(tx, id)) === 0) {
        throw new AppError("ERR_LAST_ADMIN");
      }
      // a new password or profile ends every session of the user: old tokens are refused at once
      sessionsEnded = !!passwordHash || (input.profile !== undefined && input.profile !== existing.profile);
      await tx
        .update(users)
        .set({
          ...(input.name !== undefined && { name: input.name.trim() }),
          ...(input.email !== undefined && { email: input.email.trim().toLowerCase() }),
          ...(input.profile !== undefined && { profile: input.profile }),
          ...(passwordHash && { passwordHash }),
          ...(sessionsEnded && { tokenVersion: existing.tokenVersion + 1 }),
          updatedAt: new Date(),
        })
        .where(eq(users.id, id));
      const beforeQueues = (await getUser(tx, id)).queues.map((q) => q.id).sort((a, b) => a - b);
      if (input.queueIds !== undefined && isAdmin) await setQueues(tx, id, input.queueIds);
      const saved = await getUser(tx, id);
      // permissions (profile, queues) and identity changes are audited; a password change only as a fact
      const was = { name: existing.name, email: existing.email, profile: existing.profile, queueIds: beforeQueues };
      const now = {
        name: saved.name,
        email: saved.email,
        profile: saved.profile,
        queueIds: saved.queues.map((q) => q.id).sort((a, b) => a - b),
      };
      const changed = (Object.keys(was) as (keyof typeof was)[]).filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]));
      if (changed.length || passwordHash) {
        await recordAudit(tx, {
          actor,
          action: "user.update",
          target: `user:${id}`,
          before: Object.fromEntries(changed.map((k) => [k, was[k]])),
          after: { ...Object.fromEntries(changed.map((k) => [k, now[k]])), ...(passwordHash && { passwordChanged: true }) },
        });
      }
      return saved;
    });
    ctx.events.publish("user.saved", { action: "update", user });
    if (sessionsEnded) ctx.events.publish("user.sessionsEnded", { userId: id });
    return user;
  } catch (err) {
    if (isUniqueViolation(err, "users_email_key")) throw new AppError("ERR_USER_EMAIL_ALREADY_EXISTS");
    throw err;
  }
}

/**
 * Ends every session of a user (logout): the token version moves on, so access tokens and refresh
 * tokens of the old version are refused on their next use, and the user's sockets close.
 */
export async function endSessions(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
  ctx.events.publish("user.sessionsEnded", { userId });
}

/** Deletes a user; their open tickets go back to their queue as pending, unassigned. */
export async function deleteUser(ctx: AppContext, actor: SessionUser, id: number): Promise<void> {
  if (actor.id === id) throw new AppError("ERR_CANNOT_DELETE_SELF");
  const movedTicketIds = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!existing) throw new AppError("ERR_NO_USER_FOUND");
    if (existing.profile === "admin" && (await adminCount(tx, id)) === 0) throw new AppError("ERR_LAST_ADMIN");
    // the user's open tickets back to the waiting list, each through the transition (its history says who and why)
    const open = await tx
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.userId, id), eq(tickets.status, "open")))
      .orderBy(tickets.id);
    const moved: { id: number }[] = [];
    for (const t of open) if ((await transitionTicket(tx, t.id, adminActor(actor), { type: "ownerDeleted" })).changed) moved.push(t);
    await tx.delete(users).where(eq(users.id, id));
    await recordAudit(tx, {
      actor,
      action: "user.delete",
      target: `user:${id}`,
      before: { name: existing.name, email: existing.email, profile: existing.profile },
    });
    return moved.map((t) => t.id);
  });
  ctx.events.publish("user.deleted", { userId: id });
  if (movedTicketIds.length) ctx.events.publish("tickets.changed", { ticketIds: movedTicketIds });
}
