import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import { AppError, isDataException } from "../lib/errors.js";

/** Groups zod issues by field path: { "queues.0.name": ["Too Short!"] }. */
export function fieldsOf(issues: { path: PropertyKey[]; message: string }[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return fields;
}

/** One handler turns every failure into `{ error: "ERR_…" }` with a fitting status. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError | Error, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).send({ error: err.code, ...(err.fields && { fields: err.fields }) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = fieldsOf(
        err.validation.map((v) => ({
          path: [
            ...(err.validationContext && err.validationContext !== "body" ? [err.validationContext] : []),
            ...(v.instancePath ? v.instancePath.split("/").filter(Boolean) : []),
          ],
          message: v.message ?? "Invalid",
        })),
      );
      return reply.status(400).send({ error: "ERR_VALIDATION", fields });
    }
    if (err instanceof ZodError) {
      return reply.status(400).send({ error: "ERR_VALIDATION", fields: fieldsOf(err.issues) });
    }
    if (isDataException(err)) {
      // a value the schemas let through but the database refuses (out of range, bad encoding): the client's fault
      req.log.warn({ err, reqId: req.id }, "value refused by the database");
      return reply.status(400).send({ error: "ERR_VALIDATION" });
    }
    const code = (err as FastifyError).code;
    const status = (err as FastifyError).statusCode;
    if (code === "FST_ERR_CTP_INVALID_JSON_BODY" || code === "FST_ERR_CTP_EMPTY_JSON_BODY" || err instanceof SyntaxError) {
      return reply.status(400).send({ error: "ERR_INVALID_JSON" });
    }
    if (code === "FST_ERR_CTP_BODY_TOO_LARGE" || code === "FST_REQ_FILE_TOO_LARGE" || code === "FST_FILES_LIMIT" || status === 413) {
      return reply.status(413).send({ error: "ERR_PAYLOAD_TOO_LARGE" });
    }
    if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" || code === "FST_INVALID_MULTIPART_CONTENT_TYPE" || status === 415) {
      return reply.status(415).send({ error: "ERR_UNSUPPORTED_MEDIA_TYPE" });
    }
    if (status === 429) return reply.status(429).send({ error: "ERR_TOO_MANY_REQUESTS" });
    if (status && status >= 400 && status < 500 && !isResponseSerializationError(err)) {
      return reply.status(status).send({ error: status === 404 ? "ERR_NOT_FOUND" : "ERR_VALIDATION" });
    }
    req.log.error({ err, reqId: req.id }, "unhandled error");
    return reply.status(500).send({ error: "ERR_INTERNAL", requestId: req.id });
  });

  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: "ERR_NOT_FOUND" }));
}
