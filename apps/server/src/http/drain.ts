import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * A refusal sent while the client is still sending (a 413 on a big body, a 429 or 401 before an
 * upload is read) must reach the client. Closing a socket with unread bytes in it makes the kernel
 * answer with a reset, and most clients then report a network error instead of the 4xx. So, like
 * web servers' lingering close: the rest of the request is read and dropped, up to `capBytes` and
 * `timeoutMs`. A keep-alive connection stays usable afterwards; one that must close sends its FIN
 * after the answer and is closed once the client has finished sending.
 */
export function registerLingeringDrain(app: FastifyInstance, capBytes: number, timeoutMs = 30_000) {
  app.addHook("onSend", async (req, reply, payload) => {
    const raw = req.raw;
    const socket = raw.socket as (Socket & { destroySoon?: () => void }) | null;
    // only a real connection has anything to drain (app.inject's socket is a stand-in)
    if (reply.statusCode < 400 || raw.complete || raw.destroyed || !(socket instanceof Socket)) return payload;
    const declared = Number(raw.headers["content-length"]);
    if (declared > capBytes) return payload; // too much to read: closing is cheaper (Fastify sends connection: close)
    // Fastify asks to close after a body it did not read; the drain decides instead
    reply.removeHeader("connection");

    let closing = false;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    timer.unref();
    const finish = () => {
      clearTimeout(timer);
      if (closing) socket.destroy();
    };
    // when the connection must close after the answer (the client asked, or HTTP/1.0), Node ends and
    // then destroys the socket: end it (FIN) but destroy only once the request has been read
    socket.destroySoon = () => {
      closing = true;
      socket.end();
      if (raw.complete) finish();
    };

    raw.unpipe();
    raw.removeAllListeners("data");
    let seen = 0;
    raw.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > capBytes) {
        clearTimeout(timer);
        socket.destroy();
      }
    });
    raw.once("end", finish);
    raw.once("close", () => clearTimeout(timer));
    raw.resume();
    return payload;
  });
}
