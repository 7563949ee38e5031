import { type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../context.js";
import type { DbOrTx } from "../db/client.js";
import { type Clock, realClock } from "../lib/pace.js";

/**
 * The one job runner: background work as rows of the `jobs` table. Due rows are claimed with
 * FOR UPDATE SKIP LOCKED and a lease (several processes never run one job twice; a crashed
 * runner's job is taken again when its lease ends); a failed attempt is retried with backoff
 * until its `maxAttempts`, then the job is dead with its last error, listed for admins. Jobs can
 * be queued inside the caller's transaction, so the work and the change that asks for it commit
 * together. Recurring jobs (auto-close, clean-ups) keep one queued row each.
 *
 * pg-boss was evaluated first (see docs/architecture.md): this runner is kept for transactional
 * enqueue on both engines, an injectable clock for tests, and a start-up that adds no schema of
 * its own beyond one table.
 */

export interface JobRow {
  id: number;
  name: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

export type JobHandler = (payload: never, job: JobRow) => Promise<void>;

export interface EnqueueOptions {
  /** when it is due (default: now) */
  runAt?: Date;
  maxAttempts?: number;
  /** at most one queued or running job per key: a second enqueue with the key is ignored */
  singletonKey?: string;
}

export interface RunnerOptions {
  clock?: Clock;
  /** how often due jobs are looked for when nobody wakes the runner */
  pollMs?: number;
  leaseMs?: number;
  /** jobs run at once by this process */
  concurrency?: number;
  backoffMs?: (attempts: number) => number;
  /** this process's id, kept on the jobs it runs (several processes: start-up re-queues only the runs of dead ones) */
  processId?: string;
  /**
   * Several processes: running jobs of processes that are gone (a predicate on the `jobs` row).
   * They are taken again at once, not at their lease's end: a SIGKILLed process's send run would
   * otherwise hold its singleton key, and with it every wake of that work, for the whole lease.
   */
  orphaned?: SQL;
}

export const defaultJobBackoff = (attempts: number) => Math.min(3_600_000, 5000 * 4 ** (attempts - 1));

/** Queues a job in the given transaction (or the database); answers its id, or undefined when its singleton key is taken. */
export async function enqueueJob(db: DbOrTx, name: string, payload: unknown = {}, opts: EnqueueOptions = {}): Promise<number | undefined> {
  const { rows } = await db.execute<{ id: number | string }>(sql`
    insert into jobs (name, payload, run_at, max_attempts, singleton_key)
    values (${name}, ${JSON.stringify(payload ?? {})}::jsonb, ${(opts.runAt ?? new Date()).toISOString()}::timestamptz,
            ${opts.maxAttempts ?? 5}, ${opts.singletonKey ?? null})
    on conflict do nothing
    returning id`);
  return rows[0] ? Number(rows[0].id) : undefined;
}

/**
 * Inside a running job's own transaction: frees its singleton key, so the next run of the same work
 * can be queued (by this run or by a wake) while this one finishes; it commits with the run's work.
 * It writes the job's row, so call it AFTER the rows that the work's queuers lock before queueing it
 * (a connection's disparo settings, a schedule's row): taken the other way round, a queuer holding
 * its row and waiting on the job's key deadlocks with the run (POST /disparos answered 500 so).
 */
export async function releaseOwnKey(tx: DbOrTx, jobId: number): Promise<void> {
  await tx.execute(sql`update jobs set singleton_key = null where id = ${jobId} and singleton_key is not null`);
}

/**
 * Queues a singleton job for `runAt`, or moves an already queued one earlier (never later: the run
 * decides again, and queues itself for later when it must). A running one is left alone (it will
 * look again). The queue-or-wake of a piece of work that one job serves (a connection's disparos,
 * an incident's notices).
 */
export async function queueOrMoveEarlier(
  db: DbOrTx,
  name: string,
  payload: unknown,
  opts: { singletonKey: string; runAt: Date; maxAttempts?: number },
): Promise<void> {
  await db.execute(sql`
    insert into jobs (name, payload, run_at, max_attempts, singleton_key)
    values (${name}, ${JSON.stringify(payload ?? {})}::jsonb, ${opts.runAt.toISOString()}::timestamptz, ${opts.maxAttempts ?? 5}, ${opts.singletonKey})
    on conflict (singleton_key) where state in ('queued', 'running')
    do update set run_at = least(jobs.run_at, excluded.run_at), updated_at = now() where jobs.state = 'queued'`);
}

/** Removes the queued (not yet running) jobs of these singleton keys; answers how many. */
export async function cancelQueued(db: DbOrTx, singletonKeys: readonly string[]): Promise<number> {
  if (!singletonKeys.length) return 0;
  const { rows } = await db.execute(sql`
    delete from jobs where state = 'queued' and singleton_key in (${sql.join(
      singletonKeys.map((k) => sql`${k}`),
      sql`, `,
    )}) returning id`);
  return rows.length;
}

/**
 * Moves the queued jobs of `name` whose singleton key is one of `singletonKeys` (a subquery of the
 * caller's rows, e.g. the due schedules of a connection) to `at` when they were due later; answers
 * how many moved.
 */
export async function moveQueuedEarlier(db: DbOrTx, name: string, singletonKeys: SQL, at: Date): Promise<number> {
  const iso = at.toISOString();
  const { rows } = await db.execute(sql`
    update jobs set run_at = ${iso}::timestamptz, updated_at = now()
    where name = ${name} and state = 'queued' and run_at > ${iso}::timestamptz and singleton_key in (${singletonKeys})
    returning id`);
  return rows.length;
}

/** Deletes finished jobs older than `days` (the system's clean-up); answers how many. */
export async function pruneDoneJobs(db: DbOrTx, days = 1): Promise<number> {
  const { rows } = await db.execute(sql`
    delete from jobs where state = 'done' and updated_at < now() - make_interval(days => ${days}) returning id`);
  return rows.length;
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly recurring = new Map<string, number>();
  private readonly clock: Clock;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly backoffMs: (attempts: number) => number;
  private readonly processId: string | null;
  private readonly orphaned?: SQL;
  private cancelTimer?: () => void;
  private ticking?: Promise<number>;
  private again = false;
  /** when the pending timer fires */
  private timerAt = Number.POSITIVE_INFINITY;
  /** the earliest time a wake asked for, not yet looked at */
  private soonest = Number.POSITIVE_INFINITY;
  private stopped = true;
  private readonly active = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    opts: RunnerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.pollMs = opts.pollMs ?? 1000;
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.concurrency = opts.concurrency ?? 4;
    this.backoffMs = opts.backoffMs ?? defaultJobBackoff;
    this.processId = opts.processId ?? null;
    this.orphaned = opts.orphaned;
  }

  /** What runs jobs of a name. */
  register<P>(name: string, handler: (payload: P, job: JobRow) => Promise<void>): void {
    this.handlers.set(name, handler as JobHandler);
  }

  /** A job that runs every `everyMs` (its next run is queued when one ends, whatever its outcome). */
  every<P>(name: string, everyMs: number, handler: (payload: P, job: JobRow) => Promise<void>): void {
    this.register(name, handler);
    this.recurring.set(name, everyMs);
  }

  enqueue(name: string, payload: unknown = {}, opts: EnqueueOptions = {}, db: DbOrTx = this.ctx.db): Promise<number | undefined> {
    return enqueueJob(db, name, payload, opts).then((id) => {
      if (db === this.ctx.db) this.wake();
      return id;
    });
  }

  async start(): Promise<void> {
    this.stopped = false;
    for (const [name, every] of this.recurring) {
      await enqueueJob(this.ctx.db, name, {}, { singletonKey: `every:${name}`, runAt: new Date(this.clock.now() + every), maxAttempts: 1 });
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    await this.ticking;
    await Promise.all([...this.active]);
  }

  /** Something was queued: look now instead of at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /**
   * Something was queued for `at` (a paced run due in 20 ms, or in 3 s): look then, when that is
   * before the next poll. Without it a paced chain ran at the poll's pace, whatever its own.
   */
  wakeAt(at: number): void {
    if (this.stopped) return;
    if (at <= this.clock.now()) {
      this.wake();
      return;
    }
    if (at < this.soonest) this.soonest = at;
    if (!this.ticking && at < this.timerAt) this.schedule(at - this.clock.now());
  }

  /** Resolves when no job is running (tests). */
  async idle(): Promise<void> {
    while (this.ticking || this.active.size) {
      await this.ticking;
      await Promise.all([...this.active]);
    }
  }

  private schedule(ms: number) {
    this.cancelTimer?.();
    this.timerAt = this.clock.now() + ms;
    this.cancelTimer = this.clock.setTimer(() => {
      this.timerAt = Number.POSITIVE_INFINITY;
      void this.tick();
    }, ms);
  }

  /** The next poll, or sooner when a wake asked for an earlier time. */
  private scheduleNext() {
    const now = this.clock.now();
    const soonest = this.soonest;
    this.soonest = Number.POSITIVE_INFINITY;
    this.schedule(soonest > now ? Math.min(this.pollMs, soonest - now) : soonest === Number.POSITIVE_INFINITY ? this.pollMs : 0);
  }

  /**
   * Claims the due jobs this process may run now and runs them; answers how many it started.
   * Tests with a fake clock call it after moving the clock.
   */
  tick(): Promise<number> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    // set before its end is handled: a tick with no free slot ends at once, and its `finally` (always
    // a later microtask) must find and clear it — cleared first and set after, it stayed forever and
    // the runner never claimed again (and idle() spun)
    // this tick looks at everything due now, what a wake asked for included
    if (this.soonest <= this.clock.now()) this.soonest = Number.POSITIVE_INFINITY;
    const ticking = this.claimAndRun().finally(() => {
      this.ticking = undefined;
      if (this.stopped) return;
      // a wake between the loop's last look and this callback only set `again`: look now, not at the poll
      if (this.again) {
        this.again = false;
        this.schedule(0);
      } else this.scheduleNext();
    });
    this.ticking = ticking;
    return ticking;
  }

  private async claimAndRun(): Promise<number> {
    let started = 0;
    try {
      do {
        this.again = false;
        const free = this.concurrency - this.active.size;
        if (free <= 0 || this.handlers.size === 0) break;
        const jobs = await this.claim(free);
        for (const job of jobs) {
          const run: Promise<void> = this.run(job).finally(() => {
            this.active.delete(run);
            // a slot is free: more may be due
            if (!this.stopped) this.wake();
          });
          this.active.add(run);
        }
        started += jobs.length;
        if (jobs.length === free) this.again = true;
      } while (this.again && !this.stopped);
    } catch (err) {
      this.ctx.log.error({ err }, "job runner: claiming jobs failed");
    }
    return started;
  }

  private async claim(limit: number): Promise<JobRow[]> {
    const now = new Date(this.clock.now()).toISOString();
    const names = sql.join(
      [...this.handlers.keys()].map((n) => sql`${n}`),
      sql`, `,
    );
    const { rows } = await this.ctx.db.execute<{
      id: number | string;
      name: string;
      payload: unknown;
      attempts: number;
      max_attempts: number;
    }>(sql`
      with due as (
        select id from jobs
        where state in ('queued', 'running') and run_at <= ${now}::timestamptz and name in (${names})
          and (state = 'queued' or lease_until < ${now}::timestamptz${
            this.orphaned ? sql` or (locked_by is distinct from ${this.processId} and ${this.orphaned})` : sql``
          })
        order by run_at, id
        limit ${limit}
        for update skip locked
      )
      update jobs set state = 'running', attempts = jobs.attempts + 1, locked_by = ${this.processId},
             lease_until = ${new Date(this.clock.now() + this.leaseMs).toISOString()}::timestamptz, updated_at = now()
      from due where jobs.id = due.id
      returning jobs.id, jobs.name, jobs.payload, jobs.attempts, jobs.max_attempts`);
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload,
      attempts: r.attempts,
      maxAttempts: r.max_attempts,
    }));
  }

  /**
   * While a job runs, its lease is renewed every third of its length: a run longer than the lease
   * (a slow billing system, a long import) is not taken again by another process while this one is
   * alive and still working on it. A renewal that finds the row claimed again stops renewing.
   */
  private keepLease(job: JobRow): { stop(): void } {
    let stopped = false;
    let cancel: (() => void) | undefined;
    const every = Math.max(1, Math.floor(this.leaseMs / 3));
    const renew = async () => {
      const until = new Date(this.clock.now() + this.leaseMs).toISOString();
      const { rows } = await this.ctx.db.execute(
        sql`update jobs set lease_until = ${until}::timestamptz where ${claimOf(job)} returning id`,
      );
      if (!rows.length) {
        stopped = true;
        this.lostClaim(job);
      }
    };
    const next = () => {
      cancel = this.clock.setTimer(() => {
        if (stopped) return;
        void renew()
          .catch((err) => this.ctx.log.warn({ err, jobId: job.id }, "job runner: renewing a lease failed"))
          .finally(() => {
            if (!stopped) next();
          });
      }, every);
    };
    next();
    return {
      stop() {
        stopped = true;
        cancel?.();
      },
    };
  }

  /** This run's job was claimed again meanwhile (this process stalled past its lease): the newer run's outcome stands. */
  private lostClaim(job: JobRow) {
    this.ctx.log.warn(
      { job: job.name, jobId: job.id, attempts: job.attempts },
      "job runner: the job was claimed again while this run went on; its outcome is not recorded",
    );
  }

  private async run(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.name);
    const lease = this.keepLease(job);
    try {
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      await handler(job.payload as never, job);
      const { rows } = await this.ctx.db.execute(
        sql`update jobs set state = 'done', lease_until = null, last_error = null, updated_at = now() where ${claimOf(job)} returning id`,
      );
      if (!rows.length) this.lostClaim(job);
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
      const dead = job.attempts >= job.maxAttempts;
      const runAt = new Date(this.clock.now() + this.backoffMs(job.attempts)).toISOString();
      const recorded = await this.ctx.db
        .execute(sql`
          update jobs set state = ${dead ? "dead" : "queued"}, lease_until = null, last_error = ${message},
                 run_at = ${dead ? sql`run_at` : sql`${runAt}::timestamptz`}, updated_at = now()
          where ${claimOf(job)} returning id`)
        .then(
          (r) => r.rows.length > 0,
          (e) => {
            this.ctx.log.error({ err: e, jobId: job.id }, "job runner: recording a failure failed");
            return true;
          },
        );
      if (!recorded) this.lostClaim(job);
      else
        this.ctx.log[dead ? "error" : "warn"](
          { err, job: job.name, jobId: job.id, attempts: job.attempts },
          dead ? "job failed for good" : "job failed; it will be tried again",
        );
    } finally {
      lease.stop();
      const every = this.recurring.get(job.name);
      if (every !== undefined && !this.stopped) {
        await enqueueJob(
          this.ctx.db,
          job.name,
          {},
          { singletonKey: `every:${job.name}`, runAt: new Date(this.clock.now() + every), maxAttempts: 1 },
        ).catch((e) => this.ctx.log.error({ err: e, job: job.name }, "job runner: queueing the next run failed"));
      }
    }
  }
}

/**
 * The row of a job as this run claimed it. Every claim adds one to `attempts`: a row still running
 * with this run's attempt was not claimed again since (by another process, after this one's lease
 * ended or its heartbeat stopped). A run's outcome and its lease renewals are written only then.
 */
function claimOf(job: JobRow): SQL {
  return sql`id = ${job.id} and state = 'running' and attempts = ${job.attempts}`;
}

/** Jobs for the admins' view: the dead ones with their last error, and how many wait. */
export async function jobsOverview(db: DbOrTx, limit = 100) {
  const [{ rows: dead }, { rows: counts }] = await Promise.all([
    db.execute<{ id: number; name: string; attempts: number; last_error: string | null; payload: unknown; updated_at: string | Date }>(sql`
      select id, name, attempts, last_error, payload, updated_at from jobs where state = 'dead' order by updated_at desc limit ${limit}`),
    db.execute<{ state: string; n: number }>(sql`select state, count(*)::int as n from jobs group by state`),
  ]);
  return {
    counts: Object.fromEntries(counts.map((c) => [c.state, Number(c.n)])) as Record<string, number>,
    dead: dead.map((d) => ({
      id: Number(d.id),
      name: d.name,
      attempts: d.attempts,
      lastError: d.last_error ?? "",
      payload: typeof d.payload === "string" ? JSON.parse(d.payload) : d.payload,
      updatedAt: new Date(d.updated_at).toISOString(),
    })),
  };
}
