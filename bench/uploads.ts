/**
 * Upload memory (issue 12, item 11): twelve 15 MB files sent to POST /messages/:ticketId in rounds
 * of four parallel uploads, against a server running in its own process on the embedded database.
 * Prints the server's resident memory before, at its peak and after; asserts nothing.
 *   npx tsx bench/uploads.ts            (from the repository root)
 * BENCH_UPLOAD_MODE=send sends to a paired simulator connection (the simulator keeps what it
 * receives); the default stops the connection first, so the figures are those of receiving and
 * storing the uploads.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// BENCH_ROOT: another checkout to measure (e.g. main, for the figures before a change)
const ROOT = resolve(process.env.BENCH_ROOT ?? resolve(import.meta.dirname, ".."));
const FILE_MB = 15;
const ROUNDS = 3;
const PARALLEL = 4;
const MODE = process.env.BENCH_UPLOAD_MODE === "send" ? "send" : "store";

const freePort = () =>
  new Promise<number>((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });

const rssMb = (pid: number) => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return kb / 1024;
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "balcao-bench-uploads-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", join(ROOT, "apps/server/src/main.ts")], {
    cwd: join(ROOT, "apps/server"),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      ENABLE_SIMULATOR: "true",
      LOG_LEVEL: "warn",
      NODE_ENV: "test",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const pid = server.pid as number;
  try {
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error("server exited");
      if (
        await fetch(`${base}/colors`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 600) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const call = async (token: string | null, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${base}${path}`, {
        method,
        headers: {
          accept: "application/json",
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const { token } = await call(null, "POST", "/auth/login", { email: "admin@balcao.local", password: "admin123" });
    const queue = await call(token, "POST", "/queue", { name: "Bench", color: "#123456" });
    const conn = await call(token, "POST", "/whatsapp", { name: "Bench sim", type: "simulator", queueIds: [queue.id] });
    let qrcode = "";
    for (let i = 0; !qrcode && i < 100; i++) {
      qrcode = (await call(token, "GET", `/whatsapp/${conn.id}`)).qrcode;
      if (!qrcode) await new Promise((r) => setTimeout(r, 100));
    }
    await call(token, "POST", `/simulator/api/connections/${conn.id}/scan`, { qrcode });
    await call(token, "POST", `/simulator/api/connections/${conn.id}/messages`, { number: "5511900001111", name: "Cliente", body: "oi" });
    let ticketId = 0;
    for (let i = 0; !ticketId && i < 100; i++) {
      ticketId = (await call(token, "GET", "/tickets?showAll=true&searchParam=5511900001111")).tickets[0]?.id ?? 0;
      if (!ticketId) await new Promise((r) => setTimeout(r, 100));
    }
    await call(token, "PUT", `/tickets/${ticketId}`, { status: "open" });
    if (MODE === "store") await call(token, "DELETE", `/whatsappsession/${conn.id}`);

    // one 15 MB PDF-typed file of random bytes, streamed from disk by the client
    const file = join(dir, "upload.pdf");
    writeFileSync(file, Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(FILE_MB * 1024 * 1024 - 9)]));
    const size = statSync(file).size;
    const upload = () =>
      new Promise<number>((res, rej) => {
        const boundary = `----bench${randomBytes(8).toString("hex")}`;
        const head = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nanexo\r\n--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="anexo.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        );
        const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
        const req = request(`${base}/messages/${ticketId}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": String(head.length + size + tail.length),
          },
        });
        req.on("response", (r) => {
          r.resume();
          r.on("end", () => res(r.statusCode ?? 0));
        });
        req.on("error", rej);
        req.write(head);
        const stream = createReadStream(file);
        stream.pipe(req, { end: false });
        stream.on("end", () => req.end(tail));
      });

    await new Promise((r) => setTimeout(r, 500));
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 20);
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round++) statuses.push(...(await Promise.all(Array.from({ length: PARALLEL }, upload))));
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 500));
    const after = rssMb(pid);
    const counts: Record<number, number> = {};
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
    console.log(`uploads: ${ROUNDS * PARALLEL} × ${FILE_MB} MB in rounds of ${PARALLEL} (mode ${MODE}); answers ${JSON.stringify(counts)}`);
    console.log(
      `uploads: server RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB (growth ${(after - before).toFixed(0)} MB)`,
    );
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
