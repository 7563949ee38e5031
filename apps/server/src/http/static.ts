import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** The built web app, if present: apps/web/dist beside this package. */
export function findWebDist(explicit?: string): string | undefined {
  if (explicit) return existsSync(resolve(explicit, "index.html")) ? resolve(explicit) : undefined;
  const here = dirname(fileURLToPath(import.meta.url));
  for (const c of [resolve(here, "../../../web/dist"), resolve(here, "../../web/dist")]) {
    if (existsSync(resolve(c, "index.html"))) return c;
  }
  return undefined;
}

/**
 * Paths the server answers itself even for a browser navigation: the socket, the API reference,
 * media, the build's assets, the simulator page and its API, the health check, the contract signing page.
 */
export const SERVER_PATHS = /^\/(socket\.io|api-docs|media|assets|simulator|health|assinar)(\/|$)/;

/**
 * Whether a GET or HEAD is a navigation the app answers. The SPA's routes share paths with the API
 * (/contacts, /users): a browser navigation (asking for HTML) gets index.html, the API client (asking
 * for JSON) gets the API. The root has no API route: anything but a JSON client gets the app there
 * (`curl http://host/` included).
 */
export function isAppNavigation(path: string, accept: string): boolean {
  if (SERVER_PATHS.test(path)) return false;
  if (accept.includes("text/html")) return true;
  return path === "/" && !accept.includes("application/json");
}

/**
 * Serves the single-page app on the API's port. Text files of the build are sent precompressed
 * (the `.br` and `.gz` files the web build writes beside them) when the client accepts it.
 */
export async function registerWebApp(app: FastifyInstance, root: string) {
  // every file of the build gets its own route; hashed assets are cached for good
  await app.register(fastifyStatic, {
    root,
    prefix: "/",
    wildcard: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (res, path) => {
      res.header("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  app.addHook("onRequest", async (req, reply) => {
    if (req.method !== "GET" && req.method !== "HEAD") return;
    const path = req.url.split("?", 1)[0] ?? req.url;
    if (isAppNavigation(path, req.headers.accept ?? "")) return reply.header("cache-control", "no-cache").sendFile("index.html", root);
  });
}
