import { cleanDeep } from "@balcao/contract";
import type { FastifyInstance } from "fastify";

/**
 * Every text that comes in over HTTP loses NUL and the other C0 controls (see cleanText) before
 * the route's schema sees it: JSON bodies, query strings and path parameters here, multipart
 * fields in lib/uploads.ts. One hook rather than a zod string helper: it covers every route,
 * including schemas written with a plain z.string(), and lengths are then checked on the cleaned text.
 */
export function registerInputCleaning(app: FastifyInstance) {
  app.addHook("preValidation", async (req) => {
    if (req.body !== undefined && req.body !== null) req.body = cleanDeep(req.body);
    if (req.query && typeof req.query === "object") cleanDeep(req.query);
    if (req.params && typeof req.params === "object") cleanDeep(req.params);
  });
}
