import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Files worth compressing: text. Images and fonts are compressed already. */
const TEXT = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

export interface PrecompressOptions {
  /** Files smaller than this stay as they are (the headers would cost more than the saving). */
  minBytes?: number;
}

export interface Precompressed {
  /** Path relative to the folder. */
  file: string;
  bytes: number;
  /** Size of the `.br` / `.gz` written beside it; undefined when it would not be smaller. */
  br?: number;
  gzip?: number;
}

async function* textFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue; // .vite/manifest.json and the like are never served
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(path);
    else if (entry.isFile() && TEXT.test(entry.name)) yield path;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text file of
 * `dir` of at least `minBytes`, each only when smaller than the file. The server sends them to
 * clients that accept the encoding (@fastify/static's `preCompressed`).
 */
export async function precompressDir(dir: string, { minBytes = 1024 }: PrecompressOptions = {}): Promise<Precompressed[]> {
  const done: Precompressed[] = [];
  const jobs: Promise<void>[] = [];
  for await (const path of textFiles(dir)) {
    if ((await stat(path)).size < minBytes) continue;
    jobs.push(
      (async () => {
        const data = await readFile(path);
        const [b, g] = await Promise.all([
          brotli(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
          gz(data, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        const result: Precompressed = { file: relative(dir, path), bytes: data.length };
        if (b.length < data.length) {
          await writeFile(`${path}.br`, b);
          result.br = b.length;
        }
        if (g.length < data.length) {
          await writeFile(`${path}.gz`, g);
          result.gzip = g.length;
        }
        done.push(result);
      })(),
    );
  }
  await Promise.all(jobs);
  return done.sort((a, b) => a.file.localeCompare(b.file));
}

/** Vite plugin: precompresses the build's output once everything is written. */
export function precompress(options: PrecompressOptions = {}): Plugin {
  let outDir = "";
  return {
    name: "balcao-precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: "post",
      sequential: true,
      async handler() {
        const files = await precompressDir(outDir, options);
        const sum = (pick: (f: Precompressed) => number | undefined) => files.reduce((n, f) => n + (pick(f) ?? f.bytes), 0);
        const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
        console.log(
          `[balcao] precompressed ${files.length} file(s): ${kb(sum(() => undefined))} → ${kb(sum((f) => f.gzip))} gzip, ${kb(sum((f) => f.br))} brotli`,
        );
      },
    },
  };
}
