import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { unlink } from "node:fs/promises";
import type { AudioEntry, AudioEntryBody, ChatEntry, ChatEntryBody } from "@balcao/contract";
import { asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import { audioEntries, chatEntries } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import { type MediaStore, mediaUrl } from "../../lib/media.js";
import type { ReceivedFile } from "../../lib/uploads.js";
import { iso } from "../../lib/sql.js";
import { toVoiceNote } from "../../lib/voice-note.js";

/**
 * Chat entries (/chatbot: a shortcut answered with a text and an image in tickets without an
 * agent) and audio entries (/audiobot: voice notes agents and flows send). Everyone signed in
 * reads them; admins write. Uploads are judged by their bytes; audio is converted to Ogg/Opus.
 */

type ChatRow = typeof chatEntries.$inferSelect;
type AudioRow = typeof audioEntries.$inferSelect;

const chatOf = (r: ChatRow): ChatEntry => ({
  id: r.id,
  shortcut: r.shortcut,
  message: r.message,
  url: r.url,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});
const audioOf = (r: AudioRow): AudioEntry => ({
  id: r.id,
  titulo: r.titulo,
  url: r.url,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export async function listChatEntries(db: DbOrTx): Promise<ChatEntry[]> {
  return (await db.select().from(chatEntries).orderBy(asc(chatEntries.shortcut), asc(chatEntries.id))).map(chatOf);
}

export async function createChatEntry(ctx: AppContext, input: ChatEntryBody): Promise<ChatEntry> {
  const [row] = await ctx.db
    .insert(chatEntries)
    .values({ shortcut: input.shortcut, message: input.message ?? "", url: input.url ?? "" })
    .returning();
  const chatEntry = chatOf(row);
  ctx.events.publish("chatbot.changed", { action: "create", chatEntry });
  return chatEntry;
}

export async function updateChatEntry(ctx: AppContext, id: number, input: Partial<ChatEntryBody>): Promise<ChatEntry> {
  const [row] = await ctx.db
    .update(chatEntries)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(chatEntries.id, id))
    .returning();
  if (!row) throw new AppError("ERR_NO_CHATBOT_FOUND");
  const chatEntry = chatOf(row);
  ctx.events.publish("chatbot.changed", { action: "update", chatEntry });
  return chatEntry;
}

export async function deleteChatEntry(ctx: AppContext, id: number): Promise<void> {
  const [row] = await ctx.db.delete(chatEntries).where(eq(chatEntries.id, id)).returning({ id: chatEntries.id });
  if (!row) throw new AppError("ERR_NO_CHATBOT_FOUND");
  ctx.events.publish("chatbot.changed", { action: "delete", id });
}

export async function listAudioEntries(db: DbOrTx): Promise<AudioEntry[]> {
  return (await db.select().from(audioEntries).orderBy(asc(audioEntries.titulo), asc(audioEntries.id))).map(audioOf);
}

export async function createAudioEntry(ctx: AppContext, input: AudioEntryBody): Promise<AudioEntry> {
  const [row] = await ctx.db
    .insert(audioEntries)
    .values({ titulo: input.titulo, url: input.url ?? "" })
    .returning();
  const audioEntry = audioOf(row);
  ctx.events.publish("audiobot.changed", { action: "create", audioEntry });
  return audioEntry;
}

export async function updateAudioEntry(ctx: AppContext, id: number, input: Partial<AudioEntryBody>): Promise<AudioEntry> {
  const [row] = await ctx.db
    .update(audioEntries)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(audioEntries.id, id))
    .returning();
  if (!row) throw new AppError("ERR_NO_AUDIOBOT_FOUND");
  const audioEntry = audioOf(row);
  ctx.events.publish("audiobot.changed", { action: "update", audioEntry });
  return audioEntry;
}

export async function deleteAudioEntry(ctx: AppContext, id: number): Promise<void> {
  const [row] = await ctx.db.delete(audioEntries).where(eq(audioEntries.id, id)).returning({ id: audioEntries.id });
  if (!row) throw new AppError("ERR_NO_AUDIOBOT_FOUND");
  ctx.events.publish("audiobot.changed", { action: "delete", id });
}

/** Chat entry uploads take images only (judged by content). */
export function acceptImage(detected: { mime: string } | undefined): true | string {
  return detected && /^image\/(jpeg|png|gif|webp)$/.test(detected.mime) ? true : "Only images";
}

/** Audio entry uploads take audio only (judged by content). */
export function acceptAudio(detected: { mime: string } | undefined): true | string {
  return detected && /^audio\//.test(detected.mime) ? true : "Only audio";
}

/** An image for a chat entry: moved into the media store; answers its address. */
export async function storeChatImage(media: MediaStore, file: ReceivedFile): Promise<string> {
  const stored = await media.adoptUpload(file);
  return mediaUrl(stored.key) ?? "";
}

/** An audio for an audio entry: converted to an Ogg/Opus voice note, stored; answers its address. */
export async function storeVoiceNote(media: MediaStore, file: ReceivedFile): Promise<string> {
  const out = join(media.tmpDir, `${randomBytes(16).toString("hex")}.tmp.ogg`);
  try {
    await toVoiceNote(file.path, out);
  } catch (err) {
    throw new AppError("ERR_INVALID_FILE", 400, { audio: [err instanceof Error ? "Audio could not be converted" : String(err)] });
  }
  try {
    const stored = await media.adoptUpload({ path: out, size: 1, detected: { mime: "audio/ogg", ext: "ogg" } });
    return mediaUrl(stored.key) ?? "";
  } finally {
    await unlink(out).catch(() => undefined);
  }
}
