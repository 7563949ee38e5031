import { authAnswer, loginBody, signupBody } from "@balcao/contract";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.js";
import { AppError } from "../../lib/errors.js";
import { LoginThrottle } from "../../lib/login-throttle.js";
import { RateLimiter } from "../../lib/rate-limiter.js";
import { bearerToken } from "../../http/guards.js";
import * as auth from "./service.js";
import { verifyAccessToken } from "./tokens.js";

export const REFRESH_COOKIE = "jrt";

/** The session's refresh token as the browser keeps it: an HTTP-only cookie sent only to /auth. */
export function setRefreshCookie(ctx: AppContext, reply: FastifyReply, s: auth.Session) {
  return reply.setCookie(REFRESH_COOKIE, s.refreshToken, {
    httpOnly: true,
    sameSite: "strict",
    secure: ctx.config.isProduction,
    path: "/auth",
    expires: s.refreshExpiresAt,
  });
}

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const windowMs = ctx.config.LOGIN_RATE_WINDOW_S * 1000;
  const throttle = new LoginThrottle(
    {
      freeFailures: ctx.config.LOGIN_RATE_PER_EMAIL,
      baseDelayS: 2,
      maxDelayS: 15 * 60,
      ipFailures: ctx.config.LOGIN_RATE_PER_IP,
      windowS: ctx.config.LOGIN_RATE_WINDOW_S,
    },
    ctx.cluster.store,
  );
  const signupsPerIp = new RateLimiter(ctx.cluster.store, "signup-ip", ctx.config.LOGIN_RATE_PER_IP, windowMs);

  const setCookie = (reply: FastifyReply, s: auth.Session) => setRefreshCookie(ctx, reply, s);
  const limited = (reply: FastifyReply, seconds: number) => {
    reply.header("retry-after", String(seconds));
    throw new AppError("ERR_TOO_MANY_REQUESTS");
  };

  return async (app) => {
    app.post("/auth/login", { schema: { tags: ["auth"], body: loginBody, response: { 200: authAnswer } } }, async (req, reply) => {
      const wait = await throttle.retryAfter(req.ip, req.body.email);
      if (wait > 0) limited(reply, wait);
      try {
        const session = await auth.login(ctx, req.body, req.ip);
        await throttle.succeeded(req.ip, req.body.email);
        setCookie(reply, session);
        return { token: session.token, user: session.user };
      } catch (err) {
        if (err instanceof AppError && err.code === "ERR_INVALID_CREDENTIALS") await throttle.failed(req.ip, req.body.email);
        throw err;
      }
    });

    app.post("/auth/refresh_token", { schema: { tags: ["auth"], response: { 200: authAnswer } } }, async (req, reply) => {
      try {
        const session = await auth.refresh(ctx, req.cookies[REFRESH_COOKIE]);
        setCookie(reply, session);
        return { token: session.token, user: session.user };
      } catch (err) {
        reply.clearCookie(REFRESH_COOKIE, { path: "/auth" });
        throw err;
      }
    });

    app.delete("/auth/logout", { schema: { tags: ["auth"] } }, async (req, reply) => {
      const bearer = bearerToken(req.headers.authorization);
      const claims = bearer ? await verifyAccessToken(ctx.config, bearer) : null;
      await auth.logout(ctx, req.cookies[REFRESH_COOKIE], claims ? Number(claims.sub) : undefined);
      reply.clearCookie(REFRESH_COOKIE, { path: "/auth" });
      return reply.status(204).send();
    });

    app.post("/auth/signup", { schema: { tags: ["auth"], body: signupBody, response: { 200: authAnswer } } }, async (req, reply) => {
      const wait = await signupsPerIp.take(req.ip);
      if (wait > 0) limited(reply, wait);
      const session = await auth.signup(ctx, req.body);
      setCookie(reply, session);
      return { token: session.token, user: session.user };
    });
  };
}
