// Helpers of the conversation specs: a paired simulator connection, customers writing, what their phone shows,
// agents, a Chromium with a fake microphone fed from a WAV file.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as nextPoll } from "node:timers/promises";
import { BASE, launch, socketJoined } from "./browser.mjs";

/**
 * Polls `fn` until it returns a truthy value: for what only the HTTP API shows (the simulated
 * phone, stored tickets), which has no event to wait on.
 */
export async function until(fn, what, ms = 15_000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    await nextPoll(200);
  }
  throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)?.slice(0, 300)})`);
}

/** A simulator connection created and paired through the simulator API. */
export async function pairedSimulator(admin, { name, queueIds = [], greetingMessage = "", farewellMessage = "" }) {
  const created = await admin.post("/simulator/api/connections", { name, queueIds, greetingMessage, farewellMessage });
  const id = created.id;
  const conn = await until(async () => {
    const all = await admin.get("/simulator/api/connections");
    const c = all.find((x) => x.id === id);
    return c?.status === "qrcode" && c.qrcode ? c : undefined;
  }, "the QR code");
  await admin.post(`/simulator/api/connections/${id}/scan`, { qrcode: conn.qrcode });
  await until(async () => (await admin.get("/simulator/api/connections")).find((x) => x.id === id)?.status === "CONNECTED", "pairing");
  return {
    id,
    say: (number, body, customerName) =>
      admin.post(`/simulator/api/connections/${id}/messages`, { number, name: customerName ?? "", body }),
    phone: async (number) => (await admin.get(`/simulator/api/connections/${id}/chats/${number}`)).messages,
    read: (number) => admin.post(`/simulator/api/connections/${id}/chats/${number}/read`, {}),
  };
}

export function randomColor() {
  return `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
}

/** A 16-bit mono PCM WAV with a warbling tone: something the fake microphone can play. */
export function toneWav(seconds = 4, rate = 48_000) {
  const n = seconds * rate;
  const buf = Buffer.alloc(44 + n * 2);
  buf.write("RIFF", 0);
  buf.writeUInt32LE(36 + n * 2, 4);
  buf.write("WAVE", 8);
  buf.write("fmt ", 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36);
  buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) {
    const f = 440 + 200 * Math.sin((2 * Math.PI * i) / rate);
    buf.writeInt16LE(Math.round(12_000 * Math.sin((2 * Math.PI * f * i) / rate)), 44 + i * 2);
  }
  const path = join(tmpdir(), `balcao-tone-${process.pid}.wav`);
  writeFileSync(path, buf);
  return path;
}

/** Debian's Chromium with a fake microphone playing `wav` and media permissions granted. */
export async function launchWithMic(wav) {
  return launch([
    "--autoplay-policy=no-user-gesture-required",
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    `--use-file-for-fake-audio-capture=${wav}`,
  ]);
}

/**
 * Marks the AudioContext that takes the microphone, so that `recorded` can wait on its clock (the
 * page is already loaded: the recorder's context is created later, on "Gravar áudio").
 */
export async function watchMicrophone(page) {
  await page.evaluate(() => {
    const take = AudioContext.prototype.createMediaStreamSource;
    AudioContext.prototype.createMediaStreamSource = function (stream) {
      window.__microphone = { context: this, from: this.currentTime };
      return take.call(this, stream);
    };
  });
}

/** Resolves once the recording has taken `seconds` of audio from the microphone (by the recorder's audio clock). */
export async function recorded(page, seconds) {
  await page.waitForFunction((s) => {
    const mic = window.__microphone;
    return mic !== undefined && mic.context.currentTime - mic.from >= s;
  }, seconds);
}

/** An agent with the given queues (created through the admin API). */
export async function createAgent(admin, { name, queueIds, profile = "user" }) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}@example.com`;
  const password = "segredo1";
  const user = await admin.post("/users", { name, email, password, profile, queueIds });
  return { ...user, email, password };
}

/** A signed-in page for a user, in its own context (its own storage and socket). */
export async function agentPage(browser, user, { width = 1366, height = 850 } = {}) {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width, height }, locale: "pt-BR", permissions: ["microphone"] });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const joined = socketJoined(page);
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Senha").fill(user.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL("**/tickets");
  await joined;
  return page;
}

/** The row of a ticket in the visible list of the page. */
export function ticketRow(page, contactName) {
  return page.locator('[data-testid="tickets-scroll"]:visible [data-testid="ticket-item"]', { hasText: contactName });
}
