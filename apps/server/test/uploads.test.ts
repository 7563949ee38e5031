import { readdirSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api, createQueue, customerSays, listen, multipart, pairedSimulator } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** Issue 12, item 11: uploads stream to disk with their limit, type and per-user cap; refusals reach the client. */

let t: TestApp;
let url: string;
let ticketId: number;
let superv: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp({ UPLOAD_LIMIT: String(256 * 1024), UPLOAD_CONCURRENCY: "2" });
  url = await listen(t);
  const queue = await createQueue(t, "Suporte");
  const sim = await pairedSimulator(t, { queueIds: [queue] });
  await customerSays(t, sim, "5511966660001", "oi");
  const list = await api(t, t.adminToken, "GET", "/tickets?showAll=true&searchParam=5511966660001");
  ticketId = list.body.tickets[0].id;
  await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { status: "open" });
  superv = await t.createUser({ profile: "superv", queueIds: [queue] });
});
afterAll(() => t.teardown());

const tempFiles = () => readdirSync(t.ctx.uploads.dir);
const mediaFiles = () => readdirSync(join(t.config.dataDir, "media"));

/**
 * A real HTTP/1.1 client over a TCP socket, as a browser sends an upload: the whole body is
 * written (in chunks, keep-alive) while the answer is read. It settles once the answer has been
 * read and the socket closed, with any socket error seen on the way: a reset while still sending
 * is what a browser reports as a network error instead of the server's answer.
 */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  opts: { end?: boolean } = {},
): { done: Promise<{ status: number; body: string; error?: string }>; finish: () => void } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let sent = 0;
  let answered = false;
  const maybeEnd = () => {
    // answer read and body sent: the client is done with this connection
    if (answered && sent >= body.length) socket.end();
  };
  const done = new Promise<{ status: number; body: string; error?: string }>((resolve) => {
    let raw = Buffer.alloc(0);
    let error: string | undefined;
    const answer = () => {
      const text = raw.toString("utf8");
      const at = text.indexOf("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      return {
        status,
        body: at >= 0 ? text.slice(at + 4) : "",
        complete: at >= 0 && raw.length - Buffer.byteLength(text.slice(0, at + 4)) >= Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0),
      };
    };
    socket.on("data", (d: Buffer) => {
      raw = Buffer.concat([raw, d]);
      answered = answer().complete;
      maybeEnd();
    });
    socket.on("error", (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    socket.on("close", () => {
      const { status, body: text } = answer();
      resolve({ status, body: text, ...(error && { error }) });
    });
  });
  const head = Object.entries({ host: `${hostname}:${port}`, ...headers, "content-length": String(body.length), connection: "keep-alive" })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
  const chunk = 64 * 1024;
  const last = opts.end === false ? body.length - 1 : body.length;
  const pump = () => {
    while (sent < last) {
      const part = body.subarray(sent, Math.min(sent + chunk, last));
      sent += part.length;
      if (!socket.write(part)) return void socket.once("drain", pump);
    }
    maybeEnd();
  };
  pump();
  return {
    done,
    // the held-back last byte
    finish: () => {
      socket.write(body.subarray(body.length - 1));
      sent = body.length;
      maybeEnd();
    },
  };
}

describe("uploads", () => {
  it("a file over the limit answers 413 and leaves no temp or media file behind", async () => {
    const before = mediaFiles().length;
    const big = Buffer.alloc(600 * 1024, 0x41);
    big.write("%PDF-1.4\n", 0);
    const form = multipart({ body: "grande" }, [{ field: "medias", name: "grande.pdf", type: "application/pdf", data: big }]);
    const res = await t.app.inject({
      method: "POST",
      url: `/messages/${ticketId}`,
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: "ERR_PAYLOAD_TOO_LARGE" });
    expect(tempFiles()).toEqual([]);
    expect(mediaFiles().length).toBe(before);
  });

  it("the type is judged from the first bytes: a script named .png is refused and nothing stays on disk", async () => {
    const fake = Buffer.concat([Buffer.from("#!/bin/sh\nrm -rf /\n"), Buffer.alloc(100 * 1024, 0x20)]);
    const form = multipart({}, [{ field: "medias", name: "foto.png", type: "image/png", data: fake }]);
    const res = await t.app.inject({
      method: "POST",
      url: `/messages/${ticketId}`,
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_INVALID_FILE" });
    expect(tempFiles()).toEqual([]);
  });

  it("a binary file given to the contacts import is refused by content", async () => {
    const form = multipart({}, [
      { field: "file", name: "contatos.csv", type: "text/csv", data: Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 1, 2]) },
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/contacts/import",
      headers: { ...bearer(superv.token), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_INVALID_FILE" });
    expect(tempFiles()).toEqual([]);
  });

  it("one user's uploads beyond the cap answer 429 while the others go on; another user is not affected", async () => {
    const csv = (n: number) => Buffer.from(`nome,numero\nCliente ${n},55119555${String(n).padStart(5, "0")}\n`);
    const formOf = (n: number) => multipart({}, [{ field: "file", name: `c${n}.csv`, type: "text/csv", data: csv(n) }]);
    // two imports of the supervisor held open, the body not finished
    const held = [1, 2].map((n) => {
      const f = formOf(n);
      return rawPost("/contacts/import", { ...bearer(superv.token), ...f.headers }, f.payload, { end: false });
    });
    await vi.waitFor(async () => expect(await t.ctx.uploads.activeFor(superv.id)).toBe(2));
    const third = formOf(3);
    const refused = await t.app.inject({
      method: "POST",
      url: "/contacts/import",
      headers: { ...bearer(superv.token), ...third.headers },
      payload: third.payload,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: "ERR_TOO_MANY_REQUESTS" });
    // the admin is another user: not counted against the supervisor's cap
    const adminForm = formOf(4);
    const admin = await t.app.inject({
      method: "POST",
      url: "/contacts/import",
      headers: { ...bearer(t.adminToken), ...adminForm.headers },
      payload: adminForm.payload,
    });
    expect(admin.statusCode).toBe(200);
    for (const h of held) h.finish();
    for (const h of held) expect((await h.done).status).toBe(200);
    expect(await t.ctx.uploads.activeFor(superv.id)).toBe(0);
    expect(tempFiles()).toEqual([]);
  });
});

describe("a refusal reaches a client that is still sending", () => {
  it("a 5 MB JSON body gets its 413, not a connection reset, try after try", async () => {
    const body = Buffer.from(JSON.stringify({ shortcut: "grande", message: "x".repeat(5 * 1024 * 1024) }));
    for (let i = 0; i < 6; i++) {
      const headers = { ...bearer(t.adminToken), "content-type": "application/json" };
      const res = await rawPost("/quickAnswers", headers, body).done;
      expect(res, `try ${i + 1}`).toEqual({ status: 413, body: JSON.stringify({ error: "ERR_PAYLOAD_TOO_LARGE" }) });
    }
  });

  it("a multipart file over the limit gets its 413 over a real socket", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x41);
    big.write("%PDF-1.4\n", 0);
    const form = multipart({}, [{ field: "medias", name: "grande.pdf", type: "application/pdf", data: big }]);
    for (let i = 0; i < 4; i++) {
      const res = await rawPost(`/messages/${ticketId}`, { ...bearer(t.adminToken), ...form.headers }, form.payload).done;
      expect(res, `try ${i + 1}`).toEqual({ status: 413, body: JSON.stringify({ error: "ERR_PAYLOAD_TOO_LARGE" }) });
    }
    await vi.waitFor(() => expect(tempFiles()).toEqual([]));
  });
});

describe("from the receiver to the media store", () => {
  it("adoptUpload moves a received file into the store without reading it", async () => {
    const { writeFileSync, existsSync } = await import("node:fs");
    const path = join(t.ctx.uploads.dir, "adopt-test.part");
    writeFileSync(path, Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(1000, 0x20)]));
    const stored = await t.conv.media.adoptUpload({ path, size: 1009, detected: { mime: "application/pdf", ext: "pdf" } });
    expect(stored).toMatchObject({ mimetype: "application/pdf", mediaType: "document", size: 1009 });
    expect(existsSync(path)).toBe(false);
    expect(mediaFiles()).toContain(stored.key);
    await expect(t.conv.media.adoptUpload({ path, size: 10, detected: { mime: "text/html", ext: "html" } })).rejects.toThrow(
      "ERR_INVALID_FILE",
    );
  });
});
