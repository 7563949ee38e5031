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

/** What the simulator's routes do with a connection's simulated phone (JSON in and out: it may run in the session's owner). */
export interface SimulatorOps {
  scan(qrcode: string, number?: string): Promise<boolean>;
  customerSend(input: {
    number: string;
    name: string;
    body: string;
    quotedId?: string;
    id?: string;
    media?: { data: string; mimetype: string; fileName?: string };
  }): Promise<string>;
  chats(): Promise<{ number: string; name: string; refused: boolean; typing: boolean; last: string; at: string | null }[]>;
  chat(number: string, limit: number): Promise<unknown>;
  media(number: string, messageId: string): Promise<{ mimetype: string; data: string } | null>;
  read(number: string): Promise<number>;
  typing(number: string, typing: boolean): Promise<void>;
  refused(number: string, refused: boolean): Promise<void>;
  unlinked(reason: "loggedOut" | "forbidden"): Promise<void>;
}

/**
 * The ops over this process's session of the connection (ERR_WAPP_NOT_INITIALIZED when it has
 * none). `startingMs` (several processes): a customer message waits this long for a session this
 * process is starting (it just took the connection over) to connect.
 */
export function localSimulatorOps(channels: ChannelManager, hub: SimulatorHub, id: number, startingMs = 0): SimulatorOps {
  const current = () => {
    const s = hub.get(id);
    return s && channels.get(id) === s ? s : undefined;
  };
  const sessionOf = (): SimulatorSession => {
    const s = current();
    if (!s) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return s;
  };
  const connected = async (): Promise<SimulatorSession> => {
    const deadline = Date.now() + startingMs;
    for (;;) {
      const s = current();
      if (s?.connected) return s;
      if (Date.now() >= deadline) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    scan: (qrcode, number) => sessionOf().scan(qrcode, number),
    async customerSend({ media, ...input }) {
      const session = await connected();
      // answered once the product has journaled it (WhatsApp's "delivered")
      return session.customerSend({ ...input, media: media && { ...media, data: Buffer.from(media.data, "base64") } });
    },
    async chats() {
      const session = sessionOf();
      return (await session.chats()).map((c) => ({
        number: c.number,
        name: c.name,
        refused: c.refused,
        typing: session.typing.has(c.number),
        last: c.last ? c.last.body || c.last.mediaType : "",
        at: c.last?.at ?? null,
      }));
    },
    async chat(number, limit) {
      const session = sessionOf();
      const chat = (await session.chats()).find((c) => c.number === number);
      const messages = await session.messages(number, limit);
      return {
        number,
        name: chat?.name ?? "",
        refused: chat?.refused ?? false,
        typing: session.typing.has(number),
        messages: messages.map(({ mediaFile, ...m }) => ({ ...m, hasMedia: !!mediaFile })),
      };
    },
    async media(number, messageId) {
      const session = sessionOf();
      const msg = (await session.messages(number)).find((m) => m.id === messageId);
      const data = msg?.mediaFile ? await session.downloadMedia({ file: msg.mediaFile }).catch(() => undefined) : undefined;
      return msg && data ? { mimetype: msg.mimetype ?? "application/octet-stream", data: data.toString("base64") } : null;
    },
    read: (number) => sessionOf().customerRead(number),
    typing: (number, typing) => sessionOf().customerTyping(number, typing),
    refused: (number, refused) => sessionOf().setRefused(number, refused),
    unlinked: (reason) => sessionOf().unlinked(reason),
  };
}

/** How long a customer message waits for a session being started by a process that just took it over. */
const STARTING_MS = 3000;

/** Owner calls of the simulator (several processes): the `sim` method answers SimulatorOps for the connection's owner. */
export const SIM_CALL = "sim";
export function simulatorCallHandler(channels: ChannelManager, hub: SimulatorHub) {
  return async (whatsappId: number, args: unknown) => {
    const { op, params } = args as { op: keyof SimulatorOps; params: unknown[] };
    const ops = localSimulatorOps(channels, hub, whatsappId, STARTING_MS);
    const fn = ops[op] as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (typeof fn !== "function") throw new Error(`unknown simulator op ${String(op)}`);
    return fn(...params);
  };
}

/** Asks the session's owner (several processes). */
export type OwnerAsk = (whatsappId: number, method: string, args: unknown) => Promise<unknown>;

/**
 * The simulator page (/simulator) and its API (/simulator/api, admin only): create and pair
 * simulator connections, and act as customers. Registered only when config.simulatorEnabled
 * (off in production unless ENABLE_SIMULATOR=true). With several processes any of them answers:
 * what needs the simulated phone goes to the process owning the connection's session (`ask`).
 */
export function simulatorRoutes(
  ctx: AppContext,
  channels: ChannelManager,
  hub: SimulatorHub,
  guard: Guards,
  ask?: OwnerAsk,
): FastifyPluginAsyncZod {
  const opsOf = (id: number): SimulatorOps => {
    if (!ask) return localSimulatorOps(channels, hub, id);
    // several processes: here when this process runs the session, else at its owner (also when it
    // stopped here meanwhile: a hand-over)
    const local = localSimulatorOps(channels, hub, id, STARTING_MS);
    const op =
      (name: keyof SimulatorOps) =>
      async (...params: unknown[]) => {
        if (channels.get(id)) {
          try {
            return await (local[name] as (...a: unknown[]) => Promise<unknown>)(...params);
          } catch (err) {
            if (channels.get(id) || (err as { code?: string }).code !== "ERR_WAPP_NOT_INITIALIZED") throw err;
          }
        }
        return ask(id, SIM_CALL, { op: name, params });
      };
    return {
      scan: op("scan"),
      customerSend: op("customerSend"),
      chats: op("chats"),
      chat: op("chat"),
      media: op("media"),
      read: op("read"),
      typing: op("typing"),
      refused: op("refused"),
    } as SimulatorOps;
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
        const ok = await opsOf(req.params.id).scan(req.body.qrcode, req.body.number);
        if (!ok) throw new AppError("ERR_VALIDATION", 400, { qrcode: ["This QR code is not the one shown (or expired)"] });
        return { ok };
      },
    );

    // JSON { number, name, body, quotedId } or multipart with a file
    app.post(
      "/simulator/api/connections/:id/messages",
      { preHandler: guard.admin, schema: { tags, params: idParam } },
      async (req, reply) => {
        let fields: Record<string, unknown> = (req.body as Record<string, unknown>) ?? {};
        let media: { data: string; mimetype: string; fileName?: string } | undefined;
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
            if (file)
              media = {
                data: (await readUpload(file)).toString("base64"),
                mimetype: file.detected?.mime ?? file.declaredMime,
                fileName: file.fileName,
              };
          } finally {
            await upload.cleanup();
          }
        }
        const input = customerMessage.parse(fields);
        if (!input.body.trim() && !media) throw new AppError("ERR_VALIDATION", 400, { body: ["Required"] });
        return { id: await opsOf(req.params.id).customerSend({ ...input, media }) };
      },
    );

    app.get("/simulator/api/connections/:id/chats", { preHandler: guard.admin, schema: { tags, params: idParam } }, (req) =>
      opsOf(req.params.id).chats(),
    );

    app.get(
      "/simulator/api/connections/:id/chats/:number",
      {
        preHandler: guard.admin,
        schema: { tags, params: chatParams, querystring: z.object({ limit: z.coerce.number().int().min(1).max(2000).default(500) }) },
      },
      (req) => opsOf(req.params.id).chat(req.params.number, req.query.limit),
    );

    app.get(
      "/simulator/api/connections/:id/chats/:number/media/:messageId",
      { preHandler: guard.admin, schema: { tags, params: chatParams.extend({ messageId: z.string().max(100) }) } },
      async (req, reply) => {
        const media = await opsOf(req.params.id).media(req.params.number, req.params.messageId);
        if (!media) throw new AppError("ERR_NOT_FOUND");
        return reply
          .header("content-type", media.mimetype)
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'; sandbox")
          .send(Buffer.from(media.data, "base64"));
      },
    );

    app.post(
      "/simulator/api/connections/:id/chats/:number/read",
      { preHandler: guard.admin, schema: { tags, params: chatParams } },
      async (req) => ({
        read: await opsOf(req.params.id).read(req.params.number),
      }),
    );

    app.post(
      "/simulator/api/connections/:id/chats/:number/typing",
      { preHandler: guard.admin, schema: { tags, params: chatParams, body: z.object({ typing: z.boolean() }) } },
      async (req) => {
        await opsOf(req.params.id).typing(req.params.number, req.body.typing);
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
        await opsOf(req.params.id).unlinked(req.body.reason);
        return { unlinked: true };
      },
    );

    // the customer's phone refuses what is sent to it (as a number without WhatsApp): sends fail for good
    app.put(
      "/simulator/api/connections/:id/chats/:number/refused",
      { preHandler: guard.admin, schema: { tags, params: chatParams, body: z.object({ refused: z.boolean() }) } },
      async (req) => {
        await opsOf(req.params.id).refused(req.params.number, req.body.refused);
        return { refused: req.body.refused };
      },
    );
  };
}
