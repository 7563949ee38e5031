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

/** Paths the server answers itself even for a browser navigation (the simulator page included). */
const API_ONLY = /^\/(socket\.io|api-docs|media|assets|simulator|health)(\/|$)/;

/**
 * Serves the single-page app on the API's port. The SPA's routes share paths with the API
 * (/contacts, /users): a browser navigation (GET asking for HTML) gets index.html, the API client
 * (asking for JSON) gets the API.
 */
export async function registerWebApp(app: FastifyInstance, root: string) {
  // every file of the build gets its own route; hashed assets are cached for good
  await app.register(fastifyStatic, {
    root,
    prefix: "/",
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.header("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  app.addHook("onRequest", async (req, reply) => {
    if (req.method !== "GET" || API_ONLY.test(req.url)) return;
    const accept = req.headers.accept ?? "";
    if (accept.includes("text/html")) return reply.header("cache-control", "no-cache").sendFile("index.html", root);
  });
}
