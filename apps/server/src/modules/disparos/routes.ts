import {
  apiDisparoCreateBody,
  disparoBulkAnswer,
  disparoConnectionSchema,
  disparoConnectionUpdateBody,
  disparoCreateAnswer,
  disparoCreateBody,
  disparoOptOutSchema,
  disparoRowsFromCsv,
  parseCsv,
  disparosAnswer,
  disparoStatsSchema,
  disparosQuery,
  idParam,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Guards } from "../../http/guards.js";
import { sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import type { StoredMedia } from "../../lib/media.js";
import { decodeTextUpload } from "../../lib/uploads.js";
import { apiTokenOf, connectionByToken } from "../connection-facts/token.js";
import { idempotencyKeyOf } from "../outbox/idempotency.js";
import * as service from "./service.js";

const CSV_MAX_BYTES = 5 * 1024 * 1024;
/** 10 000 rows of JSON fit well under this */
const JSON_MAX_BYTES = 8 * 1024 * 1024;
const contactIdParam = z.object({ contactId: z.coerce.number().int().positive() });

/** The answer of a create: `skipped` only when invalid rows were left out (the documented shape otherwise). */
function withSkipped<T extends object>(created: T, skipped: number): T & { skipped?: number } {
  return skipped ? { ...created, skipped } : created;
}

/**
 * The Disparos screen's calls (document 001 §7), all admin-only on the server, the connections'
 * pace and pause, the opt-out list; and POST /api/disparos for outside bulk tools, with a
 * connection's message-API token.
 */
export function disparoRoutes(deps: service.DisparoDeps, guard: Guards): FastifyPluginAsyncZod {
  const { ctx, media } = deps.conv;
  return async (app) => {
    const tags = ["disparos"];
    app.get(
      "/disparos",
      { preHandler: guard.admin, schema: { tags, querystring: disparosQuery, response: { 200: disparosAnswer } } },
      (req) => service.listDisparos(ctx.db, req.query),
    );
    app.get("/disparos/stats", { preHandler: guard.admin, schema: { tags, response: { 200: disparoStatsSchema } } }, () =>
      service.disparoStats(ctx.db),
    );

    // JSON { whatsappId, rows | tagIds + message, startAt }, or multipart: whatsappId, message, startAt, a CSV file
    // (number,message,url; titled columns may add nome) and an optional media file sent with every row
    app.post(
      "/disparos",
      {
        preHandler: guard.admin,
        bodyLimit: JSON_MAX_BYTES,
        schema: {
          tags,
          description:
            "Queues disparos on a connection. Invalid rows reject the whole request: 400 ERR_VALIDATION whose `fields` name each one (`line.4.number`: the CSV's line 4; `rows.3.number`: the fourth JSON row; up to 500). " +
            "With `skipInvalid: true` they are left out and counted in `skipped`, and the valid rows are queued (all invalid: still 400). Rows for contacts who opted out are stored cancelled. " +
            'Multipart: fields whatsappId, message (for rows without one), startAt, skipInvalid ("true"); files `file` (CSV number,message,url; with titles in any order, plus `nome` for {nome}) and `media` (sent with every row).',
          headers: z.object({ "idempotency-key": z.string().max(200).optional() }).passthrough(),
          response: { 200: disparoCreateAnswer },
        },
      },
      async (req) => {
        const user = sessionUser(req);
        const key = idempotencyKeyOf(req.headers["idempotency-key"]);
        const idempotency = key ? { scope: `user:${user.id}`, key } : undefined;
        if (!req.isMultipart()) {
          const body = disparoCreateBody.parse(req.body ?? {});
          const raw = body.rows?.length
            ? body.rows.map((r, i) => ({
                label: `rows.${i}`,
                number: r.number,
                name: r.name,
                message: r.message ?? "",
                url: r.url,
                mimetype: r.mimetype,
              }))
            : await service.rowsFromTags(ctx.db, body.tagIds ?? [], body.message ?? "", body.url, body.mimetype);
          const { rows, skipped } = await service.checkRows(deps.conv, raw, undefined, { skipInvalid: body.skipInvalid });
          const created = await service.createDisparos(deps, {
            actor: sessionUser(req),
            whatsappId: body.whatsappId,
            rows,
            startAt: await service.startOf(ctx.db, body.startAt),
            idempotency,
          });
          return withSkipped(created, skipped);
        }
        const fields: Record<string, string> = {};
        let csv: Buffer | undefined;
        let file: Buffer | undefined;
        for await (const part of req.parts({ limits: { fileSize: Math.max(CSV_MAX_BYTES, ctx.config.UPLOAD_LIMIT) } })) {
          if (part.type === "file") {
            const data = await part.toBuffer();
            if (part.fieldname === "media" || part.fieldname === "medias") file = data;
            else {
              if (data.length > CSV_MAX_BYTES) throw new AppError("ERR_PAYLOAD_TOO_LARGE");
              csv = data;
            }
          } else if (typeof part.value === "string") fields[part.fieldname] = part.value;
        }
        const whatsappId = z.coerce.number().int().positive().parse(fields.whatsappId);
        const message = fields.message ?? "";
        const tagIds = fields.tagIds ? z.array(z.coerce.number().int().positive()).parse(fields.tagIds.split(",").filter(Boolean)) : [];
        if (!csv && !tagIds.length) throw new AppError("ERR_VALIDATION", 400, { file: ["Required"] });
        const raw = csv
          ? disparoRowsFromCsv(parseCsv((await decodeTextUpload(csv)).replace(/^\uFEFF/, "")), message)
          : await service.rowsFromTags(ctx.db, tagIds, message);
        if (raw.length === 0) throw new AppError("ERR_VALIDATION", 400, { file: ["No rows"] });
        const skipInvalid = fields.skipInvalid === "true";
        // the rows are checked before the media is stored: a refused request leaves nothing behind
        await service.checkRows(deps.conv, raw, file ? true : undefined, { skipInvalid });
        let stored: StoredMedia | undefined;
        if (file) stored = await media.storeUpload(file);
        try {
          const { rows, skipped } = await service.checkRows(deps.conv, raw, stored, { skipInvalid });
          const created = await service.createDisparos(deps, {
            actor: sessionUser(req),
            whatsappId,
            rows,
            startAt: await service.startOf(ctx.db, fields.startAt),
            idempotency,
          });
          return withSkipped(created, skipped);
        } catch (err) {
          if (stored) await media.remove(stored.key);
          throw err;
        }
      },
    );

    app.post(
      "/api/disparos",
      {
        bodyLimit: JSON_MAX_BYTES,
        schema: {
          tags,
          description:
            "For outside bulk tools: `{ rows: [{ number, message, url?, mimetype?, name? }], startAt? }` queued on the connection whose message-API token " +
            "comes in `Authorization: Bearer`, `X_TOKEN` or `X-Token`. Same rules as POST /disparos (`skipInvalid: true` leaves invalid rows out).",
          headers: z.object({ "idempotency-key": z.string().max(200).optional() }).passthrough(),
          body: apiDisparoCreateBody,
          response: { 200: disparoCreateAnswer },
          security: [{ bearer: [] }],
        },
      },
      async (req) => {
        const token = apiTokenOf(req.headers);
        if (!token) throw new AppError("ERR_INVALID_TOKEN", 401);
        const conn = await connectionByToken(ctx.db, token);
        if (!conn) throw new AppError("ERR_INVALID_TOKEN");
        const key = idempotencyKeyOf(req.headers["idempotency-key"]);
        const raw = req.body.rows.map((r, i) => ({
          label: `rows.${i}`,
          number: r.number,
          name: r.name,
          message: r.message ?? "",
          url: r.url,
          mimetype: r.mimetype,
        }));
        const { rows, skipped } = await service.checkRows(deps.conv, raw, undefined, { skipInvalid: req.body.skipInvalid });
        const created = await service.createDisparos(deps, {
          actor: { id: null, name: `API (${conn.name})`, ip: req.ip },
          whatsappId: conn.id,
          rows,
          startAt: await service.startOf(ctx.db, req.body.startAt),
          idempotency: key ? { scope: `token:${conn.id}`, key } : undefined,
        });
        return withSkipped(created, skipped);
      },
    );

    app.post("/disparos/restart-errors", { preHandler: guard.admin, schema: { tags, response: { 200: disparoBulkAnswer } } }, async () => ({
      changed: await service.restartErrors(deps),
    }));
    app.post(
      "/disparos/cancel-pending",
      { preHandler: guard.admin, schema: { tags, response: { 200: disparoBulkAnswer } } },
      async (req) => ({
        changed: await service.cancelPending(ctx, sessionUser(req)),
      }),
    );
    app.delete("/disparos", { preHandler: guard.admin, schema: { tags, response: { 200: disparoBulkAnswer } } }, async () => ({
      changed: await service.deleteAllDisparos(ctx),
    }));

    app.get(
      "/disparos/connections",
      { preHandler: guard.admin, schema: { tags, response: { 200: z.array(disparoConnectionSchema) } } },
      () => service.listConnections(deps),
    );
    app.put(
      "/disparos/connections/:id",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "A connection's disparo pace, sending hours and Pausar (paused: true) / Retomar (paused: false, also after a failure pause).",
          params: idParam,
          body: disparoConnectionUpdateBody,
          response: { 200: disparoConnectionSchema },
        },
      },
      (req) => service.updateConnection(deps, req.params.id, req.body),
    );

    app.get("/disparos/opt-outs", { preHandler: guard.admin, schema: { tags, response: { 200: z.array(disparoOptOutSchema) } } }, () =>
      service.listOptOuts(ctx.db),
    );
    app.delete("/disparos/opt-outs/:contactId", { preHandler: guard.admin, schema: { tags, params: contactIdParam } }, async (req) => {
      await service.clearOptOut(ctx, req.params.contactId);
      return { message: "Opt-out cleared" };
    });
  };
}
