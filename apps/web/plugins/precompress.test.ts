// @vitest-environment node
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { precompressDir } from "./precompress";

describe("precompressDir", () => {
  it("writes brotli and gzip forms beside the text files worth it, and nothing else", async () => {
    const dir = mkdtempSync(join(tmpdir(), "balcao-precompress-"));
    mkdirSync(join(dir, "assets"));
    mkdirSync(join(dir, ".vite"));
    const js = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Cliente ${i}` })))};`;
    const css = `.a{color:red}\n`.repeat(200);
    writeFileSync(join(dir, "assets", "index-abc.js"), js);
    writeFileSync(join(dir, "assets", "index-abc.css"), css);
    writeFileSync(join(dir, "index.html"), `<!doctype html><div id="root"></div>${"<!-- -->".repeat(200)}`);
    writeFileSync(join(dir, "assets", "tiny-abc.js"), "export{}");
    writeFileSync(join(dir, "assets", "photo.png"), Buffer.alloc(4096, 1));
    writeFileSync(join(dir, ".vite", "manifest.json"), JSON.stringify({ big: "x".repeat(4096) }));

    const done = await precompressDir(dir);

    expect(done.map((f) => f.file)).toEqual([join("assets", "index-abc.css"), join("assets", "index-abc.js"), "index.html"]);
    for (const [file, text] of [
      [join(dir, "assets", "index-abc.js"), js],
      [join(dir, "assets", "index-abc.css"), css],
    ] as const) {
      const br = readFileSync(`${file}.br`);
      const gz = readFileSync(`${file}.gz`);
      expect(brotliDecompressSync(br).toString()).toBe(text);
      expect(gunzipSync(gz).toString()).toBe(text);
      expect(br.length).toBeLessThan(gz.length);
      expect(gz.length).toBeLessThan(text.length);
    }
    expect(existsSync(join(dir, "assets", "tiny-abc.js.gz"))).toBe(false);
    expect(existsSync(join(dir, "assets", "photo.png.br"))).toBe(false);
    expect(existsSync(join(dir, ".vite", "manifest.json.gz"))).toBe(false);
  });
});
