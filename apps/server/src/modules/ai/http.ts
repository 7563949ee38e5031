/**
 * The one way out to the AI server: every request of this module goes through `aiRequest`, over the
 * shared outgoing client (`lib/outgoing-http.ts`: internal addresses refused unless
 * ALLOWED_PRIVATE_HOSTS names them, checked at connect time; a deadline; the answer's size capped).
 * Redirects are not followed: an AI endpoint answers where it is configured.
 */
import { type AllowList, OutgoingError, outgoingFetch } from "../../lib/outgoing-http.js";

export interface AiHttpRequest {
  method: "GET" | "POST";
  url: string;
  /** ALLOWED_PRIVATE_HOSTS of the configuration */
  allow: AllowList;
  headers?: Record<string, string>;
  body?: string | FormData;
  timeoutMs: number;
  /** answers longer than this are refused (kind "too_large") */
  maxBytes: number;
}

export interface AiHttpAnswer {
  status: number;
  /** lower-case names */
  headers: Record<string, string>;
  text: string;
}

export type AiHttpFailure = "timeout" | "unreachable" | "too_large" | "refused";

export class AiHttpError extends Error {
  constructor(
    readonly kind: AiHttpFailure,
    message: string,
    /** the outgoing client's refusal (ERR_OUTGOING_PRIVATE_ADDRESS, ERR_OUTGOING_BAD_URL) and the host it named */
    readonly outgoing?: { code: string; host: string },
  ) {
    super(message);
  }
}

export async function aiRequest(req: AiHttpRequest): Promise<AiHttpAnswer> {
  let headers = req.headers ?? {};
  let body: string | Buffer | undefined;
  if (req.body instanceof FormData) {
    // multipart encoded by the platform (boundary in its content type), sent as bytes
    const encoded = new Response(req.body);
    body = Buffer.from(await encoded.arrayBuffer());
    headers = { ...headers, "content-type": encoded.headers.get("content-type") ?? "multipart/form-data" };
  } else body = req.body;
  try {
    const res = await outgoingFetch(req.url, {
      allow: req.allow,
      method: req.method,
      headers,
      body,
      timeoutMs: req.timeoutMs,
      maxBytes: req.maxBytes,
      maxRedirects: 0,
    });
    return { status: res.status, headers: res.headers, text: res.text() };
  } catch (err) {
    if (!(err instanceof OutgoingError)) throw err;
    // our words only: the socket's own text stays out of answers and logs
    if (err.code === "ERR_OUTGOING_TIMEOUT") throw new AiHttpError("timeout", "the AI server did not answer in time");
    if (err.code === "ERR_OUTGOING_TOO_LARGE") throw new AiHttpError("too_large", "answer too large");
    if (err.code === "ERR_OUTGOING_PRIVATE_ADDRESS" || err.code === "ERR_OUTGOING_BAD_URL")
      throw new AiHttpError("refused", `${err.code} (${err.host})`, { code: err.code, host: err.host });
    throw new AiHttpError("unreachable", `${err.code} (${err.host})`);
  }
}
