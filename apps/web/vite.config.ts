/// <reference types="vitest/config" />
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { type Plugin, type ProxyOptions, defineConfig } from "vite";
import { precompress } from "./plugins/precompress";

const API_TARGET = process.env.API_URL ?? "http://localhost:8080";

/** The API shares paths with the SPA (/contacts, /users): browser navigations stay on Vite. */
const api: ProxyOptions = {
  target: API_TARGET,
  changeOrigin: true,
  bypass: (req) => (req.headers.accept?.includes("text/html") ? "/index.html" : undefined),
};
const API_PREFIXES = [
  "/auth",
  "/settings",
  "/colors",
  "/users",
  "/profile",
  "/queue",
  "/contacts",
  "/contact",
  "/quickAnswers",
  "/tags",
  "/whatsapp",
  "/whatsappsession",
  "/typebot",
  "/digitando",
  "/tickets",
  "/messages",
  "/media",
  "/metrics",
  "/schedules",
  "/disparos",
  "/api/",
];
/** Pages the server renders itself (the simulator, the API reference): proxied for navigations too. */
const SERVER_PAGES = ["/simulator", "/api-docs"];

/** Prints the gzipped size of the JavaScript the first page load needs: the entry chunk and its static imports. */
function initialJsSize(): Plugin {
  return {
    name: "balcao-initial-js-size",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { code: string; imports: string[] }>();
      for (const [file, out] of Object.entries(bundle)) if (out.type === "chunk") chunks.set(file, out);
      const entry = Object.entries(bundle).find(([, out]) => out.type === "chunk" && out.isEntry);
      if (!entry) return;
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const dep of chunks.get(file)?.imports ?? []) visit(dep);
      };
      visit(entry[0]);
      let raw = 0;
      let gz = 0;
      for (const file of seen) {
        const code = chunks.get(file)?.code ?? "";
        raw += Buffer.byteLength(code);
        gz += gzipSync(code, { level: 9 }).length;
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const lazy = chunks.size - seen.size;
      console.log(
        `\n[balcao] initial JS: ${seen.size} chunk(s), ${kb(raw)} raw, ${kb(gz)} gzipped (budget 250 KB); ${lazy} lazy chunk(s)\n`,
      );
    },
  };
}

export default defineConfig({
  // precompress: .br and .gz beside every text file, sent by the server to clients that accept them
  plugins: [react(), initialJsSize(), precompress()],
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(API_PREFIXES.map((p) => [p, api])),
      ...Object.fromEntries(SERVER_PAGES.map((p) => [p, { target: API_TARGET, changeOrigin: true }])),
      "/socket.io": { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
  build: { chunkSizeWarningLimit: 600 },
  test: { environment: "jsdom", include: ["src/**/*.test.{ts,tsx}", "plugins/**/*.test.ts"] },
});
