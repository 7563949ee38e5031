import { createReadStream, mkdirSync } from "node:fs";
import { copyFile, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";

/** The AWS SDK, loaded only by a server that stores files in S3. */
type Sdk = typeof import("@aws-sdk/client-s3");

/**
 * Where the server's files live: media of messages, contract PDFs, branding images. One interface,
 * two backends: a folder on this machine (default; today's DATA_DIR layout, `<area>/<key>`) and any
 * S3-compatible store (`S3_BUCKET` set; objects `<area>/<key>`), which several processes share.
 * Files are never served by the store's own URLs: our routes read them through `get` and check who
 * may see them first. Keys are checked by the callers (random names); the areas are ours.
 */
export interface Storage {
  readonly kind: "local" | "s3";
  /** Writes the bytes, or moves a temp file in (the file is gone afterwards either way). */
  put(area: string, key: string, body: Buffer | { path: string }, contentType?: string): Promise<void>;
  /** The file as a stream; undefined when there is none. */
  get(area: string, key: string): Promise<Readable | undefined>;
  read(area: string, key: string): Promise<Buffer | undefined>;
  exists(area: string, key: string): Promise<boolean>;
  delete(area: string, key: string): Promise<void>;
  /** Throws when the store cannot be reached (GET /ready). */
  check(): Promise<void>;
  /** Makes an area ready before its first use (the local folder: created at start, as it always was). */
  prepare?(area: string): void;
  close?(): void;
}

export class LocalStorage implements Storage {
  readonly kind = "local" as const;
  private readonly made = new Set<string>();
  constructor(readonly root: string) {}

  prepare(area: string): void {
    this.dir(area);
  }

  /** The folder of an area, created on first use. */
  dir(area: string): string {
    const dir = join(this.root, area);
    if (!this.made.has(area)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(area);
    }
    return dir;
  }

  async put(area: string, key: string, body: Buffer | { path: string }): Promise<void> {
    const to = join(this.dir(area), key);
    if (Buffer.isBuffer(body)) return writeFile(to, body, { mode: 0o600 });
    try {
      await rename(body.path, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
      await copyFile(body.path, to);
      await unlink(body.path).catch(() => undefined);
    }
  }

  async get(area: string, key: string): Promise<Readable | undefined> {
    const path = join(this.dir(area), key);
    if (!(await this.exists(area, key))) return undefined;
    return createReadStream(path);
  }

  read(area: string, key: string): Promise<Buffer | undefined> {
    return readFile(join(this.dir(area), key)).catch(() => undefined);
  }

  exists(area: string, key: string): Promise<boolean> {
    return stat(join(this.dir(area), key)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async delete(area: string, key: string): Promise<void> {
    await unlink(join(this.dir(area), key)).catch(() => undefined);
  }

  async check(): Promise<void> {
    await stat(this.root);
  }
}

export interface S3Options {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

function notFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/** An S3 error as it may be logged: its name and status, never the request (it carries the signature). */
export class StorageError extends Error {
  constructor(op: string, err: unknown) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    super(`storage ${op} failed: ${e?.name ?? "Error"}${e?.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : ""}`);
    this.name = "StorageError";
  }
}

export class S3Storage implements Storage {
  readonly kind = "s3" as const;
  private readonly ready: Promise<{ sdk: Sdk; client: S3Client }>;
  private readonly bucket: string;
  private client?: S3Client;

  constructor(o: S3Options) {
    this.bucket = o.bucket;
    this.ready = import("@aws-sdk/client-s3").then((sdk) => {
      this.client = this.makeClient(sdk, o);
      return { sdk, client: this.client };
    });
  }

  /** Sends one command built from the SDK (loaded by then). */
  // biome-ignore lint/suspicious/noExplicitAny: each command's own output type is read by its caller
  private async send(make: (sdk: Sdk) => any): Promise<any> {
    const { sdk, client } = await this.ready;
    return client.send(make(sdk));
  }

  private makeClient(sdk: Sdk, o: S3Options): S3Client {
    return new sdk.S3Client({
      endpoint: o.endpoint,
      region: o.region,
      forcePathStyle: o.forcePathStyle,
      ...(o.accessKeyId && o.secretAccessKey && { credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } }),
      // checksums only where S3 requires them: S3-compatible stores (MinIO, R2, Ceph, s3rver) differ in the rest
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3,
    });
  }

  private objectKey(area: string, key: string): string {
    return `${area}/${key}`;
  }

  async put(area: string, key: string, body: Buffer | { path: string }, contentType?: string): Promise<void> {
    const Key = this.objectKey(area, key);
    const { sdk, client } = await this.ready;
    try {
      if (Buffer.isBuffer(body)) {
        await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentType: contentType }));
        return;
      }
      const size = (await stat(body.path)).size;
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: createReadStream(body.path),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
    } catch (err) {
      throw new StorageError("put", err);
    }
    await unlink(body.path).catch(() => undefined);
  }

  async get(area: string, key: string): Promise<Readable | undefined> {
    try {
      const out = await this.send((sdk) => new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(area, key) }));
      return out.Body as Readable | undefined;
    } catch (err) {
      if (notFound(err)) return undefined;
      throw new StorageError("get", err);
    }
  }

  async read(area: string, key: string): Promise<Buffer | undefined> {
    try {
      const out = await this.send((sdk) => new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(area, key) }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : undefined;
    } catch (err) {
      if (notFound(err)) return undefined;
      throw new StorageError("get", err);
    }
  }

  async exists(area: string, key: string): Promise<boolean> {
    try {
      await this.send((sdk) => new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(area, key) }));
      return true;
    } catch (err) {
      if (notFound(err)) return false;
      throw new StorageError("head", err);
    }
  }

  async delete(area: string, key: string): Promise<void> {
    try {
      await this.send((sdk) => new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(area, key) }));
    } catch (err) {
      if (!notFound(err)) throw new StorageError("delete", err);
    }
  }

  async check(): Promise<void> {
    try {
      await this.send((sdk) => new sdk.HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw new StorageError("check", err);
    }
  }

  close(): void {
    this.client?.destroy();
  }
}

/** The storage of the configuration: S3 when S3_BUCKET is set, else folders under DATA_DIR. */
export function openStorage(config: {
  dataDir: string;
  S3_BUCKET?: string;
  S3_ENDPOINT?: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: "true" | "false";
}): Storage {
  if (!config.S3_BUCKET) return new LocalStorage(config.dataDir);
  return new S3Storage({
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE === "true",
  });
}
