import { idParam, idSchema, normalizeNumber } from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ChannelManager } from "../../channels/manager.js";
import { SIMULATOR_PAGE } from "../../channels/simulator/page.js";
import type { SimulatorHub, SimulatorSession } from "../../channels/simulator/session.js";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import { inlinePageCsp } from "../../http/security.js";
import { AppError } from "../../lib/errors.js";
import { readUpload } from "../../lib/uploads.js";
import * as service from "./service.js";

/** Like the contact form: digits, Brazil's 55 added to 10/11-digit numbers. */
const numberField = z
  .string()
  .trim()
  .transform((v) => normalizeNumber(v))
  .refine((v) => v.length >= 8 && v.length <= 20, "Invalid number");
const chatParams = idParam.extend({ number: numberField });
const customerMessage = z.object({
  number: numberField,
  name: z.string().trim().max(50).default(""),
  body: z.string().max(65_536).default(""),
  quotedId: z.string().max(100).optional(),
  /** a client-chosen message id: a retried request with the same id is one message */
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{6,100}$/)
    .optional(),
});

/**
 * The simulator page (/simulator) and its API (/simulator/api, admin only): create and pair
 * simulator connections, and act as customers. Registered only when config.simulatorEnabled
 * (off in production unless ENABLE_SIMULATOR=true).
 */
export function simulatorRoutes(ctx: AppContext, channels: ChannelManager, hub: SimulatorHub, guard: Guards): FastifyPluginAsyncZod {
  const sessionOf = (id: number): SimulatorSession => {
    const s = hub.get(id);
    if (!s || channels.get(id) !== s) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return s;
  };
  return async (app) => {
    const tags = ["simulator"];
    // its one inline script allowed by hash, not 'unsafe-inline'
    const pageCsp = inlinePageCsp(SIMULATOR_PAGE);
    app.get("/simulator", { schema: { hide: true } }, (_req, reply) =>
      reply.header("content-type", "text/html; charset=utf-8").header("content-security-policy", pageCsp).send(SIMULATOR_PAGE),
    );

    app.get("/simulator/api/connections", { preHandler: guard.admin, schema: { tags } }, async () => {
      const all = await service.listWhatsapps(ctx.db);
      return all
        .filter((w) => w.type === "simulator")
        .map((w) => ({ id: w.id, name: w.name, status: w.status, qrcode: w.qrcode, number: w.number, queues: w.queues }));
    });

    app.post(
      "/simulator/api/connections",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          body: z.object({
            name: z.string().trim().min(2).max(50),
            queueIds: z.array(idSchema).max(500).default([]),
            greetingMessage: z.string().max(30000).default(""),
            farewellMessage: z.string().max(30000).default(""),
          }),
        },
      },
      (req) => service.createWhatsapp(ctx, channels, { ...req.body, type: "simulator" }),
    );

    app.post(
      "/simulator/api/connections/:id/scan",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          params: idParam,
          // `number`: the simulated phone's own number (another phone than last time); by default one per connection
          body: z.object({
            qrcode: z.string().min(1).max(500),
            number: z
              .string()
              .regex(/^\d{8,20}$/)
              .optional(),
          }),
        },
      },
      async (req) => {
        const ok = await sessionOf(req.params.id).scan(req.body.qrcode, req.body.number);
        if (!ok) throw new AppError("ERR_VALIDATION", 400, { qrcode: ["This QR code is not the one shown (or expired)"] });
        return { ok };
      },
    );

    // JSON { number, name, body, quotedId } or multipart with a file
    app.post(
      "/simulator/api/connections/:id/messages",
      { preHandler: guard.admin, schema: { tags, params: idParam } },
      async (req, reply) => {
        const session = sessionOf(req.params.id);
        let fields: Record<string, unknown> = (req.body as Record<string, unknown>) ?? {};
        let media: { data: Buffer; mimetype: string; fileName?: string } | undefined;
        if (req.isMultipart()) {
          // a customer may send anything: the declared type is kept, the bytes still arrive through the receiver
          const upload = await ctx.uploads.receive(req, reply, sessionUser(req).id, {
            maxFileBytes: ctx.config.UPLOAD_LIMIT,
            maxFiles: 1,
            accept: () => true,
          });
          try {
            fields = upload.fields;
            const file = upload.files[0];
            if (file) media = { data: await readUpload(file), mimetype: file.detected?.mime ?? file.declaredMime, fileName: file.fileName };
          } finally {
            await upload.cleanup();
          }
        }
        const input = customerMessage.parse(fields);
        if (!input.body.trim() && !media) throw new AppError("ERR_VALIDATION", 400, { body: ["Required"] });
        if (!session.connected) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
        // answered once the product has journaled it (WhatsApp's "delivered")
        return { id: await session.customerSend({ ...input, media }) };
      },
    );

    app.get("/simulator/api/connections/:id/chats", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      const session = sessionOf(req.params.id);
      return (await session.chats()).map((c) => ({
        number: c.number,
        name: c.name,
        refused: c.refused,
        typing: session.typing.has(c.number),
        last: c.last ? c.last.body || c.last.mediaType : "",
        at: c.last?.at ?? null,
      }));
    });

    app.get(
      "/simulator/api/connections/:id/chats/:number",
      {
        preHandler: guard.admin,
        schema: { tags, params: chatParams, querystring: z.object({ limit: z.coerce.number().int().min(1).max(2000).default(500) }) },
      },
      async (req) => {
        const session = sessionOf(req.params.id);
        const chat = (await session.chats()).find((c) => c.number === req.params.number);
        const messages = await session.messages(req.params.number, req.query.limit);
        return {
          number: req.params.number,
          name: chat?.name ?? "",
          refused: chat?.refused ?? false,
          typing: session.typing.has(req.params.number),
          messages: messages.map(({ mediaFile, ...m }) => ({ ...m, hasMedia: !!mediaFile })),
        };
      },
    );

    app.get(
      "/simulator/api/connections/:id/chats/:number/media/:messageId",
      { preHandler: guard.admin, schema: { tags, params: chatParams.extend({ messageId: z.string().max(100) }) } },
      async (req, reply) => {
        const session = sessionOf(req.params.id);
        const msg = (await session.messages(req.params.number)).find((m) => m.id === req.params.messageId);
        const data = msg?.mediaFile ? await session.downloadMedia({ file: msg.mediaFile }).catch(() => undefined) : undefined;
        if (!msg || !data) throw new AppError("ERR_NOT_FOUND");
        return reply
          .header("content-type", msg.mimetype ?? "application/octet-stream")
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'; sandbox")
          .send(data);
      },
    );

    app.post(
      "/simulator/api/connections/:id/chats/:number/read",
      { preHandler: guard.admin, schema: { tags, params: chatParams } },
      async (req) => ({
        read: await sessionOf(req.params.id).customerRead(req.params.number),
      }),
    );

    app.post(
      "/simulator/api/connections/:id/chats/:number/typing",
      { preHandler: guard.admin, schema: { tags, params: chatParams, body: z.object({ typing: z.boolean() }) } },
      async (req) => {
        await sessionOf(req.params.id).customerTyping(req.params.number, req.body.typing);
        return { typing: req.body.typing };
      },
    );

    // the phone unlinks this device (loggedOut, 401) or WhatsApp refuses the number (forbidden, 403)
    app.post(
      "/simulator/api/connections/:id/unlink",
      {
        preHandler: guard.admin,
        schema: { tags, params: idParam, body: z.object({ reason: z.enum(["loggedOut", "forbidden"]).default("loggedOut") }) },
      },
      async (req) => {
        await sessionOf(req.params.id).unlinked(req.body.reason);
        return { unlinked: true };
      },
    );

    // the customer's phone refuses what is sent to it (as a number without WhatsApp): sends fail for good
    app.put(
      "/simulator/api/connections/:id/chats/:number/refused",
      { preHandler: guard.admin, schema: { tags, params: chatParams, body: z.object({ refused: z.boolean() }) } },
      async (req) => {
        await sessionOf(req.params.id).setRefused(req.params.number, req.body.refused);
        return { refused: req.body.refused };
      },
    );
  };
}
