import {
  apiTokenAnswer,
  BRANDING_UPLOAD_KEYS,
  type BrandingUploadKey,
  colorsAnswer,
  mailTestAnswer,
  mailTestBody,
  publicUrlAnswer,
  SETTINGS_TOKEN_HEADER,
  settingsUnlockAnswer,
  settingsUnlockBody,
  settingUpdateBody,
  UNGATED_SETTING_KEYS,
  uploadAnswer,
} from "@balcao/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.js";
import { type Guards, sessionUser } from "../../http/guards.js";
import { AppError } from "../../lib/errors.js";
import type { Clock } from "../../lib/pace.js";
import { RateLimiter } from "../../lib/rate-limiter.js";
import { acceptImage, BRANDING_MAX_BYTES, BRANDING_NAME, type BrandingStore, brandingHeaders, type ImageUse } from "./branding.js";
import { SettingsGate } from "./gate.js";
import { sendTestMail } from "./mail.js";
import { publicUrlInfo } from "./public-url.js";
import * as service from "./service.js";

const publicSetting = z.object({ key: z.string(), value: z.string(), hasValue: z.boolean().optional() });
const tokenHeader = z.object({ [SETTINGS_TOKEN_HEADER]: z.string().max(200).optional() }).passthrough();
const GATE_NOTE =
  " While a settings password is set, needs the X-Settings-Token header of POST /settings/unlock (else 403 ERR_SETTINGS_LOCKED).";

export function settingRoutes(ctx: AppContext, guard: Guards, clock: Clock, branding: BrandingStore): FastifyPluginAsyncZod {
  const unlockLimiter = new RateLimiter(
    ctx.cluster.store,
    "settings-unlock",
    ctx.config.LOGIN_RATE_PER_EMAIL,
    ctx.config.LOGIN_RATE_WINDOW_S * 1000,
  );
  const gate = new SettingsGate(ctx, clock);
  const checkGate = (req: FastifyRequest) => gate.check(sessionUser(req), req.headers[SETTINGS_TOKEN_HEADER]);

  /** Receives one image (field `field`), keeps it under a new name, answers its URL. */
  async function receiveImage(req: FastifyRequest, reply: FastifyReply, field: string, use: ImageUse): Promise<string> {
    const upload = await ctx.uploads.receive(req, reply, sessionUser(req).id, {
      maxFileBytes: BRANDING_MAX_BYTES,
      maxFiles: 1,
      maxFields: 2,
      accept: acceptImage(use),
    });
    try {
      const file = upload.files.find((f) => f.field === field);
      if (!file) throw new AppError("ERR_VALIDATION", 400, { [field]: ["Required"] });
      return await branding.adopt(file, use);
    } finally {
      await upload.cleanup();
    }
  }

  return async (app) => {
    const tags = ["settings"];
    app.get(
      "/settings",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description:
            "Admins: every setting (secrets as hasValue only). Agents and supervisors: only the keys their screens read (AGENT_SETTING_KEYS of the contract).",
          response: { 200: z.array(publicSetting) },
        },
      },
      (req) => service.listSettings(ctx.db, sessionUser(req).profile === "admin"),
    );
    app.get(
      "/settings/public-url",
      {
        preHandler: guard.user,
        schema: {
          tags,
          description:
            'The address links start with (signing links, the Cloud API webhook URL, the API page\'s examples): the setting publicUrl when filled, else the PUBLIC_URL environment variable, else the address this request came to (source "request"). `warnings`/`warning`: not HTTPS, or a local/internal host (Meta and customers cannot reach it).',
          response: { 200: publicUrlAnswer },
        },
      },
      (req) => publicUrlInfo(ctx, { protocol: req.protocol, host: req.host }),
    );
    app.put(
      "/settings/:key",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description: `Changes one setting.${GATE_NOTE} darkMode (the top bar's switch) is not gated; settingsPassword can be created without a token while none is set. A saved secret goes only to its saved address: changing aiBaseUrl, integrationUrl or the mail server (host, port, security) while its key/token/password is saved needs it typed again as \`secret\` in the same body (else 400 ERR_VALIDATION naming secret); clearing the address drops it. auditRetentionDays: 0 (forever) or at least 90.`,
          params: z.object({ key: z.string().max(100) }),
          headers: tokenHeader,
          body: settingUpdateBody,
          response: { 200: publicSetting },
        },
      },
      async (req) => {
        service.assertKey(req.params.key);
        if (!UNGATED_SETTING_KEYS.includes(req.params.key)) await checkGate(req);
        return service.updateSetting(ctx, req.params.key, req.body.value, sessionUser(req), req.body.secret);
      },
    );
    /** The 'Acesso restrito' gate of the settings screen, checked here. */
    app.post(
      "/settings/unlock",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description:
            "Checks the settings password and answers a short-lived settings token bound to this admin. Wrong: 403 ERR_WRONG_SETTINGS_PASSWORD ('Senha incorreta!'); repeated failures 429; none set yet: 409 ERR_SETTINGS_PASSWORD_NOT_SET.",
          body: settingsUnlockBody,
          response: { 200: settingsUnlockAnswer },
        },
      },
      async (req, reply) => {
        const user = sessionUser(req);
        const key = String(user.id);
        const wait = await unlockLimiter.retryAfter(key);
        if (wait > 0) {
          reply.header("retry-after", String(wait));
          throw new AppError("ERR_TOO_MANY_REQUESTS");
        }
        const ok = await service.verifySettingsPassword(ctx, req.body.password, user);
        if (!ok) {
          await unlockLimiter.hit(key);
          throw new AppError("ERR_WRONG_SETTINGS_PASSWORD");
        }
        await unlockLimiter.reset(key);
        return { ok: true, ...(await gate.issue(user)) };
      },
    );
    app.post(
      "/settings/userApiToken",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description: `'Gerar novo': a new API token, shown once (only its hash is kept).${GATE_NOTE}`,
          headers: tokenHeader,
          response: { 200: apiTokenAnswer },
        },
      },
      async (req) => {
        await checkGate(req);
        return service.regenerateApiToken(ctx, sessionUser(req));
      },
    );
    app.post(
      "/upload/:key",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description: `Replaces a logo or the favicon (multipart field \`file\`; PNG, JPEG, WebP or script-free SVG; the favicon ICO, PNG or SVG; up to 1 MiB).${GATE_NOTE}`,
          params: z.object({ key: z.enum(Object.keys(BRANDING_UPLOAD_KEYS) as [BrandingUploadKey, ...BrandingUploadKey[]]) }),
          headers: tokenHeader,
          response: { 200: uploadAnswer },
        },
      },
      async (req, reply) => {
        await checkGate(req);
        const url = await receiveImage(req, reply, "file", req.params.key === "favicon" ? "favicon" : "logo");
        const { previous } = await service.setBrandingImage(ctx, req.params.key, url);
        if (previous !== url) await branding.removeUrl(previous);
        return { url };
      },
    );
    app.post(
      "/email/upload",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description: `An image for the e-mails (logo, contract background, watermark; multipart field \`image\`, PNG or JPEG, up to 1 MiB): answers its URL, which the screen saves in mail_logo, mail_fundo_contrato or mail_marca_agua.${GATE_NOTE}`,
          headers: tokenHeader,
          response: { 200: uploadAnswer },
        },
      },
      async (req, reply) => {
        await checkGate(req);
        return { url: await receiveImage(req, reply, "image", "mail") };
      },
    );
    app.post(
      "/email/test",
      {
        preHandler: guard.admin,
        schema: {
          tags,
          description: `'Enviar e-mail de teste': sends to \`to\` (default: the admin) with the e-mail settings as the form holds them (absent or blank: the saved ones) and answers what the SMTP server said, or what failed and what to check (Portuguese) with the technical detail apart. The saved password is only sent to the saved server (host, port, security): another server needs it typed.${GATE_NOTE}`,
          headers: tokenHeader,
          body: mailTestBody,
          response: { 200: mailTestAnswer },
        },
      },
      async (req) => {
        await checkGate(req);
        const { to, ...typed } = req.body;
        return sendTestMail(ctx, to ?? sessionUser(req).email, typed);
      },
    );
    // the branding images are public: the login page shows them before sign-in
    app.get("/branding/:name", { schema: { tags, params: z.object({ name: z.string().regex(BRANDING_NAME) }) } }, async (req, reply) => {
      const data = await branding.stream(req.params.name);
      if (!data) throw new AppError("ERR_NOT_FOUND");
      reply.headers(brandingHeaders(req.params.name));
      return reply.send(data);
    });
    app.get("/colors", { schema: { tags, response: { 200: colorsAnswer } } }, () => service.getColors(ctx.db));
  };
}
