import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

/**
 * Whether the Redis of a REDIS_URL answers (GET /ready): one connection, AUTH when the URL carries
 * a password, SELECT of its database, PING, closed again. Speaks RESP directly so the check
 * depends on no client library; the password never appears in what it answers.
 */
export async function pingRedis(url: string, timeoutMs = 2000): Promise<void> {
  const u = new URL(url);
  const port = Number(u.port || 6379);
  const host = u.hostname || "127.0.0.1";
  const commands: string[][] = [];
  if (u.password)
    commands.push(
      u.username ? ["AUTH", decodeURIComponent(u.username), decodeURIComponent(u.password)] : ["AUTH", decodeURIComponent(u.password)],
    );
  const db = u.pathname.replace(/^\//, "");
  if (db) commands.push(["SELECT", db]);
  commands.push(["PING"]);
  const wire = commands.map((c) => `*${c.length}\r\n${c.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`).join("");

  await new Promise<void>((resolve, reject) => {
    const socket: Socket = u.protocol === "rediss:" ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
    let buf = "";
    let answered = 0;
    const done = (err?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error("redis: no answer in time")), timeoutMs);
    socket.once(u.protocol === "rediss:" ? "secureConnect" : "connect", () => socket.write(wire));
    socket.on("error", (err: NodeJS.ErrnoException) => done(new Error(`redis: ${err.code ?? "connection failed"}`)));
    socket.on("data", (d) => {
      buf += d.toString("utf8");
      let at = buf.indexOf("\r\n");
      while (at >= 0) {
        const line = buf.slice(0, at);
        buf = buf.slice(at + 2);
        if (line.startsWith("-")) return done(new Error(`redis: ${line.slice(1).split(" ")[0]}`));
        answered++;
        if (answered === commands.length) return done(line === "+PONG" ? undefined : new Error("redis: unexpected answer"));
        at = buf.indexOf("\r\n");
      }
    });
  });
}
