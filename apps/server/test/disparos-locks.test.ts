import pg from "pg";
import { describe, expect, it } from "vitest";
import { api } from "./conversation-kit.js";
import { sharedProcessApp, waitUntilBlocked } from "./lock-kit.js";

/**
 * A campaign created while the connection's send job runs, on PostgreSQL (PGlite has one
 * connection, so the two cannot interleave there). Creating a campaign (and every bulk action)
 * locks the connection's disparo settings and then queues the send job; the send run must take
 * the same two in the same order. Before, the run released its job's key first and then waited
 * for the settings: PostgreSQL found a deadlock and POST /disparos answered 500 (the crash test's
 * campaign creation failed on it in CI).
 */

const db = sharedProcessApp();

describe("a campaign created while its connection's send job runs (PostgreSQL)", () => {
  it("both commit: no deadlock, and the run ends done", async () => {
    const { t } = db;
    const created = await api(t, t.adminToken, "POST", "/whatsapp", { type: "simulator", name: "Campanha" });
    expect(created.status).toBe(200);
    const id = created.body.id as number;

    const creator = new pg.Client({ connectionString: db.url });
    const other = new pg.Client({ connectionString: db.url });
    await creator.connect();
    await other.connect();
    try {
      // what createDisparos does first: the connection's settings row, locked
      await creator.query("begin");
      await creator.query("insert into disparo_settings (whatsapp_id) values ($1) on conflict do nothing", [id]);
      await creator.query("select 1 from disparo_settings where whatsapp_id = $1 for update", [id]);
      const { rows: pidRow } = await creator.query<{ pid: number }>("select pg_backend_pid() as pid");

      // the connection's send job, due now (committed apart): the app's runner takes it at its next look
      const { rows: job } = await other.query<{ id: number }>(
        `insert into jobs (name, payload, run_at, max_attempts, singleton_key)
         values ('disparos.send', $1::jsonb, now(), 5, $2) returning id`,
        [JSON.stringify({ whatsappId: id }), `disparos:${id}`],
      );
      const jobId = Number(job[0].id);

      // the run is now waiting for the settings row (an event: its lock wait on this transaction)
      if (!(await waitUntilBlocked(other, pidRow[0].pid, { like: "disparo_settings", timeoutMs: 60_000 })))
        throw new Error("the send run never waited for the settings row");

      // the campaign queues the send job (wakeJob) and commits: this must not wait on the run
      await creator.query(
        `insert into jobs (name, payload, run_at, max_attempts, singleton_key)
         values ('disparos.send', $1::jsonb, now(), 5, $2)
         on conflict (singleton_key) where state in ('queued', 'running')
         do update set run_at = least(jobs.run_at, excluded.run_at), updated_at = now() where jobs.state = 'queued'`,
        [JSON.stringify({ whatsappId: id }), `disparos:${id}`],
      );
      await creator.query("commit");

      // the run goes on after the commit and ends done, at its first attempt
      let state: { state: string; attempts: number; last_error: string | null } | undefined;
      for (let i = 0; i < 3000; i++) {
        const { rows } = await other.query("select state, attempts, last_error from jobs where id = $1", [jobId]);
        state = rows[0];
        if (state?.state === "done" || state?.state === "dead" || state?.last_error) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(state).toEqual({ state: "done", attempts: 1, last_error: null });
    } finally {
      await creator.end();
      await other.end();
    }
  }, 120_000);
});
