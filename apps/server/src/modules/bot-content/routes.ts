import {
  audioEntriesAnswer,
  audioEntryBody,
  audioEntrySchema,
  botUploadAnswer,
  chatEntriesAnswer,
  chatEntryBody,
  chatEntrySchema,
  idParam,
} from "@balcao/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type Guards, sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import type { ConvDeps } from "../outbox/deps.js";
import * as service from "./service.js";

/** /chatbot and /audiobot: everyone signed in reads (agents send audio entries), admins write. */
export function botContentRoutes(conv: ConvDeps, guard: Guards): FastifyPluginAsyncZod {
  const { ctx, media } = conv;
  return async (app) => {
    const tags = ["bots"];
    app.get("/chatbot", { preHandler: guard.user, schema: { tags, response: { 200: chatEntriesAnswer } } }, () =>
      service.listChatEntries(ctx.db),
    );
    app.post("/chatbot", { preHandler: guard.admin, schema: { tags, body: chatEntryBody, response: { 200: chatEntrySchema } } }, (req) =>
      service.createChatEntry(ctx, req.body),
    );
    app.put(
      "/chatbot/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, body: chatEntryBody.partial(), response: { 200: chatEntrySchema } } },
      (req) => service.updateChatEntry(ctx, req.params.id, req.body),
    );
    app.delete("/chatbot/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteChatEntry(ctx, req.params.id);
      return { message: "Chat entry deleted" };
    });
    app.post("/chatbot/upload", { preHandler: guard.admin, schema: { tags, response: { 200: botUploadAnswer } } }, async (req, reply) => {
      const upload = await ctx.uploads.receive(req, reply, sessionUser(req).id, {
        maxFileBytes: ctx.config.UPLOAD_LIMIT,
        maxFiles: 1,
        accept: service.acceptImage,
      });
      try {
        const file = upload.files.find((f) => f.field === "image");
        if (!file) throw new AppError("ERR_INVALID_FILE", 400, { image: ["Required"] });
        return { ok: true, url: await service.storeChatImage(media, file) };
      } finally {
        await upload.cleanup();
      }
    });

    app.get("/audiobot", { preHandler: guard.user, schema: { tags, response: { 200: audioEntriesAnswer } } }, () =>
      service.listAudioEntries(ctx.db),
    );
    app.post("/audiobot", { preHandler: guard.admin, schema: { tags, body: audioEntryBody, response: { 200: audioEntrySchema } } }, (req) =>
      service.createAudioEntry(ctx, req.body),
    );
    app.put(
      "/audiobot/:id",
      { preHandler: guard.admin, schema: { tags, params: idParam, body: audioEntryBody.partial(), response: { 200: audioEntrySchema } } },
      (req) => service.updateAudioEntry(ctx, req.params.id, req.body),
    );
    app.delete("/audiobot/:id", { preHandler: guard.admin, schema: { tags, params: idParam } }, async (req) => {
      await service.deleteAudioEntry(ctx, req.params.id);
      return { message: "Audio entry deleted" };
    });
    app.post("/audiobot/upload", { preHandler: guard.admin, schema: { tags, response: { 200: botUploadAnswer } } }, async (req, reply) => {
      const upload = await ctx.uploads.receive(req, reply, sessionUser(req).id, {
        maxFileBytes: ctx.config.UPLOAD_LIMIT,
        maxFiles: 1,
        accept: service.acceptAudio,
      });
      try {
        const file = upload.files.find((f) => f.field === "audio");
        if (!file) throw new AppError("ERR_INVALID_FILE", 400, { audio: ["Required"] });
        return { ok: true, url: await service.storeVoiceNote(media, file) };
      } finally {
        await upload.cleanup();
      }
    });
  };
}
