import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MediaType } from "@balcao/contract";
import { and, asc, desc, eq, lt, sql } from "drizzle-orm";
import type { Ack } from "../../channels/channel.js";
import type { SimChat, SimMessage, SimulatorStore } from "../../channels/simulator/session.js";
import type { Db } from "../../db/client.js";
import { simulatorChats, simulatorMessages } from "../../db/schema/index.js";
import { PLANNED_EACH_RUN } from "../../db/preparing-client.js";
import { textArray } from "../../lib/sql.js";

const MEDIA_FILE = /^[a-f0-9]{32}$/;

type Row = typeof simulatorMessages.$inferSelect;

function toSim(r: Row): SimMessage {
  return {
    id: r.id,
    chat: r.chat,
    fromMe: r.fromMe,
    body: r.body,
    mediaType: r.mediaType as MediaType,
    mimetype: r.mimetype,
    fileName: r.fileName,
    mediaFile: r.mediaFile,
    ack: r.ack as Ack,
    isDeleted: r.isDeleted,
    quotedId: r.quotedId,
    delivered: r.delivered,
    groupId: r.groupId,
    senderName: r.senderName,
    senderNumber: r.groupId ? r.senderNumber : r.chat,
    at: r.createdAt.toISOString(),
  };
}

/**
 * Marks customer messages delivered, as the journal appends its rows: marks that arrive while an
 * update is in flight go together in the next one (a load test's every message pays a share of one
 * statement, not one each). Each call resolves once its mark is committed.
 */
function deliveredMarks(db: Db): (whatsappId: number, id: string) => Promise<void> {
  let waiting: { whatsappId: number; id: string; done: () => void; failed: (err: unknown) => void }[] = [];
  let writing = false;
  async function drain() {
    writing = true;
    while (waiting.length) {
      const batch = waiting.slice(0, 500);
      waiting = waiting.slice(batch.length);
      const byConnection = new Map<number, typeof batch>();
      for (const w of batch) {
        const marks = byConnection.get(w.whatsappId);
        if (marks) marks.push(w);
        else byConnection.set(w.whatsappId, [w]);
      }
      for (const [whatsappId, marks] of byConnection) {
        try {
          // one text whatever the number of ids (a text[] parameter), and not a JSON array unnested: even
          // with statistics its generic plan hashed the ids and scanned the whole table. Planned on each
          // run: the generic plan of `id = any($2)`, made while the table was small, walked all of the
          // connection's rows through the chat index instead of the primary key (15 ms a batch at 20 000
          // messages and growing; planned with its ids, through the primary key, well under 1 ms)
          await db.execute(sql`${sql.raw(PLANNED_EACH_RUN)}update simulator_messages set delivered = true
            where whatsapp_id = ${whatsappId} and id = any(${textArray(marks.map((m) => m.id))}::text[])`);
          for (const m of marks) m.done();
        } catch (err) {
          for (const m of marks) m.failed(err);
        }
      }
    }
    writing = false;
  }
  return (whatsappId, id) =>
    new Promise<void>((done, failed) => {
      waiting.push({ whatsappId, id, done, failed });
      if (!writing) void drain();
    });
}

/** The simulator's memory over the database, with media files under DATA_DIR/simulator. */
export function createSimulatorStore(db: Db, dataDir: string): SimulatorStore {
  const dir = join(dataDir, "simulator");
  mkdirSync(dir, { recursive: true });
  return {
    async saveChat(whatsappId, number, name) {
      await db
        .insert(simulatorChats)
        .values({ whatsappId, number, name: name ?? "" })
        .onConflictDoUpdate({
          target: [simulatorChats.whatsappId, simulatorChats.number],
          set: name ? { name, updatedAt: new Date() } : { updatedAt: new Date() },
        });
    },
    async chats(whatsappId) {
      const rows = await db.execute<{ number: string; name: string; refused: boolean; last: Row | null }>(sql`
        select c.number, c.name, c.refused,
               (select row_to_json(m) from (
                  select id, chat, from_me as "fromMe", body, media_type as "mediaType", ack, is_deleted as "isDeleted", group_id as "groupId", created_at as "createdAt"
                  from simulator_messages where whatsapp_id = c.whatsapp_id and chat = c.number order by seq desc limit 1) m) as last
        from simulator_chats c where c.whatsapp_id = ${whatsappId}
        order by c.updated_at desc`);
      return rows.rows.map(
        (r): SimChat => ({
          number: r.number,
          name: r.name,
          refused: r.refused,
          last: r.last
            ? ({
                ...(typeof r.last === "string" ? JSON.parse(r.last) : r.last),
                at: new Date((r.last as unknown as { createdAt: string }).createdAt).toISOString(),
              } as SimMessage)
            : undefined,
        }),
      );
    },
    async chat(whatsappId, number) {
      const [row] = await db
        .select()
        .from(simulatorChats)
        .where(and(eq(simulatorChats.whatsappId, whatsappId), eq(simulatorChats.number, number)));
      return row ? { number: row.number, name: row.name, refused: row.refused } : undefined;
    },
    async setRefused(whatsappId, number, refused) {
      await db
        .update(simulatorChats)
        .set({ refused })
        .where(and(eq(simulatorChats.whatsappId, whatsappId), eq(simulatorChats.number, number)));
    },
    async addMessage(whatsappId, m) {
      const rows = await db
        .insert(simulatorMessages)
        .values({
          whatsappId,
          id: m.id,
          chat: m.chat,
          fromMe: m.fromMe,
          body: m.body,
          mediaType: m.mediaType,
          mimetype: m.mimetype ?? null,
          fileName: m.fileName ?? null,
          mediaFile: m.mediaFile ?? null,
          ack: m.ack,
          isDeleted: m.isDeleted,
          quotedId: m.quotedId ?? null,
          delivered: m.delivered,
          groupId: m.groupId ?? null,
          senderName: m.senderName ?? null,
          senderNumber: m.groupId ? (m.senderNumber ?? null) : null,
        })
        .onConflictDoNothing()
        .returning({ id: simulatorMessages.id });
      return rows.length > 0;
    },
    async addCustomerMessage(whatsappId, m, chatName) {
      // the chat's upsert as saveChat does it, and the message as addMessage does, in one statement (a load test's every message)
      const { rows } = await db.execute<{ id: string }>(sql`
        with c as (
          insert into simulator_chats (whatsapp_id, number, name) values (${whatsappId}, ${m.chat}, ${chatName ?? ""})
          on conflict (whatsapp_id, number) do update
            set ${chatName ? sql`name = excluded.name, ` : sql``}updated_at = now()
        )
        insert into simulator_messages (whatsapp_id, id, chat, from_me, body, media_type, mimetype, file_name, media_file, ack, is_deleted,
                                        quoted_id, delivered, group_id, sender_name, sender_number)
        values (${whatsappId}, ${m.id}, ${m.chat}, ${m.fromMe}, ${m.body}, ${m.mediaType}, ${m.mimetype ?? null}, ${m.fileName ?? null},
                ${m.mediaFile ?? null}, ${m.ack}, ${m.isDeleted}, ${m.quotedId ?? null}, ${m.delivered}, ${m.groupId ?? null},
                ${m.senderName ?? null}, ${m.groupId ? (m.senderNumber ?? null) : null})
        on conflict do nothing
        returning id`);
      return rows.length > 0;
    },
    async message(whatsappId, id) {
      const [row] = await db
        .select()
        .from(simulatorMessages)
        .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.id, id)));
      return row ? toSim(row) : undefined;
    },
    async messages(whatsappId, chat, limit = 500) {
      const rows = await db
        .select()
        .from(simulatorMessages)
        .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.chat, chat)))
        .orderBy(desc(simulatorMessages.seq))
        .limit(limit);
      return rows.reverse().map(toSim);
    },
    setDelivered: deliveredMarks(db),
    async undelivered(whatsappId) {
      const rows = await db
        .select()
        .from(simulatorMessages)
        .where(
          and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.fromMe, false), eq(simulatorMessages.delivered, false)),
        )
        .orderBy(asc(simulatorMessages.seq));
      return rows.map(toSim);
    },
    async raiseAck(whatsappId, id, ack) {
      const rows = await db
        .update(simulatorMessages)
        .set({ ack })
        .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.id, id), lt(simulatorMessages.ack, ack)))
        .returning({ id: simulatorMessages.id });
      return rows.length > 0;
    },
    async readAll(whatsappId, chat) {
      const rows = await db
        .update(simulatorMessages)
        .set({ ack: 3 })
        .where(
          and(
            eq(simulatorMessages.whatsappId, whatsappId),
            eq(simulatorMessages.chat, chat),
            eq(simulatorMessages.fromMe, true),
            eq(simulatorMessages.isDeleted, false),
            lt(simulatorMessages.ack, 3),
          ),
        )
        .returning({ id: simulatorMessages.id, seq: simulatorMessages.seq });
      return rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)).map((r) => r.id);
    },
    async markDeleted(whatsappId, id) {
      await db
        .update(simulatorMessages)
        .set({ isDeleted: true, body: "", mediaFile: null })
        .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.id, id)));
    },
    async saveMedia(data) {
      const file = randomBytes(16).toString("hex");
      await writeFile(join(dir, file), data, { mode: 0o600 });
      return file;
    },
    async readMedia(file) {
      if (!MEDIA_FILE.test(file)) return undefined;
      return readFile(join(dir, file)).catch(() => undefined);
    },
  };
}
