import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { MediaType } from "@balcao/contract";
import { fileTypeFromBuffer } from "file-type";
import { AppError } from "./errors.js";
import type { Storage } from "./storage.js";

/**
 * Media of messages, stored under DATA_DIR/media with unguessable names (128 random bits). The
 * name is the capability: `/media/<key>` serves the file to whoever holds the link, which is how
 * <img> and <audio> tags of the signed-in client load it.
 */

export const MEDIA_KEY = /^[a-f0-9]{32}\.[a-z0-9]{1,8}$/;

export interface StoredMedia {
  key: string;
  mimetype: string;
  mediaType: MediaType;
  size: number;
}

/** The media type a mimetype is shown as. */
export function mediaTypeOf(mimetype: string): MediaType {
  if (mimetype === "image/webp") return "sticker";
  if (mimetype.startsWith("image/")) return "image";
  if (mimetype.startsWith("audio/")) return "audio";
  if (mimetype.startsWith("video/")) return "video";
  return "document";
}

/** Types an agent may upload, checked by content. Anything executable or scriptable is refused. */
const UPLOAD_ALLOWED =
  /^(image\/(jpeg|png|gif|webp|bmp)|audio\/(mpeg|ogg|opus|mp4|aac|wav|x-wav|webm|amr|x-m4a)(; ?codecs=opus)?|video\/(mp4|webm|quicktime|3gpp|x-matroska)|application\/(pdf|zip|x-7z-compressed|vnd\.openxmlformats-officedocument\.[a-z.]+|msword|vnd\.ms-excel|vnd\.oasis\.opendocument\.[a-z.]+|x-cfb))$/;

/** The upload gate of an agent's media (lib/uploads.ts): the same allowlist, judged on the first bytes. */
export function acceptMedia(detected: { mime: string } | undefined): true | string {
  return detected && UPLOAD_ALLOWED.test(detected.mime) ? true : "File type not allowed";
}

/**
 * Files of one area of the storage (lib/storage.ts: a folder under DATA_DIR or an S3 prefix), named
 * by 128 random bits and an extension (MEDIA_KEY): read and removed only by a well-formed key. The
 * message media below and the contract PDFs (`contracts`, served only through checked routes) are
 * two of them.
 */
export class FileStore {
  constructor(
    readonly storage: Storage,
    readonly area: string,
  ) {
    storage.prepare?.(area);
  }

  protected keyFor(ext: string): string {
    return `${randomBytes(16).toString("hex")}.${
      ext
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "")
        .slice(0, 8) || "bin"
    }`;
  }

  /** Stores the bytes under a new key with this extension; answers the key. */
  async put(data: Buffer, ext: string): Promise<string> {
    const key = this.keyFor(ext);
    await this.storage.put(this.area, key, data, contentTypeOf(key));
    return key;
  }

  async read(key: string): Promise<Buffer | undefined> {
    if (!MEDIA_KEY.test(key)) return undefined;
    return this.storage.read(this.area, key);
  }

  /** The file as a stream (serving); undefined when there is none. */
  async stream(key: string): Promise<Readable | undefined> {
    if (!MEDIA_KEY.test(key)) return undefined;
    return this.storage.get(this.area, key);
  }

  async exists(key: string): Promise<boolean> {
    if (!MEDIA_KEY.test(key)) return false;
    return this.storage.exists(this.area, key);
  }

  async remove(key: string | null | undefined): Promise<void> {
    if (key && MEDIA_KEY.test(key)) await this.storage.delete(this.area, key).catch(() => undefined);
  }
}

export class MediaStore extends FileStore {
  /** Where work files are made before they are stored (a voice note being converted): DATA_DIR/tmp/media. */
  readonly tmpDir: string;
  constructor(storage: Storage, dataDir: string) {
    super(storage, "media");
    this.tmpDir = join(dataDir, "tmp", "media");
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /**
   * Checks an upload by its content (file-type) and stores it. Unknown or unsafe types are
   * refused with ERR_INVALID_FILE; the declared mimetype and name are not trusted.
   */
  async storeUpload(data: Buffer): Promise<StoredMedia> {
    if (data.length === 0) throw new AppError("ERR_INVALID_FILE", 400, { medias: ["Empty file"] });
    const detected = await fileTypeFromBuffer(data);
    if (!detected || !UPLOAD_ALLOWED.test(detected.mime)) {
      throw new AppError("ERR_INVALID_FILE", 400, { medias: ["File type not allowed"] });
    }
    return this.write(data, detected.mime, detected.ext);
  }

  /**
   * Takes an upload received by lib/uploads.ts into the store without reading it: the temp file is
   * renamed in (same DATA_DIR) or streamed to S3. Its type was judged from its first bytes while it streamed.
   */
  async adoptUpload(file: { path: string; size: number; detected?: { mime: string; ext: string } }): Promise<StoredMedia> {
    if (file.size === 0) throw new AppError("ERR_INVALID_FILE", 400, { medias: ["Empty file"] });
    if (acceptMedia(file.detected) !== true || !file.detected)
      throw new AppError("ERR_INVALID_FILE", 400, { medias: ["File type not allowed"] });
    const key = this.keyFor(file.detected.ext);
    await this.storage.put(this.area, key, { path: file.path }, file.detected.mime);
    return { key, mimetype: file.detected.mime, mediaType: mediaTypeOf(file.detected.mime), size: file.size };
  }

  /** Stores media that arrived from a channel; its type comes from the content when detectable. */
  async storeInbound(data: Buffer, declaredMime: string): Promise<StoredMedia> {
    const detected = await fileTypeFromBuffer(data).catch(() => undefined);
    return this.write(data, detected?.mime ?? declaredMime ?? "application/octet-stream", detected?.ext ?? "bin");
  }

  private async write(data: Buffer, mimetype: string, ext: string): Promise<StoredMedia> {
    const key = await this.put(data, ext);
    return { key, mimetype, mediaType: mediaTypeOf(mimetype), size: data.length };
  }
}

export function mediaUrl(key: string | null | undefined): string | null {
  return key ? `/media/${key}` : null;
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  opus: "audio/opus",
  m4a: "audio/mp4",
  aac: "audio/aac",
  wav: "audio/wav",
  amr: "audio/amr",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  "3gp": "video/3gpp",
  mkv: "video/x-matroska",
  pdf: "application/pdf",
};

function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

/** How a stored file is served: a fixed content type from its extension; unknown types download. */
export function servingHeaders(key: string): Record<string, string> {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  const type = CONTENT_TYPES[ext];
  return {
    "content-type": type ?? "application/octet-stream",
    "content-disposition": type ? "inline" : "attachment",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": "private, max-age=31536000, immutable",
  };
}
