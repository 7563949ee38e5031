import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { cleanText } from "@balcao/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { fileTypeFromBuffer } from "file-type";
import type { SharedStore } from "./cluster/store.js";
import { AppError } from "./errors.js";

/**
 * The one way routes receive files. Each multipart file streams to a temp file on disk (never
 * whole in memory), its byte limit enforced while it streams, its type judged from its first bytes
 * (the declared mimetype and name are not trusted), and at most `perUser` uploads of one user are
 * received at once (more answer 429). Temp files go away when the request ends, on every path:
 * refusal, error, aborted client. Text fields are cleaned like every other input (cleanText).
 */

/** Bytes file-type needs to recognise a format. */
const HEAD_BYTES = 4100;

export interface DetectedType {
  mime: string;
  ext: string;
}

export interface ReceivedFile {
  /** the form field it came in */
  field: string;
  /** the name the client gave (cleaned; not trusted for anything but display) */
  fileName: string;
  declaredMime: string;
  /** the temp file holding the bytes; removed by cleanup() */
  path: string;
  size: number;
  /** the type recognised from the content, when file-type knows it */
  detected: DetectedType | undefined;
}

export interface ReceivedUpload {
  files: ReceivedFile[];
  fields: Record<string, string>;
  /** Removes the temp files and frees the user's upload slot (also done when the response ends). */
  cleanup(): Promise<void>;
}

export interface ReceiveOptions {
  maxFileBytes: number;
  maxFiles: number;
  maxFields?: number;
  maxFieldBytes?: number;
  /**
   * Judges a file from its first bytes and the type recognised in them: true accepts it, a string
   * refuses it with that reason (ERR_INVALID_FILE, 400). Called before the rest is received.
   */
  accept: (detected: DetectedType | undefined, head: Buffer) => true | string;
}

/** Counts the bytes, refuses past the limit, and holds the stream until the head is judged. */
class FileGate extends Transform {
  bytes = 0;
  detected: DetectedType | undefined;
  private head: Buffer[] = [];
  private headBytes = 0;
  private judged = false;

  constructor(
    private readonly maxBytes: number,
    private readonly accept: ReceiveOptions["accept"],
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new AppError("ERR_PAYLOAD_TOO_LARGE"));
    if (this.judged) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < HEAD_BYTES) return done();
    this.judge().then(() => done(), done);
  }

  override _flush(done: TransformCallback) {
    if (this.judged) return done();
    this.judge().then(() => done(), done);
  }

  private async judge() {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.judged = true;
    if (head.length > 0) {
      this.detected = await fileTypeFromBuffer(head).catch(() => undefined);
      const verdict = this.accept(this.detected, head);
      if (verdict !== true) throw new AppError("ERR_INVALID_FILE", 400, { file: [verdict] });
    }
    this.push(head);
  }
}

/** A slot left by a process that died mid-upload is free again after this. */
const SLOT_TTL_MS = 30 * 60_000;

export class UploadReceiver {
  readonly dir: string;

  constructor(
    dataDir: string,
    private readonly perUser: number,
    /** where the slots are counted: memory with one process, Redis or PostgreSQL with several (`lib/cluster/`) */
    private readonly slots: SharedStore,
  ) {
    this.dir = join(dataDir, "tmp", "uploads");
    // leftovers of a previous run (a crash mid-upload) are never reused
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Uploads of this user being received right now, on any process. */
  activeFor(userId: number): Promise<number> {
    return this.slots.held(slotKey(userId));
  }

  async receive(req: FastifyRequest, reply: FastifyReply, userId: number, opts: ReceiveOptions): Promise<ReceivedUpload> {
    if (!req.isMultipart()) throw new AppError("ERR_UNSUPPORTED_MEDIA_TYPE");
    const key = slotKey(userId);
    const token = randomBytes(8).toString("hex");
    if (!(await this.slots.acquire(key, token, this.perUser, SLOT_TTL_MS))) throw new AppError("ERR_TOO_MANY_REQUESTS");

    const files: ReceivedFile[] = [];
    const fields: Record<string, string> = {};
    let done = false;
    const cleanup = async () => {
      if (done) return;
      done = true;
      await Promise.all([
        this.slots.release(key, token).catch(() => undefined),
        ...files.map((f) => unlink(f.path).catch(() => undefined)),
      ]);
    };
    // whatever the route does, the temp files do not outlive the request
    reply.raw.once("close", () => void cleanup());
    reply.raw.once("finish", () => void cleanup());
    // the client went away while the slot was being taken: no close event comes any more
    if (reply.raw.closed || req.raw.destroyed) void cleanup();

    try {
      const maxFields = opts.maxFields ?? 20;
      const parts = req.parts({
        limits: {
          fileSize: opts.maxFileBytes,
          files: opts.maxFiles,
          fields: maxFields,
          fieldSize: opts.maxFieldBytes ?? 100_000,
          parts: opts.maxFiles + maxFields,
        },
      });
      for await (const part of parts) {
        if (part.type !== "file") {
          if (typeof part.value === "string") fields[cleanText(part.fieldname)] = cleanText(part.value);
          continue;
        }
        const file: ReceivedFile = {
          field: cleanText(part.fieldname),
          fileName: cleanText(part.filename ?? ""),
          declaredMime: part.mimetype,
          path: join(this.dir, `${randomBytes(16).toString("hex")}.part`),
          size: 0,
          detected: undefined,
        };
        files.push(file);
        const gate = new FileGate(opts.maxFileBytes, opts.accept);
        // opened before streaming, so a refusal cannot race the open and leave a file behind
        const handle = await open(file.path, "wx", 0o600);
        await pipeline(part.file, gate, handle.createWriteStream());
        if (part.file.truncated) throw new AppError("ERR_PAYLOAD_TOO_LARGE");
        file.size = gate.bytes;
        file.detected = gate.detected;
        // a form's empty file input sends a nameless, empty part: not a file
        if (file.size === 0 && !file.fileName) {
          files.pop();
          await unlink(file.path).catch(() => undefined);
        }
      }
      return { files, fields, cleanup };
    } catch (err) {
      await cleanup();
      throw err;
    }
  }
}

const slotKey = (userId: number) => `uploads:${userId}`;

/** A received file's bytes (for the few files small enough to use whole, like a CSV import). */
export function readUpload(file: ReceivedFile): Promise<Buffer> {
  return readFile(file.path);
}

/** Accepts text only: nothing file-type recognises and no NUL byte in the head. */
export function acceptText(detected: DetectedType | undefined, head: Buffer): true | string {
  return detected || head.includes(0) ? "Not a text (CSV) file" : true;
}

/**
 * Decodes an uploaded text file (CSV). Checked by content, not by name: binary files (a
 * spreadsheet, an image) are refused; UTF-8 is expected, Windows-1252 exports are accepted.
 */
export async function decodeTextUpload(buf: Buffer): Promise<string> {
  if (buf.length === 0) throw new AppError("ERR_INVALID_FILE", 400, { file: ["Empty file"] });
  if (buf.includes(0) || (await fileTypeFromBuffer(buf))) throw new AppError("ERR_INVALID_FILE", 400, { file: ["Not a text (CSV) file"] });
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    return new TextDecoder("windows-1252").decode(buf);
  }
}
