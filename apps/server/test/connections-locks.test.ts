import pg from "pg";
import { describe, expect, it } from "vitest";
import { api } from "./conversation-kit.js";
import { sharedProcessApp, waitUntilBlocked } from "./lock-kit.js";

/**
 * Saving a connection while its session reports a status, on PostgreSQL (PGlite has one
 * connection, so the two cannot interleave there): the status change holds the number's health
 * row and records an event that references the connection; the save locks the connection and then
 * writes the health row. Both must finish — before, PostgreSQL found a deadlock and the save
 * answered 500 (the crash test's pairing step failed on it in CI).
 */

const db = sharedProcessApp();

describe("a connection saved while its status changes (PostgreSQL)", () => {
  it("both the save and the status change commit: no deadlock", async () => {
    const { t } = db;
    const created = await api(t, t.adminToken, "POST", "/whatsapp", { type: "simulator", name: "Travada" });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    // its session starts and shows a QR code (that status change recorded) before the test begins
    for (let shown = created.body, i = 0; !(shown.status === "qrcode" && shown.qrcode); i++) {
      if (i > 1500) throw new Error("the session never showed its QR code");
      await new Promise((r) => setTimeout(r, 20));
      shown = (await api(t, t.adminToken, "GET", `/whatsapp/${id}`)).body;
    }
    await eventuallyRecorded(db.url, id);

    const status = new pg.Client({ connectionString: db.url });
    await status.connect();
    try {
      // what health/service.ts statusChanged does first: the health row, locked
      await status.query("begin");
      await status.query("insert into connection_health (whatsapp_id) values ($1) on conflict do nothing", [id]);
      await status.query("select 1 from connection_health where whatsapp_id = $1 for update", [id]);
      const { rows: pidRow } = await status.query<{ pid: number }>("select pg_backend_pid() as pid");

      let settled = false;
      const save = api(t, t.adminToken, "PUT", `/whatsapp/${id}`, { warmupEnabled: false, name: "Destravada" }).finally(() => {
        settled = true;
      });
      // the save is now waiting for the health row (an event: its lock wait on this transaction shows in
      // pg_stat_activity). A loaded machine may hold the save elsewhere first (the app's pool busy with
      // work waiting on the same row): after 30 s the status change goes on, and the save must still end well
      await waitUntilBlocked(status, pidRow[0].pid, { like: "connection_health", timeoutMs: 30_000, stop: () => settled });
      expect(settled).toBe(false);
      // the status change records its event (a row referencing the connection) and commits
      await status.query("insert into connection_events (whatsapp_id, kind, status, reason) values ($1, 'status', 'CONNECTED', '')", [id]);
      await status.query("commit");

      const saved = await save;
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.name).toBe("Destravada");
      const { rows } = await status.query("select warmup_enabled from connection_health where whatsapp_id = $1", [id]);
      expect(rows[0].warmup_enabled).toBe(false);
      const { rows: events } = await status.query(
        "select count(*)::int as n from connection_events where whatsapp_id = $1 and status = 'CONNECTED'",
        [id],
      );
      expect(events[0].n).toBeGreaterThan(0);
    } finally {
      await status.end();
    }
  }, 120_000);
});

/** Waits until the session's QR status is recorded in the number's events (nothing else in flight). */
async function eventuallyRecorded(url: string, id: number) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (let i = 0; i < 500; i++) {
      const { rows } = await c.query("select count(*)::int as n from connection_events where whatsapp_id = $1 and status = 'qrcode'", [id]);
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the QR status was never recorded");
  } finally {
    await c.end();
  }
}
