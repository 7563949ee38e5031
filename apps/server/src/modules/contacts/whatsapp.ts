import { eq } from "drizzle-orm";
import { contacts, whatsapps } from "../../db/schema/index.js";
import { AppError, isUniqueViolation } from "../../lib/errors.js";
import type { ConvDeps } from "../outbox/deps.js";
import { addressOf } from "../outbox/enqueue.js";
import { defaultWhatsappId } from "../connection-facts/info.js";
import { getContact, importPhoneContacts } from "./service.js";

/**
 * What WhatsApp knows about a contact: whether a number exists there (asked before an agent starts
 * a conversation with a new number) and the profile picture (fetched and kept on the contact).
 */

type ContactRow = typeof contacts.$inferSelect;

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Before a ticket is opened with a contact WhatsApp has not told us about (a number without a
 * LID: typed in or imported), asks the connection whether the number exists:
 * ERR_WAPP_INVALID_CONTACT when it does not, ERR_WAPP_CHECK_CONTACT when the check fails. The
 * number WhatsApp answers with (it settles Brazil's ninth digit) and the LID are kept on the
 * contact. Without a live session there is nobody to ask: the ticket opens and a send will say
 * ERR_WAPP_NOT_INITIALIZED.
 */
export async function verifyOnWhatsapp(conv: ConvDeps, contact: ContactRow, whatsappId: number): Promise<void> {
  if (contact.isGroup || !contact.number || contact.lid) return;
  const session = conv.channels.session(whatsappId);
  if (!session) return;
  let found: Awaited<ReturnType<typeof session.checkNumber>>;
  try {
    found = await session.checkNumber(contact.number);
  } catch (err) {
    // no live session (several processes: none owns it right now): nobody to ask
    if (codeOf(err) === "ERR_WAPP_NOT_INITIALIZED" || codeOf(err) === "ERR_SESSION_NOT_OWNED") return;
    conv.ctx.log.warn({ err, contactId: contact.id }, "checking a number on WhatsApp failed");
    throw new AppError("ERR_WAPP_CHECK_CONTACT");
  }
  if (!found.exists) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  const patch: Partial<ContactRow> = {};
  if (found.number && found.number !== contact.number) patch.number = found.number;
  if (found.lid) patch.lid = found.lid;
  if (!Object.keys(patch).length) return;
  const db = conv.ctx.db;
  try {
    await db
      .update(contacts)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(contacts.id, contact.id));
  } catch (err) {
    // another contact already holds that number or LID: this one stays as it is
    if (isUniqueViolation(err)) return;
    throw err;
  }
  conv.ctx.events.publish("contact.saved", { action: "update", contact: await getContact(db, contact.id) });
}

/** How long a fetched (or missing) picture is trusted before WhatsApp is asked again. */
export const PROFILE_PICTURE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Profile pictures of the contacts who write in, fetched from the connection at most once per
 * PROFILE_PICTURE_TTL_MS per contact (WhatsApp's picture links expire) and stored on the contact
 * (profilePicUrl), in the background: a message never waits for its sender's picture.
 */
export function createProfilePictures(conv: ConvDeps, now: () => number = Date.now) {
  const askedAt = new Map<number, number>();
  const inflight = new Set<Promise<void>>();

  async function fetchAndStore(whatsappId: number, contact: Pick<ContactRow, "id" | "number" | "lid" | "isGroup" | "profilePicUrl">) {
    const session = conv.channels.session(whatsappId);
    if (!session) return;
    const url = (await session.profilePictureUrl(addressOf(contact))) ?? "";
    if (url === contact.profilePicUrl) return;
    const db = conv.ctx.db;
    const [row] = await db
      .update(contacts)
      .set({ profilePicUrl: url, updatedAt: new Date() })
      .where(eq(contacts.id, contact.id))
      .returning({ id: contacts.id });
    if (row) conv.ctx.events.publish("contact.saved", { action: "update", contact: await getContact(db, contact.id) });
  }

  return {
    /** Starts a refresh of the contact's picture when it is due; answers at once. */
    refresh(whatsappId: number, contact: Pick<ContactRow, "id" | "number" | "lid" | "isGroup" | "profilePicUrl">): void {
      const last = askedAt.get(contact.id);
      if (last !== undefined && now() - last < PROFILE_PICTURE_TTL_MS) return;
      askedAt.set(contact.id, now());
      if (askedAt.size > 50_000) askedAt.delete(askedAt.keys().next().value as number);
      const job = fetchAndStore(whatsappId, contact)
        .catch((err) => conv.ctx.log.debug({ err, contactId: contact.id }, "profile picture not fetched"))
        .finally(() => inflight.delete(job));
      inflight.add(job);
    },
    /** Resolves when the refreshes started so far are done (tests, shutdown). */
    async idle(): Promise<void> {
      while (inflight.size) await Promise.all([...inflight]);
    },
  };
}

/**
 * POST /contacts/import without a file: the contacts of a connection's phone (the default one, or
 * `whatsappId`), as its channel learned them. ERR_WAPP_NOT_INITIALIZED when that connection has
 * no session, or its engine keeps no contacts.
 */
export async function importFromPhone(conv: ConvDeps, whatsappId?: number) {
  const id = whatsappId ?? (await defaultWhatsappId(conv.ctx.db));
  const [row] = await conv.ctx.db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.id, id));
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  const session = conv.channels.session(id);
  if (!session?.contacts) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  return importPhoneContacts(conv.ctx, await session.contacts());
}
