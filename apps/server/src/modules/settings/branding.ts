import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { AppError } from "../../lib/errors.js";
import type { Storage } from "../../lib/storage.js";
import type { DetectedType } from "../../lib/uploads.js";

/**
 * The images of the branding (logos, favicon) and of the e-mails, in the storage's `branding` area
 * (DATA_DIR/branding or S3, lib/storage.ts) with new
 * random names, served publicly at /branding/<name> (the login page shows them before sign-in).
 * Their type is judged from the bytes; SVG is accepted only without scripts, event handlers or
 * outside references, and is served under a sandboxing CSP anyway.
 */

export const BRANDING_MAX_BYTES = 1024 * 1024;
export const BRANDING_NAME = /^[a-f0-9]{32}\.(png|jpg|webp|svg|ico)$/;
export const BRANDING_URL_PREFIX = "/branding/";

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  svg: "image/svg+xml",
  ico: "image/x-icon",
};

/** Which images each upload takes. */
export type ImageUse = "logo" | "favicon" | "mail";
const ALLOWED: Record<ImageUse, readonly string[]> = {
  logo: ["png", "jpg", "webp", "svg"],
  favicon: ["ico", "png", "svg"],
  mail: ["png", "jpg"],
};

function looksLikeSvg(head: Buffer): boolean {
  const text = head.toString("utf8", 0, Math.min(head.length, 4096)).replace(/^\uFEFF/, "");
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text);
}

/** The type of an image from its first bytes (undefined: not one we take). */
export function imageKind(detected: DetectedType | undefined, head: Buffer): string | undefined {
  if (detected) {
    if (detected.mime === "image/png") return "png";
    if (detected.mime === "image/jpeg") return "jpg";
    if (detected.mime === "image/webp") return "webp";
    if (detected.mime === "image/x-icon" || detected.mime === "image/vnd.microsoft.icon") return "ico";
    if (detected.mime !== "application/xml" && detected.mime !== "image/svg+xml") return undefined;
  }
  return looksLikeSvg(head) ? "svg" : undefined;
}

/** The upload gate (lib/uploads.ts `accept`) of one use. */
export function acceptImage(use: ImageUse) {
  return (detected: DetectedType | undefined, head: Buffer): true | string => {
    const kind = imageKind(detected, head);
    return kind && ALLOWED[use].includes(kind) ? true : `Not an accepted image (${ALLOWED[use].join(", ").toUpperCase()})`;
  };
}

/** What an SVG must not hold: scripts, event handlers, embedded documents, outside references, entities. */
const SVG_UNSAFE = [
  /<\s*script/i,
  /\son[a-z]+\s*=/i,
  /javascript\s*:/i,
  /<\s*foreignObject/i,
  /<\s*(iframe|embed|object)\b/i,
  /\bhref\s*=\s*["']?\s*[^"'#\s>]/i,
  /url\(\s*["']?\s*[^"'#\s)]/i,
  /<!ENTITY/i,
  /@import/i,
];

export function svgProblem(text: string): string | undefined {
  if (!/<svg[\s>]/i.test(text)) return "Not an SVG image";
  if (SVG_UNSAFE.some((re) => re.test(text))) return "SVG with scripts or outside references is not accepted";
  return undefined;
}

const AREA = "branding";

export class BrandingStore {
  constructor(private readonly storage: Storage) {
    storage.prepare?.(AREA);
  }

  /** Moves a received image in under a new name; answers its public URL. */
  async adopt(file: { path: string; size: number; detected?: DetectedType }, use: ImageUse): Promise<string> {
    if (file.size === 0) throw new AppError("ERR_INVALID_FILE", 400, { file: ["Empty file"] });
    const head = await readFile(file.path);
    const kind = imageKind(file.detected, head);
    if (!kind || !ALLOWED[use].includes(kind)) throw new AppError("ERR_INVALID_FILE", 400, { file: ["Not an accepted image"] });
    if (kind === "svg") {
      const problem = svgProblem(head.toString("utf8"));
      if (problem) throw new AppError("ERR_INVALID_FILE", 400, { file: [problem] });
    }
    const name = `${randomBytes(16).toString("hex")}.${kind}`;
    await this.storage.put(AREA, name, { path: file.path }, CONTENT_TYPES[kind]);
    return `${BRANDING_URL_PREFIX}${name}`;
  }

  async read(name: string): Promise<Buffer | undefined> {
    if (!BRANDING_NAME.test(name)) return undefined;
    return this.storage.read(AREA, name);
  }

  /** The image as a stream (serving). */
  async stream(name: string): Promise<Readable | undefined> {
    if (!BRANDING_NAME.test(name)) return undefined;
    return this.storage.get(AREA, name);
  }

  /** Removes the file a URL of ours points to (a replaced logo). */
  async removeUrl(url: string): Promise<void> {
    if (!url.startsWith(BRANDING_URL_PREFIX)) return;
    const name = url.slice(BRANDING_URL_PREFIX.length);
    if (BRANDING_NAME.test(name)) await this.storage.delete(AREA, name).catch(() => undefined);
  }
}

/** How a branding image is served: its type from its (our) extension, never sniffed, sandboxed. */
export function brandingHeaders(name: string): Record<string, string> {
  const ext = name.slice(name.lastIndexOf(".") + 1);
  return {
    "content-type": CONTENT_TYPES[ext] ?? "application/octet-stream",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    // public images: e-mails and other sites may show them (the e-mail logo, a webmail)
    "cross-origin-resource-policy": "cross-origin",
    "cache-control": "public, max-age=31536000, immutable",
  };
}
