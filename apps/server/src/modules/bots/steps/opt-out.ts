import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { handleOptOut, optOutKey } from "../../disparos/service.js";
import { getSettingValues } from "../../settings/service.js";
import type { BotDeps, BotStep } from "../deps.js";

/**
 * Whether a customer's text may be an opt-out word (the cached words; cheap, no statement): only such a message
 * goes on to the opt-out step's database work.
 */
export function optOutCandidate(deps: BotDeps): (body: string, mediaType: string) => Promise<boolean> {
  let words: { from: string; keys: Set<string> } | undefined;
  return async (body, mediaType) => {
    if (mediaType !== "chat" || body.length > 60) return false;
    const key = optOutKey(body);
    if (!key) return false;
    const { disparoOptOutWords } = await deps.config.settings();
    if (words?.from !== disparoOptOutWords)
      words = {
        from: disparoOptOutWords,
        keys: new Set(
          disparoOptOutWords
            .split(/[,;\n]/)
            .map(optOutKey)
            .filter(Boolean),
        ),
      };
    return words.keys.has(key);
  };
}

/** 1. Opt-out words (disparos): the contact is marked and told once; nothing else answers. */
export const optOutStep = (deps: BotDeps, candidate: ReturnType<typeof optOutCandidate>): BotStep => {
  return async ({ message, ticket }) => (await candidate(message.body, message.mediaType)) && handleOptOut(deps.disparos, message, ticket);
};

/**
 * Whether a customer's text is an opt-out answer (one of the opt-out words, the contact not marked
 * yet): the inbound builder asks it before placing the message, so the answer reopens no ticket for
 * an agent; the opt-out step (1.) marks the contact and confirms after the commit.
 */
export async function isOptOutAnswer(tx: DbOrTx, contactId: number, body: string): Promise<boolean> {
  if (body.length > 60) return false;
  const key = optOutKey(body);
  if (!key) return false;
  const { disparoOptOutWords } = await getSettingValues(tx, ["disparoOptOutWords"]);
  if (!disparoOptOutWords.split(/[,;\n]/).some((w) => optOutKey(w) === key)) return false;
  const { rows } = await tx.execute(sql`select 1 from contact_opt_outs where contact_id = ${contactId}`);
  return rows.length === 0;
}
