/**
 * The one way out to the AI server. Every request of this module goes through `aiRequest`, so the
 * shared outgoing client (private-address refusal, redirects, limits) replaces it in one place.
 */

export interface AiHttpRequest {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string | FormData;
  timeoutMs: number;
  /** answers longer than this are refused (kind "too_large") */
  maxBytes: number;
}

export interface AiHttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export type AiHttpFailure = "timeout" | "unreachable" | "too_large";

export class AiHttpError extends Error {
  constructor(
    readonly kind: AiHttpFailure,
    message: string,
  ) {
    super(message);
  }
}

export async function aiRequest(req: AiHttpRequest): Promise<AiHttpAnswer> {
  const signal = AbortSignal.timeout(req.timeoutMs);
  let res: Response;
  try {
    res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal, redirect: "error" });
  } catch (err) {
    throw failure(err, signal);
  }
  try {
    const text = await readCapped(res, req.maxBytes);
    return { status: res.status, headers: res.headers, text };
  } catch (err) {
    if (err instanceof AiHttpError) throw err;
    throw failure(err, signal);
  }
}

function failure(err: unknown, signal: AbortSignal): AiHttpError {
  if (signal.aborted) return new AiHttpError("timeout", "the AI server did not answer in time");
  // the socket's own text stays out of answers and logs: only what kind of failure it was
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  return new AiHttpError("unreachable", code ? `connection failed (${code})` : "connection failed");
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new AiHttpError("too_large", "answer too large");
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AiHttpError("too_large", "answer too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
