import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SessionUser } from "../context.js";
import { AppError } from "../lib/errors.js";

declare module "fastify" {
  interface FastifyRequest {
    user?: SessionUser;
  }
}

/** The signed-in user of a request that passed `requireUser`. */
export function sessionUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw new AppError("ERR_SESSION_EXPIRED");
  // the request's address goes with the user to the services (the audit log records it); the cached user is never changed
  return { ...req.user, ip: req.ip };
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
}

/** Resolves an access token to the current user, or null when invalid, expired or revoked (modules/auth gives it). */
export type UserOfToken = (token: string) => Promise<SessionUser | null>;

export type Guard = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface Guards {
  /** Any signed-in user: a missing token answers 401, an invalid or expired one 403. */
  user: Guard;
  admin: Guard;
  /** admin or superv */
  supervisor: Guard;
}

/**
 * Route guards run first, at onRequest: a caller who may not use a route is refused before its
 * body is read or validated (no schema details to anonymous callers, no upload streamed for
 * nothing). Routes keep declaring them as `preHandler: guard.x`; this hook moves them.
 */
export function runGuardsFirst(app: FastifyInstance, guards: Guards) {
  const known = new Set<unknown>(Object.values(guards));
  const list = <T>(v: T | T[] | undefined): T[] => (Array.isArray(v) ? v : v ? [v] : []);
  app.addHook("onRoute", (route) => {
    const pre = list(route.preHandler);
    const mine = pre.filter((h) => known.has(h));
    if (mine.length === 0) return;
    route.preHandler = pre.filter((h) => !known.has(h));
    route.onRequest = [...list(route.onRequest), ...mine] as typeof route.onRequest;
  });
}

export function makeGuards(userOfToken: UserOfToken): Guards {
  const user: Guard = async (req) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw new AppError("ERR_SESSION_EXPIRED", 401);
    const found = await userOfToken(token);
    if (!found) throw new AppError("ERR_SESSION_EXPIRED", 403);
    req.user = found;
  };
  const profiles =
    (...allowed: SessionUser["profile"][]): Guard =>
    async (req, reply) => {
      if (!req.user) await user(req, reply);
      if (!allowed.includes(sessionUser(req).profile)) throw new AppError("ERR_NO_PERMISSION");
    };
  return { user, admin: profiles("admin"), supervisor: profiles("admin", "superv") };
}
