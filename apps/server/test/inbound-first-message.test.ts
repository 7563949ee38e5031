import pg from "pg";
import { describe, expect, it } from "vitest";
import { createQueue, customerSays, pairedSimulator } from "./conversation-kit.js";
import { sharedProcessApp, waitUntilBlocked } from "./lock-kit.js";

/**
 * The first message of someone unknown is stored in one statement (the contact, its ticket routed at
 * birth, the history, the message). When the contact is created elsewhere meanwhile (another
 * process, an import, an agent), that statement writes nothing and the message goes through the
 * transaction, onto the contact that now exists. On PostgreSQL: a client of the test holds the new
 * contact's row uncommitted while the app stores the message (PGlite has one connection, so the two
 * cannot interleave there).
 */

const db = sharedProcessApp();

describe("someone unknown writes while their contact is being created elsewhere (PostgreSQL)", () => {
  it("the message joins the contact created meanwhile: one contact, one routed ticket, its history once", async () => {
    const { t } = db;
    const support = await createQueue(t, "Suporte");
    const single = await pairedSimulator(t, { name: "Single", queueIds: [support] });
    const number = "5511987650001";

    const holder = new pg.Client({ connectionString: db.url });
    const watcher = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await watcher.connect();
    try {
      await holder.query("begin");
      const { rows: made } = await holder.query<{ id: number }>(
        "insert into contacts (name, number) values ('Maria do cadastro', $1) returning id",
        [number],
      );
      const { rows: pidRow } = await holder.query<{ pid: number }>("select pg_backend_pid() as pid");

      let settled = false;
      const said = customerSays(t, single, number, "oi, minha internet caiu").finally(() => {
        settled = true;
      });
      // the app's insert of the contact now waits for this transaction (an event: its lock wait)
      const waited = await waitUntilBlocked(watcher, pidRow[0].pid, {
        like: "insert into contacts",
        timeoutMs: 60_000,
        stop: () => settled,
      });
      expect(waited).toBe(true);
      await holder.query("commit");
      await said;

      const contacts = await watcher.query("select id, name from contacts where number = $1", [number]);
      expect(contacts.rows).toEqual([{ id: made[0].id, name: "Maria do cadastro" }]);
      const tickets = await watcher.query("select id, status, queue_id, unread_messages, last_message from tickets where contact_id = $1", [
        made[0].id,
      ]);
      expect(tickets.rows).toHaveLength(1);
      expect(tickets.rows[0]).toMatchObject({
        status: "pending",
        queue_id: support,
        unread_messages: 1,
        last_message: "oi, minha internet caiu",
      });
      const ticketId = tickets.rows[0].id;
      const messages = await watcher.query("select body, contact_id from messages where ticket_id = $1", [ticketId]);
      expect(messages.rows).toEqual([{ body: "oi, minha internet caiu", contact_id: made[0].id }]);
      const history = await watcher.query(
        "select reason, actor, to_status, queue_id from ticket_history where ticket_id = $1 order by id",
        [ticketId],
      );
      expect(history.rows).toEqual([
        { reason: "create", actor: "customer", to_status: "pending", queue_id: null },
        { reason: "queue", actor: "bot", to_status: "pending", queue_id: support },
      ]);
      // the journal row of the message is done
      const journal = await watcher.query("select count(*)::int as n from inbound_events where state <> 'done'");
      expect(journal.rows[0].n).toBe(0);
    } finally {
      await holder.end();
      await watcher.end();
    }
  }, 120_000);
});
