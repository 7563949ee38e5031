import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";

/**
 * A real S3 server for the suite: s3rver (an S3 API implementation over a folder) on a free port of
 * loopback, with one bucket. It refuses an unknown access key
 * (it does not verify SigV4 signatures, so a wrong secret passes there).
 */
export interface S3Fake {
  endpoint: string;
  bucket: string;
  /** the environment that points the app at it */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials (its README). */
export const S3RVER_KEY = "S3RVER";

export async function startS3(bucket = "balcao-test"): Promise<S3Fake> {
  const directory = mkdtempSync(join(tmpdir(), "balcao-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
