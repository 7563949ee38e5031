import fastifyCookie from "@fastify/cookie";
import fastifyMultipart from "@fastify/multipart";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { LogController } from "fastify";
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "../config.js";
import type { AppContext } from "../context.js";
import { registerApiDocsGate } from "./api-docs.js";
import type { UserOfToken } from "./guards.js";
import { registerLingeringDrain } from "./drain.js";
import { registerErrorHandling } from "./errors.js";
import { registerInputCleaning } from "./input.js";
import { errSerializer, registerRequestLog, reqSerializer } from "./log.js";
import { registerCors, registerSecurityHeaders } from "./security.js";
import { makeSerializerCompiler } from "./serializer.js";

/**
 * The HTTP server as every request meets it, before any route: the logger (what it redacts), the
 * body and trailing-slash rules, the validator and serializer, the error answers, the one log line
 * per request, the input cleaning and the drain of refused uploads (`createHttpServer`); then the
 * security headers, CORS, cookies, the API page's gate, multipart and the OpenAPI document
 * (`registerHttpEdges`). The composition root (app.ts) calls both; modules only add routes.
 */
export function createHttpServer(config: Config, opts: { logger?: boolean; logStream?: { write(line: string): void } } = {}) {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            ...(opts.logStream && { stream: opts.logStream }),
            serializers: { err: errSerializer, error: errSerializer, req: reqSerializer },
            redact: {
              paths: [
                "req.headers.authorization",
                'req.headers["x-settings-token"]',
                "*.settingsToken",
                "req.headers.cookie",
                'res.headers["set-cookie"]',
                "*.password",
                "*.currentPassword",
                "*.token",
                "*.apiKey",
                "*.params",
              ],
              censor: "[redacted]",
            },
          },
    // one line per request, written by registerRequestLog (not Fastify's incoming + completed)
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY === "true",
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: () => crypto.randomUUID(),
    // a closing process (SIGTERM) still answers the requests already on its connections (the drain)
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(makeSerializerCompiler({ checked: config.NODE_ENV !== "production" }));
  registerErrorHandling(app);
  registerRequestLog(app, config.LOG_SLOW_MS);
  registerInputCleaning(app);
  // what a refused client may still send is read and dropped (so it reads the refusal), up to this
  registerLingeringDrain(app, Math.max(32 * 1024 * 1024, 4 * config.BODY_LIMIT, 2 * config.UPLOAD_LIMIT));
  return app;
}

export type HttpServer = ReturnType<typeof createHttpServer>;

/** The edges every route sits behind: headers, CORS, cookies, the API page's gate, multipart, the OpenAPI document. */
export async function registerHttpEdges(
  app: HttpServer,
  o: { ctx: AppContext; frameOrigin: () => string | undefined; userOfToken: UserOfToken },
): Promise<void> {
  const { config } = o.ctx;
  registerSecurityHeaders(app, config, o.frameOrigin);
  registerCors(app, config);
  await app.register(fastifyCookie);
  registerApiDocsGate(app, o.ctx, o.userOfToken);
  await app.register(fastifyMultipart, { limits: { fileSize: config.UPLOAD_LIMIT, files: 10, fields: 20, fieldSize: 100_000 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Balcão API", version: "1.0.0", description: "Customer-service inbox over WhatsApp." },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          // the message API's connection token (POST /api/messages/send); the Bearer header carries it too
          apiToken: { type: "apiKey", in: "header", name: "X_TOKEN" },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api-docs" });
}
