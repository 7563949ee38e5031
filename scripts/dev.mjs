#!/usr/bin/env node
// `npm run dev`: the server with reload (tsx watch) and Vite with its proxy to it.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const children = [
  spawn("npm", ["run", "dev", "-w", "apps/server"], {
    cwd: root,
    stdio: "inherit",
    // the Vite dev server is another origin: allowed for CORS and the socket
    env: {
      ...process.env,
      PORT: process.env.PORT ?? "8080",
      CORS_ORIGINS: process.env.CORS_ORIGINS ?? "http://localhost:5173,http://127.0.0.1:5173",
    },
  }),
  spawn("npm", ["run", "dev", "-w", "apps/web"], { cwd: root, stdio: "inherit" }),
];
const stop = (sig) => {
  for (const c of children) c.kill(sig);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
for (const c of children)
  c.on("exit", (code) => {
    stop("SIGTERM");
    process.exit(code ?? 0);
  });
