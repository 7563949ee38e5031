import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  sourcemap: true,
  // the contract package is TypeScript source: bundle it, keep real packages external
  noExternal: ["@balcao/contract"],
});
