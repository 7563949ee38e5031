import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A small real HTTP server for faking an outside system; records every request it gets. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** form or JSON body, as an object */
  body: Record<string, unknown>;
  raw: string;
  /** the body's bytes (multipart uploads) */
  rawBuffer: Buffer;
}

export type Handler = (req: FakeRequest, res: ServerResponse) => void | Promise<void>;

export async function startFake(
  handler: Handler,
): Promise<{ url: string; server: Server; requests: FakeRequest[]; close(): Promise<void> }> {
  const requests: FakeRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBuffer = Buffer.concat(chunks);
    const raw = rawBuffer.toString("utf8");
    const u = new URL(req.url ?? "/", "http://x");
    let body: Record<string, unknown> = {};
    const type = req.headers["content-type"] ?? "";
    if (raw && type.includes("json")) body = JSON.parse(raw);
    else if (raw && !type.includes("multipart")) body = Object.fromEntries(new URLSearchParams(raw));
    const r: FakeRequest = {
      method: req.method ?? "GET",
      path: u.pathname,
      query: u.searchParams,
      headers: req.headers,
      body,
      raw,
      rawBuffer,
    };
    requests.push(r);
    try {
      await handler(r, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
