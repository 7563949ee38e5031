// Shared helpers of the e2e specs: Chromium through playwright-core, sign-in, API calls, screenshots.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { findChromium } from "./chromium.mjs";

export const BASE = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080";
export const ADMIN = { email: "admin@balcao.local", password: "admin123" };
const SHOTS = resolve(import.meta.dirname, "../screenshots");
mkdirSync(SHOTS, { recursive: true });

/** The browser the specs drive: the one e2e/run.mjs chose (CHROMIUM_PATH), else the first found. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? findChromium().path ?? "/usr/bin/chromium";

/** Chromium, headless, without background networking; `extraArgs` add flags (a fake microphone…). */
export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

/** A fresh context in Brazilian Portuguese (a stored language choice wins over this). */
export async function newPage(browser, { width = 1280, height = 800, locale = "pt-BR" } = {}) {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width, height }, locale });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/** `promise`, or a failure naming `what` after `ms`. */
export async function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once the page's socket is connected and in its rooms (on every connect the shell asks to
 * join the ticket rooms, joinNotification last): live events sent from then on reach the page.
 * Call it before the page signs in.
 */
export function socketJoined(page) {
  const joined = new Promise((resolve) => {
    const onSocket = (ws) => {
      if (!ws.url().includes("/socket.io/")) return;
      ws.on("framesent", ({ payload }) => {
        if (typeof payload !== "string" || !payload.includes('"joinNotification"')) return;
        page.off("websocket", onSocket);
        resolve();
      });
    };
    page.on("websocket", onSocket);
  });
  return within(joined, 15_000, "the page's socket to join its rooms");
}

/** Signs in through the login page; with `live` (the default), also waits for the socket to be in its rooms. */
export async function signIn(page, { email, password } = ADMIN, { live = true } = {}) {
  const joined = live ? socketJoined(page) : undefined;
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL("**/tickets");
  await joined;
}

/**
 * The page has come to rest: its fonts are loaded and no CSS transition or finite animation is
 * running (an endless spinner does not count). For measuring and screenshots after something moved.
 */
export async function settled(page) {
  await page.waitForFunction(
    () =>
      document.fonts.status === "loaded" &&
      document
        .getAnimations()
        .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
}

/** A toast with this exact text is on screen. */
export function toast(page, text) {
  // the same text may still be showing from the previous save (toasts last 3 s): take the newest
  return page.locator("#notistack-snackbar", { hasText: text }).last();
}

/** Direct API calls (setup and checks), signed in as the admin. */
export async function api() {
  const r = await fetch(`${BASE}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!r.ok) throw new Error(`login failed: ${r.status}`);
  const { token } = await r.json();
  const call = async (method, path, body) => {
    const res = await fetch(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    get: (p) => call("GET", p),
    post: (p, b) => call("POST", p, b),
    put: (p, b) => call("PUT", p, b),
    delete: (p) => call("DELETE", p),
  };
}

export async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** A name unique to this run, so specs never collide with each other's data. */
export function unique(prefix) {
  return `${prefix} ${Math.random().toString(36).slice(2, 7)}`;
}
