import type { ContactEraseAnswer } from "@balcao/contract";
import { and, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import type { SessionUser } from "../../context.js";
import type { DbOrTx } from "../../db/client.js";
import {
  billingLinks,
  contactExtraInfo,
  contactOptOuts,
  contactTags,
  contacts,
  contracts,
  disparos,
  messages,
  schedules,
  tags,
  tickets,
} from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";
import type { FileStore } from "../../lib/media.js";
import { iso } from "../../lib/sql.js";
import { zip, type ZipEntry } from "../../lib/zip.js";
import { auditForCustomer, recordAudit } from "../audit/service.js";
import { getContact } from "../contacts/service.js";
import type { ConvDeps } from "../outbox/deps.js";

/**
 * LGPD: everything Balcão holds on a contact as one ZIP (`exportContact`), and its erasure on
 * request (`eraseContact`). Internal notes are kept out of the export (it goes to the customer);
 * signed contracts are kept by the erasure (legal obligation, LGPD art. 16 I).
 */
export interface LgpdDeps {
  conv: ConvDeps;
  /** the contracts' PDF store (DATA_DIR/contracts) */
  contractFiles: FileStore;
}

const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`, "utf8");

async function contactRow(db: DbOrTx, id: number) {
  const [c] = await db.select().from(contacts).where(eq(contacts.id, id));
  if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
  return c;
}

/** The contact's tickets' ids. */
async function ticketIdsOf(db: DbOrTx, contactId: number): Promise<number[]> {
  const rows = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.contactId, contactId));
  return rows.map((r) => r.id);
}

/** Who the disparo rows concern: the contact, or its number (rows made before the contact was known). */
function disparosOf(contact: { id: number; number: string | null }) {
  return contact.number ? or(eq(disparos.contactId, contact.id), eq(disparos.number, contact.number)) : eq(disparos.contactId, contact.id);
}

/** GET /contacts/:id/export — one ZIP: a JSON per kind, the media files under media/, the contract PDFs under contracts/. */
export async function exportContact(deps: LgpdDeps, actor: SessionUser, id: number): Promise<{ zip: Buffer; fileName: string }> {
  const db = deps.conv.ctx.db;
  const c = await contactRow(db, id);
  const ticketIds = await ticketIdsOf(db, id);
  const inTickets = <T>(col: T) => (ticketIds.length ? inArray(col as never, ticketIds) : sql`false`);
  const [extra, tagRows, optOut, ticketRows, messageRows, scheduleRows, disparoRows, contractRows, links, auditRows] = await Promise.all([
    db
      .select({ name: contactExtraInfo.name, value: contactExtraInfo.value })
      .from(contactExtraInfo)
      .where(eq(contactExtraInfo.contactId, id)),
    db.select({ name: tags.name }).from(contactTags).innerJoin(tags, eq(tags.id, contactTags.tagId)).where(eq(contactTags.contactId, id)),
    db.select().from(contactOptOuts).where(eq(contactOptOuts.contactId, id)),
    db
      .select({
        id: tickets.id,
        status: tickets.status,
        queueId: tickets.queueId,
        userId: tickets.userId,
        whatsappId: tickets.whatsappId,
        createdAt: tickets.createdAt,
        updatedAt: tickets.updatedAt,
        closedAt: tickets.closedAt,
      })
      .from(tickets)
      .where(eq(tickets.contactId, id))
      .orderBy(tickets.id),
    db
      .select({
        id: messages.id,
        ticketId: messages.ticketId,
        createdAt: messages.createdAt,
        fromMe: messages.fromMe,
        source: messages.source,
        body: messages.body,
        mediaType: messages.mediaType,
        mediaKey: messages.mediaKey,
        mimetype: messages.mimetype,
        fileName: messages.fileName,
        isDeleted: messages.isDeleted,
        isEdited: messages.isEdited,
        transcription: messages.transcription,
        dataJson: messages.dataJson,
      })
      .from(messages)
      // internal notes are the team's, never given to the customer
      .where(and(inTickets(messages.ticketId), ne(messages.source, "note")))
      .orderBy(messages.createdAt, messages.id),
    db
      .select()
      .from(schedules)
      .where(or(eq(schedules.contactId, id), inTickets(schedules.ticketId))),
    db.select().from(disparos).where(disparosOf(c)),
    db.select().from(contracts).where(inTickets(contracts.ticketId)),
    db.select().from(billingLinks).where(eq(billingLinks.contactId, id)),
    auditForCustomer(db, id),
  ]);

  const files: ZipEntry[] = [];
  const media = new Map<string, string>();
  for (const m of messageRows) {
    if (!m.mediaKey || media.has(m.mediaKey)) continue;
    const data = await deps.conv.media.read(m.mediaKey);
    if (!data) continue;
    media.set(m.mediaKey, `media/${m.mediaKey}`);
    files.push({ name: `media/${m.mediaKey}`, data });
  }
  const contractFiles: { id: number; kind: "generated" | "signed"; path: string }[] = [];
  for (const k of contractRows) {
    for (const [kind, key] of [
      ["generated", k.fileKey],
      ["signed", k.signedKey],
    ] as const) {
      if (!key) continue;
      const data = await deps.contractFiles.read(key);
      if (!data) continue;
      const path = `contracts/${k.id}-${kind}.pdf`;
      contractFiles.push({ id: k.id, kind, path });
      files.push({ name: path, data });
    }
  }

  const now = new Date();
  const entries: ZipEntry[] = [
    {
      name: "README.txt",
      data: Buffer.from(
        "Dados pessoais mantidos pelo Balcão sobre este contato (LGPD, art. 18 II).\n" +
          "contact.json: o contato; tickets.json: os atendimentos; messages.json: as mensagens (arquivos em media/);\n" +
          "schedules.json: agendamentos; disparos.json: envios em massa; contracts.json: contratos (PDFs em contracts/);\n" +
          "billing-links.json: vínculos com o sistema de cobrança; audit.json: o que foi feito com os dados do contato, e quando.\n" +
          `Gerado em ${now.toISOString()}.\n`,
        "utf8",
      ),
    },
    {
      name: "contact.json",
      data: json({
        id: c.id,
        name: c.name,
        number: c.number,
        lid: c.lid,
        email: c.email,
        profilePicUrl: c.profilePicUrl,
        isGroup: c.isGroup,
        createdAt: iso(c.createdAt),
        updatedAt: iso(c.updatedAt),
        erasedAt: c.erasedAt ? iso(c.erasedAt) : null,
        extraInfo: extra,
        tags: tagRows.map((t) => t.name),
        optOut: optOut[0] ? { word: optOut[0].word, at: iso(optOut[0].createdAt) } : null,
      }),
    },
    { name: "tickets.json", data: json(ticketRows) },
    {
      name: "messages.json",
      data: json(
        messageRows.map(({ mediaKey, dataJson, ...m }) => ({
          ...m,
          file: mediaKey ? (media.get(mediaKey) ?? null) : null,
          data: dataJson ? safeParse(dataJson) : null,
        })),
      ),
    },
    { name: "schedules.json", data: json(scheduleRows) },
    { name: "disparos.json", data: json(disparoRows) },
    {
      name: "contracts.json",
      data: json(
        contractRows.map(({ fileKey, signedKey, ...k }) => ({
          ...k,
          files: contractFiles.filter((f) => f.id === k.id).map((f) => f.path),
        })),
      ),
    },
    { name: "billing-links.json", data: json(links) },
    { name: "audit.json", data: json(auditRows) },
    ...files,
  ];
  await recordAudit(db, {
    actor,
    action: "contact.export",
    target: `contact:${id}`,
    contactId: id,
    after: { messages: messageRows.length, mediaFiles: media.size, contracts: contractRows.length },
  });
  return { zip: zip(entries, now), fileName: `contato-${id}.zip` };
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/**
 * Media keys no longer needed once these are gone: not used by another message, a disparo still
 * to send, or a chat/audio entry (a shared disparo file stays while anything uses it).
 */
export async function unreferencedKeys(db: DbOrTx, keys: string[], except: { messageIds: number[] }): Promise<string[]> {
  if (!keys.length) return [];
  const ids = except.messageIds.length ? except.messageIds : [0];
  const { rows } = await db.execute<{ key: string }>(sql`
    select k.key from (values ${sql.join(
      keys.map((key) => sql`(${key}::text)`),
      sql`, `,
    )}) as k(key)
    where not exists (select 1 from messages m where m.media_key = k.key and m.id not in (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )}))
      and not exists (select 1 from disparos d where d.media_key = k.key and d.status in ('a enviar', 'enviando'))
      and not exists (select 1 from chat_entries e where e.url like '%' || k.key)
      and not exists (select 1 from audio_entries a where a.url like '%' || k.key)`);
  return rows.map((r) => r.key);
}

/**
 * POST /contacts/:id/erase — the contact's personal data removed or anonymised in one
 * transaction: its name, number, LID, e-mail, picture, extra info and opt-out; every message's
 * text, file, transcription and extra data (notes too); the tickets' previews; schedules (pending
 * ones canceled) and disparo rows (waiting ones canceled); unsigned contracts and their PDFs; the
 * billing links (CPF/CNPJ). The conversation's shape stays (tickets, message rows with their
 * times, direction and kind) so the counts and the dashboard do not change. Signed contracts are
 * kept, as the law requires. Media files are deleted after the commit. The erasure is audited.
 */
export async function eraseContact(deps: LgpdDeps, actor: SessionUser, id: number): Promise<ContactEraseAnswer> {
  const { ctx } = deps.conv;
  const result = await ctx.db.transaction(async (tx) => {
    const [c] = await tx.select().from(contacts).where(eq(contacts.id, id)).for("update");
    if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
    const ticketIds = (await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.contactId, id))).map((r) => r.id);
    const inTickets = <T>(col: T) => (ticketIds.length ? inArray(col as never, ticketIds) : sql`false`);
    const withMedia = await tx
      .select({ id: messages.id, key: messages.mediaKey })
      .from(messages)
      .where(and(inTickets(messages.ticketId), isNotNull(messages.mediaKey)));
    const erasedMessages = await tx
      .update(messages)
      .set({ body: "", mediaKey: null, fileName: null, dataJson: null, transcription: null, sendError: null, updatedAt: new Date() })
      .where(inTickets(messages.ticketId))
      .returning({ id: messages.id });
    // messages of the contact still waiting to be sent are not sent any more
    if (erasedMessages.length) {
      await tx.execute(sql`delete from outbox where message_id in (select id from messages where ${inTickets(messages.ticketId)})`);
    }
    if (ticketIds.length) await tx.update(tickets).set({ lastMessage: "" }).where(inArray(tickets.id, ticketIds));
    if (ticketIds.length) await tx.execute(sql`update bot_sessions set data = '{}'::jsonb where ${inArray(sql`ticket_id`, ticketIds)}`);
    await tx
      .update(schedules)
      .set({
        message: "",
        customerNumber: "",
        status: sql`case when ${schedules.status} = 'pending' then 'canceled' else ${schedules.status} end`,
        reason: sql`case when ${schedules.status} = 'pending' then 'LGPD' else ${schedules.reason} end`,
        updatedAt: new Date(),
      })
      .where(or(eq(schedules.contactId, id), inTickets(schedules.ticketId)));
    await tx
      .update(disparos)
      .set({
        number: "",
        name: "",
        message: "",
        rendered: null,
        status: sql`case when ${disparos.status} = 'a enviar' then 'cancelado' else ${disparos.status} end`,
        reason: sql`case when ${disparos.status} = 'a enviar' then 'LGPD' else ${disparos.reason} end`,
        updatedAt: new Date(),
      })
      .where(disparosOf(c));
    const unsignedKeys = await tx
      .select({ key: contracts.fileKey })
      .from(contracts)
      .where(and(inTickets(contracts.ticketId), ne(contracts.status, "Assinado"), isNotNull(contracts.fileKey)));
    const unsigned = await tx
      .update(contracts)
      .set({ nome: "", cpf: "", email: "", telefone: "", texto: "", campos: "{}", fileKey: null, fileSha256: null, updatedAt: new Date() })
      .where(and(inTickets(contracts.ticketId), ne(contracts.status, "Assinado")))
      .returning({ id: contracts.id });
    const [{ n: keptSigned }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(contracts)
      .where(and(inTickets(contracts.ticketId), eq(contracts.status, "Assinado")));
    await tx.delete(billingLinks).where(eq(billingLinks.contactId, id));
    await tx.delete(contactExtraInfo).where(eq(contactExtraInfo.contactId, id));
    await tx.delete(contactOptOuts).where(eq(contactOptOuts.contactId, id));
    // the contact-number history of the old audit table (numbers): anonymised
    await tx.execute(sql`update audit_log set old_value = null, new_value = null where entity = 'contact' and entity_id = ${id}`);
    // the inbound journal keeps the raw events of a chat for a while (finished, or failed and kept for
    // a look): the contact's go now; one still waiting is processed into the erased chat (its text then
    // stands as any new message does)
    const chats = [c.number, c.lid].filter((v): v is string => !!v);
    if (chats.length) await tx.execute(sql`delete from inbound_events where state in ('done', 'failed') and ${inArray(sql`chat`, chats)}`);
    if (ticketIds.length) {
      // the Cloud send ledger keeps each request's body (text and number) until the send is done:
      // the entry stays (it is what keeps a send from going twice), its body goes
      await tx.execute(sql`
        update whatsapp_auth_keys k set value = (k.value::jsonb - 'body')::text
        where k.key like 'out:%' and k.value like '%"body"%'
          and k.key in (select 'out:' || m.wid from messages m where ${inArray(sql`m.ticket_id`, ticketIds)} and m.wid is not null)`);
      // what the billing system answered in the chat's actions (may name the customer)
      await tx.execute(sql`update billing_actions set message = '' where ${inArray(sql`ticket_id`, ticketIds)}`);
    }
    // the unsigned contracts' signing evidence (the customer's address and browser) and links
    if (unsigned.length) {
      const ids = unsigned.map((u) => u.id);
      await tx.execute(sql`delete from contract_evidence where ${inArray(sql`contract_id`, ids)}`);
      await tx.execute(sql`delete from contract_tokens where ${inArray(sql`contract_id`, ids)}`);
    }
    // calls between processes that carried the number (a number check) and are done
    if (c.number) await tx.execute(sql`delete from owner_calls where done_at is not null and strpos(args::text, ${c.number}) > 0`);
    await tx
      .update(contacts)
      .set({
        name: `Contato apagado #${id}`,
        number: null,
        lid: null,
        email: "",
        profilePicUrl: "",
        erasedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(contacts.id, id));
    const keys = [...new Set(withMedia.map((m) => m.key).filter((k): k is string => !!k))];
    const removable = await unreferencedKeys(tx, keys, { messageIds: withMedia.map((m) => m.id) });
    const answer: ContactEraseAnswer = {
      erased: true,
      messages: erasedMessages.length,
      mediaFiles: removable.length,
      keptSignedContracts: keptSigned,
    };
    await recordAudit(tx, {
      actor,
      action: "contact.erase",
      target: `contact:${id}`,
      contactId: id,
      after: { ...answer, tickets: ticketIds.length, unsignedContracts: unsigned.length },
    });
    return { answer, removable, contractKeys: unsignedKeys.map((k) => k.key).filter((k): k is string => !!k), ticketIds };
  });
  // the lists and open chats show the anonymised contact
  ctx.events.publish("contact.saved", { action: "update", contact: await getContact(ctx.db, id) });
  if (result.ticketIds.length) ctx.events.publish("tickets.changed", { ticketIds: result.ticketIds });
  // files go after the commit (a rollback keeps them); a file that fails to go is logged
  for (const key of result.removable) {
    await deps.conv.media.remove(key).catch((err) => ctx.log.warn({ err, key }, "erased media file not removed"));
  }
  for (const key of result.contractKeys) {
    await deps.contractFiles.remove(key).catch((err) => ctx.log.warn({ err, key }, "erased contract file not removed"));
  }
  return result.answer;
}
