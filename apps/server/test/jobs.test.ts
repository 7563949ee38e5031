import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueJob, JobRunner } from "../src/jobs/runner.js";
import { jobsOfGoneProcesses } from "../src/lib/cluster/ownership.js";
import { api, createQueue, customerSays, eventually, pairedSimulator, phoneOf, settle } from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { createTestApp, type TestApp } from "./helpers.js";

/** The one job runner, on a fake clock: due jobs once, retries with backoff, dead jobs listed, leases, transactional enqueue. */

let t: TestApp;
const fake = fakeClock(Date.now());

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.teardown());

function runner(opts: { concurrency?: number } = {}) {
  return new JobRunner(t.ctx, { clock: fake.clock, pollMs: 60_000, leaseMs: 30_000, backoffMs: (n) => 10_000 * n, ...opts });
}

const stateOf = async (id: number | undefined) =>
  (
    await t.ctx.db.execute<{ state: string; attempts: number; last_error: string | null }>(
      sql`select state, attempts, last_error from jobs where id = ${id}`,
    )
  ).rows[0];

describe("the job runner", () => {
  it("a job due at a time runs when the clock reaches it, once, even with two runners racing", async () => {
    const ran: number[] = [];
    const a = runner();
    const b = runner();
    for (const r of [a, b]) r.register<{ n: number }>("test.due", async ({ n }) => void ran.push(n));
    const due = new Date(fake.at() + 60_000);
    for (let n = 0; n < 40; n++) await enqueueJob(t.ctx.db, "test.due", { n }, { runAt: due });
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    expect(ran).toEqual([]);
    fake.advance(60_000);
    for (let i = 0; i < 10 && ran.length < 40; i++) {
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.idle(), b.idle()]);
    }
    expect(ran.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it("a tick while every slot is busy does not stop the runner: the next job still runs and idle() ends", async () => {
    const r = runner({ concurrency: 1 });
    const ran: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((res) => {
      release = res;
    });
    r.register<{ n: string }>("test.busy", async ({ n }) => {
      ran.push(n);
      if (n === "first") await held;
    });
    await r.enqueue("test.busy", { n: "first" }, { runAt: new Date(fake.at()) });
    await r.tick();
    expect(ran).toEqual(["first"]);
    // the only slot is taken: this tick finds nothing to do and ends at once
    await r.enqueue("test.busy", { n: "second" }, { runAt: new Date(fake.at()) });
    expect(await r.tick()).toBe(0);
    release();
    // the freed slot wakes the runner, which claims the second job (polled without idle(), which
    // spun forever on the stuck runner this test pins)
    for (const end = Date.now() + 15_000; Date.now() < end && !ran.includes("second"); ) {
      await r.tick();
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(ran).toEqual(["first", "second"]);
    await r.idle();
  });

  it("a failing job is tried again with backoff, then dead with its last error, listed for admins", async () => {
    const r = runner();
    let calls = 0;
    r.register("test.flaky", async () => {
      calls++;
      throw new Error(`billing system down (${calls})`);
    });
    const id = await r.enqueue("test.flaky", {}, { maxAttempts: 3, runAt: new Date(fake.at()) });
    await r.tick();
    await r.idle();
    expect(await stateOf(id)).toEqual({ state: "queued", attempts: 1, last_error: "billing system down (1)" });
    await r.tick();
    await r.idle();
    expect(calls).toBe(1);
    fake.advance(10_000);
    await r.tick();
    await r.idle();
    expect(await stateOf(id)).toMatchObject({ state: "queued", attempts: 2 });
    fake.advance(20_000);
    await r.tick();
    await r.idle();
    expect(await stateOf(id)).toEqual({ state: "dead", attempts: 3, last_error: "billing system down (3)" });
    const jobs = await api(t, t.adminToken, "GET", "/jobs");
    expect(jobs.body.dead).toContainEqual(
      expect.objectContaining({ id, name: "test.flaky", attempts: 3, lastError: "billing system down (3)" }),
    );
  });

  it("a job whose runner died is taken again when its lease ends", async () => {
    const id = await enqueueJob(t.ctx.db, "test.lease", {}, { runAt: new Date(fake.at()) });
    // a runner claimed it, then its process was killed
    await t.ctx.db.execute(
      sql`update jobs set state = 'running', attempts = 1, lease_until = ${new Date(fake.at() + 30_000).toISOString()}::timestamptz where id = ${id}`,
    );
    const r = runner();
    let ran = 0;
    r.register("test.lease", async () => void ran++);
    await r.tick();
    await r.idle();
    expect(ran).toBe(0);
    fake.advance(30_001);
    await r.tick();
    await r.idle();
    expect(ran).toBe(1);
    expect(await stateOf(id)).toMatchObject({ state: "done", attempts: 2 });
  });

  it("a job queued for 50 ms from now runs then (wakeAt), not at the next poll a minute later", async () => {
    const r = runner();
    const ranAt: number[] = [];
    r.register("test.paced", async () => void ranAt.push(fake.at()));
    await r.start();
    fake.advance(1);
    await r.idle();
    const due = fake.at() + 50;
    await enqueueJob(t.ctx.db, "test.paced", {}, { runAt: new Date(due) });
    r.wakeAt(due);
    fake.advance(49);
    await r.idle();
    expect(ranAt).toEqual([]);
    fake.advance(1);
    await r.idle();
    expect(ranAt).toEqual([due]);
    await r.stop();
  });

  it("several processes: a running job of a process that is gone is taken again at once, one of a live process waits for its lease", async () => {
    await t.ctx.db.execute(sql`
      insert into cluster_processes (id, seen_at) values ('host:1:gone', now() - interval '1 hour'), ('host:2:alive', now())
      on conflict (id) do update set seen_at = excluded.seen_at`);
    const lease = new Date(fake.at() + 30_000).toISOString();
    const ofGone = await enqueueJob(t.ctx.db, "test.orphan", { of: "gone" }, { runAt: new Date(fake.at()), singletonKey: "orphan:gone" });
    const ofAlive = await enqueueJob(
      t.ctx.db,
      "test.orphan",
      { of: "alive" },
      { runAt: new Date(fake.at()), singletonKey: "orphan:alive" },
    );
    // each was claimed by its process; the first process was then SIGKILLed (its heartbeat stopped an hour ago)
    await t.ctx.db.execute(sql`
      update jobs set state = 'running', attempts = 1, lease_until = ${lease}::timestamptz,
             locked_by = case when id = ${ofGone} then 'host:1:gone' else 'host:2:alive' end
      where id in (${ofGone}, ${ofAlive})`);
    // the singleton key is still held: a wake of that work is ignored while the dead run holds it
    expect(await enqueueJob(t.ctx.db, "test.orphan", { of: "gone" }, { singletonKey: "orphan:gone" })).toBeUndefined();
    const r = new JobRunner(t.ctx, {
      clock: fake.clock,
      pollMs: 60_000,
      leaseMs: 30_000,
      processId: "host:3:new",
      orphaned: jobsOfGoneProcesses(15_000),
    });
    const ran: string[] = [];
    r.register<{ of: string }>("test.orphan", async (p) => void ran.push(p.of));
    await r.tick();
    await r.idle();
    expect(ran).toEqual(["gone"]);
    expect(await stateOf(ofGone)).toMatchObject({ state: "done", attempts: 2 });
    expect(await stateOf(ofAlive)).toMatchObject({ state: "running", attempts: 1 });
    await t.ctx.db.execute(sql`update jobs set state = 'done' where id = ${ofAlive}`);
  });

  it("a run that was claimed again meanwhile (its process stalled) does not record its outcome: the newer run's stands, no third run", async () => {
    await t.ctx.db.execute(sql`
      insert into cluster_processes (id, seen_at) values ('host:4:stalled', now()), ('host:5:alive', now())
      on conflict (id) do update set seen_at = excluded.seen_at`);
    const id = await enqueueJob(t.ctx.db, "test.fenced", {}, { runAt: new Date(fake.at()) });
    const ran: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((res) => {
      release = res;
    });
    const a = new JobRunner(t.ctx, {
      clock: fake.clock,
      pollMs: 60_000,
      leaseMs: 30_000,
      backoffMs: () => 10_000,
      processId: "host:4:stalled",
    });
    a.register("test.fenced", async () => {
      ran.push("a");
      await held;
      throw new Error("the stalled run failed at its end");
    });
    await a.tick();
    expect(ran).toEqual(["a"]);
    // A's process stops answering (its heartbeat is stale): B takes the job over and finishes it
    await t.ctx.db.execute(sql`update cluster_processes set seen_at = now() - interval '1 hour' where id = 'host:4:stalled'`);
    const b = new JobRunner(t.ctx, {
      clock: fake.clock,
      pollMs: 60_000,
      leaseMs: 30_000,
      processId: "host:5:alive",
      orphaned: jobsOfGoneProcesses(15_000),
    });
    b.register("test.fenced", async () => void ran.push("b"));
    await b.tick();
    await b.idle();
    expect(await stateOf(id)).toMatchObject({ state: "done", attempts: 2, last_error: null });
    // A wakes up and its run fails: that must not queue the job again over B's outcome
    release();
    await a.idle();
    expect(await stateOf(id)).toMatchObject({ state: "done", attempts: 2, last_error: null });
    fake.advance(60_000);
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    expect(ran).toEqual(["a", "b"]);
  });

  it("a job that runs longer than its lease keeps it while its process works on it: no second run elsewhere", async () => {
    const id = await enqueueJob(t.ctx.db, "test.long", {}, { runAt: new Date(fake.at()) });
    const ran: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((res) => {
      release = res;
    });
    const a = runner();
    a.register("test.long", async () => {
      ran.push("a");
      await held;
    });
    const b = runner();
    b.register("test.long", async () => void ran.push("b"));
    const claimedAt = fake.at();
    await a.tick();
    const leaseUntil = async () =>
      new Date(
        (await t.ctx.db.execute<{ lease_until: string | Date }>(sql`select lease_until from jobs where id = ${id}`)).rows[0].lease_until,
      ).getTime();
    expect(await leaseUntil()).toBe(claimedAt + 30_000);
    // the lease (30 s) is renewed every 10 s while the run goes on
    for (const step of [10_000, 20_000]) {
      fake.advance(10_000);
      await eventually(async () => (await leaseUntil()) === claimedAt + step + 30_000, `the lease renewed at ${step} ms`);
    }
    fake.advance(15_000); // 35 s after the claim: past the first lease
    await b.tick();
    await b.idle();
    expect(ran).toEqual(["a"]);
    release();
    await a.idle();
    expect(await stateOf(id)).toMatchObject({ state: "done", attempts: 1 });
    expect(ran).toEqual(["a"]);
  });

  it("a job queued in a transaction that rolls back never exists; a singleton key keeps one queued job", async () => {
    await t.ctx.db
      .transaction(async (tx) => {
        await enqueueJob(tx, "test.rollback", {});
        throw new Error("the business write failed");
      })
      .catch(() => undefined);
    expect((await t.ctx.db.execute(sql`select id from jobs where name = 'test.rollback'`)).rows).toHaveLength(0);
    const first = await enqueueJob(t.ctx.db, "test.single", {}, { singletonKey: "schedule:7" });
    const second = await enqueueJob(t.ctx.db, "test.single", {}, { singletonKey: "schedule:7" });
    expect(first).toBeTypeOf("number");
    expect(second).toBeUndefined();
  });

  it("auto-close runs on the app's runner: an idle open ticket is closed, with a history row and the farewell", async () => {
    const queue = await createQueue(t, "Suporte");
    const sim = await pairedSimulator(t, { queueIds: [queue], farewellMessage: "Até logo!" });
    await customerSays(t, sim, "5511950000001", "oi");
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = '5511950000001'`,
    );
    const id = rows[0].id;
    await api(t, t.adminToken, "PUT", `/tickets/${id}`, { status: "open" });
    await t.ctx.db.execute(sql`update tickets set updated_at = now() - interval '25 hours' where id = ${id}`);
    // the recurring job comes due
    await t.ctx.db.execute(sql`update jobs set run_at = now() - interval '1 second' where name = 'tickets.autoClose' and state = 'queued'`);
    await t.jobs.tick();
    await t.jobs.idle();
    await settle(t);
    expect((await api(t, t.adminToken, "GET", `/tickets/${id}`)).body.status).toBe("closed");
    const history = await t.ctx.db.execute<{ reason: string; actor: string; from_status: string; to_status: string }>(
      sql`select reason, actor, from_status, to_status from ticket_history where ticket_id = ${id} order by id`,
    );
    expect(history.rows.map((h) => `${h.reason}:${h.actor}:${h.from_status}->${h.to_status}`)).toEqual([
      "create:customer:null->pending",
      // the connection's only queue, assigned by the queue step
      "queue:bot:pending->pending",
      "accept:user:pending->open",
      "autoClose:system:open->closed",
    ]);
    expect((await phoneOf(sim, "5511950000001")).at(-1)?.body).toBe("Até logo!");
    // and the next run is queued
    const next = await t.ctx.db.execute(sql`select id from jobs where name = 'tickets.autoClose' and state = 'queued'`);
    expect(next.rows).toHaveLength(1);
  });
});
