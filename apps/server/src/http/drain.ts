import type { FastifyInstance } from "fastify";

/**
 * A refusal sent while the client is still sending (a 413 on a big body, a 429 or 401 before an
 * upload is read) must reach the client. Closing the socket with unread bytes in it makes the
 * kernel answer with a reset, and most clients then report a network error instead of the 4xx.
 * So, like web servers' lingering close: the rest of the request is read and dropped, up to
 * `capBytes` and `timeoutMs`; within the cap the connection stays usable, beyond it it is closed.
 */
export function registerLingeringDrain(app: FastifyInstance, capBytes: number, timeoutMs = 30_000) {
  app.addHook("onSend", async (req, reply, payload) => {
    const raw = req.raw;
    if (reply.statusCode < 400 || raw.complete || raw.destroyed) return payload;
    const declared = Number(raw.headers["content-length"]);
    if (declared > capBytes) return payload; // too much to read: closing is cheaper (Fastify sent connection: close)
    // Fastify asked to close after this answer; the drain decides instead
    reply.removeHeader("connection");
    raw.unpipe();
    raw.removeAllListeners("data");
    let seen = 0;
    const socket = raw.socket;
    const timer = setTimeout(() => socket?.destroy(), timeoutMs);
    timer.unref();
    raw.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > capBytes) {
        clearTimeout(timer);
        socket?.destroy();
      }
    });
    raw.once("end", () => clearTimeout(timer));
    raw.once("close", () => clearTimeout(timer));
    raw.resume();
    return payload;
  });
}
