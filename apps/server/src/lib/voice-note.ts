import { spawn } from "node:child_process";
import { stat, unlink } from "node:fs/promises";
import { createRequire } from "node:module";

/**
 * Audio as WhatsApp plays a voice note: Ogg/Opus, mono, 48 kHz. The ffmpeg binary comes with the
 * `@ffmpeg-installer/ffmpeg` package (no system install). Time-limited; the output replaces nothing
 * until it is complete.
 */

const TIMEOUT_MS = 60_000;

function ffmpegPath(): string {
  const require = createRequire(import.meta.url);
  return (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
}

/** Converts the audio file at `input` into an Ogg/Opus voice note at `output`; rejects when ffmpeg cannot. */
export async function toVoiceNote(input: string, output: string): Promise<void> {
  const args = [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-i",
    input,
    "-vn",
    "-ac",
    "1",
    "-ar",
    "48000",
    "-c:a",
    "libopus",
    "-b:a",
    "32k",
    "-f",
    "ogg",
    output,
  ];
  await new Promise<void>((resolve, reject) => {
    const p = spawn(ffmpegPath(), args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    p.stderr.on("data", (d: Buffer) => {
      if (err.length < 2000) err += d.toString();
    });
    const timer = setTimeout(() => p.kill("SIGKILL"), TIMEOUT_MS);
    p.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    p.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg failed (${code}): ${err.trim().slice(0, 500)}`));
    });
  });
  const s = await stat(output).catch(() => undefined);
  if (!s?.size) {
    await unlink(output).catch(() => undefined);
    throw new Error("ffmpeg produced no audio");
  }
}
