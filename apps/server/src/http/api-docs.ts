import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { AppError } from "../lib/errors.js";
import { bearerToken, type UserOfToken } from "./guards.js";
import { inlinePageCsp } from "./security.js";

const COOKIE = "balcao_docs";

/** Shown instead of the API reference to a browser without an admin session: it opens one from the web app's sign-in. */
const GATE_PAGE = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Balcão — API</title>
<style>body{font:15px system-ui,sans-serif;max-width:460px;margin:80px auto;padding:0 16px;color:#1f2933}a{color:#3949ab}</style></head>
<body>
<h1>Referência da API</h1>
<p id="status">Verificando a sessão…</p>
<p><a href="/login">Entrar no Balcão</a> como administrador e volte a esta página.</p>
<script>
(async () => {
  const status = document.getElementById("status");
  const last = Number(sessionStorage.getItem("balcao-docs-try") || 0);
  const token = localStorage.getItem("token");
  if (!token || Date.now() - last < 10000) {
    status.textContent = "A referência da API é só para administradores com sessão aberta neste navegador.";
    return;
  }
  const res = await fetch("/api-docs/session", { method: "POST", headers: { authorization: "Bearer " + token } }).catch(() => null);
  if (res && res.ok) {
    sessionStorage.setItem("balcao-docs-try", String(Date.now()));
    location.reload();
  } else {
    status.textContent = res && res.status === 403 ? "Sua conta não é de administrador." : "Sua sessão expirou.";
  }
})();
</script>
</body>
</html>`;

/**
 * In production the API reference (/api-docs: the page, its assets, the JSON document) is for
 * signed-in admins only. A browser navigation carries no bearer token, so the page's gate reads the
 * web app's token from this origin's storage and trades it (POST /api-docs/session) for an
 * httpOnly, SameSite=Strict cookie scoped to /api-docs that lasts as long as that token; no token
 * ever travels in a URL. API clients may send their bearer token instead.
 */
export function registerApiDocsGate(app: FastifyInstance, ctx: AppContext, userOfToken: UserOfToken) {
  if (!ctx.config.isProduction) return;
  const csp = inlinePageCsp(GATE_PAGE);

  app.post("/api-docs/session", { schema: { hide: true } }, async (req, reply) => {
    const token = bearerToken(req.headers.authorization);
    const user = token ? await userOfToken(token) : null;
    if (!token || !user) throw new AppError("ERR_SESSION_EXPIRED", 401);
    if (user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
    reply.setCookie(COOKIE, token, {
      httpOnly: true,
      sameSite: "strict",
      secure: true,
      path: "/api-docs",
      maxAge: ctx.config.ACCESS_TOKEN_TTL,
    });
    return reply.status(204).send();
  });

  app.addHook("onRequest", async (req, reply) => {
    const path = req.url.split("?")[0];
    if (!/^\/api-docs(\/|$)/.test(path) || path === "/api-docs/session") return;
    const token = bearerToken(req.headers.authorization) ?? req.cookies[COOKIE];
    const user = token ? await userOfToken(token) : null;
    if (user?.profile === "admin") return;
    const page =
      req.method === "GET" && (path === "/api-docs" || path === "/api-docs/") && (req.headers.accept ?? "").includes("text/html");
    if (page) {
      return reply
        .status(401)
        .header("content-type", "text/html; charset=utf-8")
        .header("content-security-policy", csp)
        .header("cache-control", "no-store")
        .send(GATE_PAGE);
    }
    throw user ? new AppError("ERR_NO_PERMISSION") : new AppError("ERR_SESSION_EXPIRED", 401);
  });
}
