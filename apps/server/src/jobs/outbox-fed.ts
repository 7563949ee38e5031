import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.js";
import type { EventBus } from "../lib/events.js";
import type { Clock } from "../lib/pace.js";
import type { JobRow, JobRunner } from "./runner.js";

/**
 * The life cycle of outbox-fed work (disparos, schedules): rows of a module that become messages
 * in the outbox through a job, and whose status follows what the outbox did with them.
 *
 *   send job (runner) ── stores the message + outbox row, the row moves on (one transaction)
 *   message.sent (of the work's priority) ──► sent      message.failed ──► failed
 *   every minute: reconcile (rows set right from messages.sent_at / send_error) + wake due work
 *   start: send runs of a crashed process queued again at once (several processes: only a dead
 *          process's), reconcile (+ wake due work)
 *   whatsapp.session CONNECTED ──► the connection's waiting work brought forward
 *
 * The module says what each step means for its rows; this file says when each step runs.
 */
export interface OutboxFedWork<P> {
  /** the job that turns one due row into an outbox message */
  sendJob: string;
  run(payload: P, job: JobRow): Promise<void>;
  /** the minute's sweep */
  sweepJob: string;
  /** the outbox priority of its messages: `message.sent` of another priority is not looked up (an agent's reply costs nothing here) */
  priority: number;
  /** the channel took one of its messages */
  sent(messageId: number): Promise<void>;
  /** the outbox gave up on a message (the event carries no priority: every failure is looked up) */
  failed(messageId: number, reason: string): Promise<void>;
  /** rows whose message is settled, set right from the messages table (a crash between the send and its event) */
  reconcile(): Promise<unknown>;
  /** queues send jobs for due rows that have none (a wake missed, a dead job); answers whether any was queued */
  wakeDue(): Promise<boolean>;
  /** the connection is CONNECTED again: its waiting rows brought forward; answers whether a job was queued or moved */
  connected(whatsappId: number): Promise<boolean>;
  /** at start, wake due rows too (not only reconcile) */
  wakeDueAtStart: boolean;
}

export interface OutboxFedHost {
  db: DbOrTx;
  clock: Clock;
  /** the job runner looks for due jobs now */
  wakeRunner: () => void;
  /**
   * Several processes: which running jobs start-up may queue again (those of processes that are
   * gone, on a `jobs` row); every running one when unset (one process: they were its own).
   */
  orphaned?: SQL;
}

export interface OutboxFedLifeCycle {
  /** reconcile, then wake due work (the minute's job; tests call it) */
  sweep(): Promise<void>;
  /** at start, before the job runner starts */
  start(): Promise<void>;
  connected(whatsappId: number): Promise<void>;
}

export function outboxFedLifeCycle<P>(host: OutboxFedHost, work: OutboxFedWork<P>): OutboxFedLifeCycle {
  const sweep = async () => {
    await work.reconcile();
    if (await work.wakeDue()) host.wakeRunner();
  };
  return {
    sweep,
    async start() {
      // runs this process was doing when it died would otherwise wait for their lease; each run
      // decides again under its row lock, so a second one is harmless
      await host.db.execute(sql`
        update jobs set state = 'queued', lease_until = null,
               run_at = least(run_at, ${new Date(host.clock.now()).toISOString()}::timestamptz), updated_at = now()
        where name = ${work.sendJob} and state = 'running' and ${host.orphaned ?? sql`true`}`);
      if (work.wakeDueAtStart) await sweep();
      else await work.reconcile();
    },
    async connected(whatsappId) {
      if (await work.connected(whatsappId)) host.wakeRunner();
    },
  };
}

/** Registers the work's send job, its sweep and its listeners; `start()` goes after the senders start and before the runner does. */
export function registerOutboxFed<P>(
  runner: Pick<JobRunner, "register" | "every">,
  events: EventBus,
  host: OutboxFedHost,
  work: OutboxFedWork<P>,
): OutboxFedLifeCycle {
  const life = outboxFedLifeCycle(host, work);
  runner.register<P>(work.sendJob, (p, job) => work.run(p, job));
  runner.every(work.sweepJob, 60_000, () => life.sweep());
  events.on("message.sent", (p) => (p.priority === work.priority ? work.sent(p.messageId) : undefined));
  events.on("message.failed", (p) => work.failed(p.messageId, p.reason));
  events.on("whatsapp.session", (p) => (p.status === "CONNECTED" ? life.connected(p.id) : undefined));
  return life;
}
