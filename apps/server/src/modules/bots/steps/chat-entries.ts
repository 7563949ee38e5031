import type { Message, Ticket } from "@balcao/contract";
import { chatEntries } from "../../../db/schema/index.js";
import { type BotDeps, type BotStep, SELF_SERVICE_JOB } from "../deps.js";
import { mediaPiece, type Piece, send, text } from "../send.js";
import { looseKey } from "../typebot.js";
import { menuStep } from "./menu.js";
import { selfServiceDue } from "./self-service.js";

type ChatEntryRow = typeof chatEntries.$inferSelect;

/**
 * 3. Chat entries (shortcuts; case and accents ignored): the entry's text and image. The entry
 * answers the content; a ticket without a queue still gets routed: the self-service starts, or the
 * menu is shown (once: not while a bot conversation or the menu waits for an answer); Typebot
 * starts with the next message.
 */
export function chatEntryStep(deps: BotDeps): BotStep & { mayAnswer(message: { body: string; mediaType: string }): Promise<boolean> } {
  const { ctx } = deps.conv;
  // the chat entries, read again after a change on any process (or 10 s, for a missed event)
  let cached: { at: number; rows: Promise<ChatEntryRow[]> } | undefined;
  ctx.events.onEverywhere("chatbot.changed", () => {
    cached = undefined;
  });
  const entries = async () => {
    if (cached && Date.now() - cached.at < 10_000) return cached.rows;
    // one read for the messages that find the cache expired together
    const rows = ctx.db
      .select()
      .from(chatEntries)
      .then((r) => r);
    const entry = { at: Date.now(), rows };
    cached = entry;
    rows.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return rows;
  };
  const step = async (input: Parameters<BotStep>[0]) => {
    const { message, ticket } = input;
    if (message.mediaType !== "chat" || !(await answerEntry(deps, await entries(), message, ticket))) return false;
    const [state, conn] = [await input.state(), await input.connection()];
    if (!conn || ticket.queueId !== null || state?.step) return true;
    if (selfServiceDue(deps, conn, ticket, state))
      await deps.enqueueJob(SELF_SERVICE_JOB, { ticketId: ticket.id, messageId: null }, { maxAttempts: 2 });
    else if (!conn.typebot.enabled || state?.data.typebotOff) await menuStep(deps, ticket.id, "", conn);
    return true;
  };
  /** whether an entry's shortcut is this text (no statement while the entries are cached) */
  const mayAnswer = async (message: { body: string; mediaType: string }) => {
    const key = looseKey(message.body);
    if (message.mediaType !== "chat" || !key || message.body.length > 100) return false;
    return (await entries()).some((e) => looseKey(e.shortcut) === key);
  };
  return Object.assign(step, { mayAnswer });
}

async function answerEntry(deps: BotDeps, rows: ChatEntryRow[], message: Message, ticket: Ticket): Promise<boolean> {
  const key = looseKey(message.body);
  if (!key || message.body.length > 100 || !rows.length) return false;
  const entry = rows.find((e) => looseKey(e.shortcut) === key);
  if (!entry) return false;
  const pieces: Piece[] = [];
  const image = entry.url ? await mediaPiece(deps, entry.url, "image", entry.message) : undefined;
  if (image) pieces.push(image);
  else if (entry.message.trim()) pieces.push(text(entry.message));
  if (!pieces.length) return false;
  await send(deps, ticket, pieces);
  return true;
}
