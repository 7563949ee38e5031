import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { ErrorCode } from "@balcao/contract";
import { type SQL, sql } from "drizzle-orm";
import type { RemoteSessions, SessionOp } from "./remote.js";
import type { AppContext } from "../../context.js";
import type { Database } from "../../db/client.js";
import { AppError } from "../errors.js";
import type { EventTransport } from "../events.js";

/**
 * Several server processes on one PostgreSQL: each WhatsApp session is owned by exactly one
 * process, through a row of `session_leases` (owner "<node>:<pid>:<random>", an expiry renewed
 * every `renewMs`). Only the owner starts the session, sends its outbox and replays its journal.
 *
 * - Every `renewMs` a process renews its leases (one it could not renew is lost: its session is
 *   stopped), says it is alive (`cluster_processes`) and takes connections whose lease is missing
 *   or expired — or whose owner ran on this node and its pid is gone (a restart on the same
 *   machine takes over at once) — up to its share: ceil(connections / live processes). A new
 *   process does not take sessions away from the others (no rebalancing).
 * - A process that cannot renew for longer than the expiry stops its sessions (another one may
 *   have taken them), so two processes never run one session.
 * - SIGTERM (`handOver`): the sender stops and finishes its send, the sessions stop, the leases
 *   are deleted and the others told (NOTIFY) — they take over at once.
 * - Work reaches the owner: an outbox wake of a connection owned elsewhere is a NOTIFY (and the
 *   owner polls its outbox every `pollMs`); calls that need the live session are rows of
 *   `owner_calls` the owner answers (NOTIFY both ways, a timeout).
 *
 * One NOTIFY channel, `balcao_owner`, payloads: `outbox:<whatsappId>`, `released`,
 * `call:<owner>:<callId>`, `reply:<caller>:<callId>`. With Redis, the outbox wakes (one per
 * message an agent sends on a process that does not own the session) go over Redis pub/sub
 * instead: a NOTIFY is a statement and a commit in PostgreSQL, delivered to every listener.
 */

export interface OwnershipOptions {
  /** the node's name in the owner id (default: the host name) */
  node?: string;
  /** a lease not renewed for this long is taken by another process */
  ttlMs?: number;
  /** how often leases are renewed and free ones looked for */
  renewMs?: number;
  /** how often the owner looks at its outbox without a wake */
  pollMs?: number;
  /** how long a call to another process waits for its answer */
  callTimeoutMs?: number;
  /** how long a call waits for a connection without an owner to get one (a hand-over) */
  ownerWaitMs?: number;
  /** where the outbox wakes go when not by NOTIFY (Redis pub/sub; a wake lost is sent by the owner's poll) */
  wakes?: EventTransport;
}

export interface OwnershipHooks {
  /** starts the connection's session in this process (it owns it now) */
  start(whatsappId: number): Promise<void>;
  /** stops the connection's session in this process (its lease is gone) */
  stop(whatsappId: number): Promise<void>;
  /** the connection was taken over: the outbox rows a previous owner had claimed are free again */
  adopt(whatsappId: number): Promise<void>;
  /** wakes this process's sender of the connection */
  wakeSender(whatsappId: number): void;
  /** stops this process's sender and waits for its send in flight (hand-over) */
  quiesceSender(): Promise<void>;
  /** waits until the inbound events of the stopped sessions are handled (hand-over: the next owner replays the rest) */
  settle(): Promise<void>;
}

/** What `ask` may run at a session's owner; each answers JSON. */
export type OwnerCallHandler = (whatsappId: number, args: unknown) => Promise<unknown>;

export const CHANNEL = "balcao_owner";
const CALL_SESSION = "channel";

type Waiter = { resolve: () => void; timer?: NodeJS.Timeout };

export class SessionOwnership implements RemoteSessions {
  readonly id: string;
  readonly node: string;
  private readonly ttlMs: number;
  private readonly renewMs: number;
  private readonly pollMs: number;
  private readonly callTimeoutMs: number;
  private readonly ownerWaitMs: number;
  private readonly owned = new Set<number>();
  /** take-overs in progress (adopt + start), by connection */
  private readonly takingOver = new Map<number, Promise<void>>();
  private readonly handlers = new Map<string, OwnerCallHandler>();
  private readonly waiters = new Map<number, Waiter>();
  private readonly handling = new Set<number>();
  private hooks?: OwnershipHooks;
  private unlisten?: () => Promise<void>;
  private readonly wakes?: EventTransport;
  private renewTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private tickAgain = false;
  private lastRenewed = Date.now();
  private draining = false;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly database: Database,
    opts: OwnershipOptions = {},
  ) {
    this.node = opts.node || hostname();
    this.id = `${this.node}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.ttlMs = opts.ttlMs ?? 15_000;
    this.renewMs = opts.renewMs ?? 5_000;
    this.pollMs = opts.pollMs ?? 3_000;
    this.callTimeoutMs = opts.callTimeoutMs ?? 10_000;
    this.ownerWaitMs = opts.ownerWaitMs ?? 3_000;
    this.wakes = opts.wakes;
    this.handle(CALL_SESSION, async () => {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    });
  }

  /** What another process may ask of this one (registered before `start`). */
  handle(method: string, handler: OwnerCallHandler): void {
    this.handlers.set(method, handler);
  }

  /** The connections this process owns now. */
  ownedIds(): number[] {
    return [...this.owned].sort((a, b) => a - b);
  }

  owns(whatsappId: number): boolean {
    return this.owned.has(whatsappId);
  }

  /** The running jobs start-up may queue again: those of processes that are gone. */
  orphanedJobs(): SQL {
    return jobsOfGoneProcesses(this.ttlMs);
  }

  /** Listens, says it is alive, takes its share of the sessions (and starts them), then keeps at it. */
  async start(hooks: OwnershipHooks): Promise<void> {
    this.hooks = hooks;
    if (!this.database.listen) throw new Error("session ownership needs PostgreSQL");
    this.unlisten = await this.database.listen(CHANNEL, (payload) => this.onNotify(payload));
    await this.wakes?.listen((payload) => this.onNotify(payload));
    await this.tick();
    this.renewTimer = setInterval(() => void this.tick(), this.renewMs);
    this.renewTimer.unref();
    this.pollTimer = setInterval(() => void this.pollOutbox(), this.pollMs);
    this.pollTimer.unref();
  }

  /** SIGTERM: sessions handed to the other processes at once (they are told); calls and wakes still go out. */
  async handOver(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.ticking?.catch(() => {});
    await this.hooks?.quiesceSender().catch((err) => this.ctx.log.warn({ err }, "stopping the sender failed"));
    for (const id of this.ownedIds()) await this.hooks?.stop(id).catch(() => {});
    await this.hooks?.settle().catch(() => {});
    this.owned.clear();
    try {
      await this.ctx.db.execute(sql`delete from session_leases where owner = ${this.id}`);
      await this.ctx.db.execute(sql`delete from cluster_processes where id = ${this.id}`);
      await this.notify("released");
    } catch (err) {
      this.ctx.log.warn({ err }, "releasing the session leases failed (they expire)");
    }
    this.ctx.log.info({ process: this.id }, "sessions handed over");
  }

  /** Stops listening (after the hand-over and the drain). */
  async close(): Promise<void> {
    await this.handOver();
    this.closed = true;
    for (const w of this.waiters.values()) if (w.timer) clearTimeout(w.timer);
    this.waiters.clear();
    await this.unlisten?.();
    await this.wakes?.close();
  }

  // ---------- leases ----------

  private ttl(): SQL {
    return sql`${this.ttlMs} * interval '1 millisecond'`;
  }

  /** One round: heartbeat, renewal, take-over (never two at once; a wake during one runs another after it). */
  tick(): Promise<void> {
    if (this.ticking) {
      this.tickAgain = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      do {
        this.tickAgain = false;
        try {
          await this.round();
        } catch (err) {
          this.ctx.log.warn({ err }, "renewing the session leases failed");
          await this.fenceIfStale();
        }
      } while (this.tickAgain && !this.draining && !this.closed);
    })().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async round(): Promise<void> {
    if (this.draining || this.closed) return;
    const db = this.ctx.db;
    // only what was owned before the renewal can have been lost by it (a lease taken meanwhile is not in its answer)
    const before = this.ownedIds();
    await db.execute(sql`
      insert into cluster_processes (id, seen_at) values (${this.id}, now())
      on conflict (id) do update set seen_at = now()`);
    const { rows } = await db.execute<{ whatsapp_id: number }>(sql`
      update session_leases set expires_at = now() + ${this.ttl()} where owner = ${this.id} returning whatsapp_id`);
    this.lastRenewed = Date.now();
    const kept = new Set(rows.map((r) => Number(r.whatsapp_id)));
    for (const id of before) {
      if (kept.has(id) || !this.owned.has(id)) continue;
      // taken by another process (this one could not renew in time), or the connection was deleted
      this.owned.delete(id);
      this.ctx.log.warn({ whatsappId: id, process: this.id }, "session lease lost; stopping the session here");
      await this.hooks?.stop(id).catch(() => {});
    }
    // a lease kept but not known (a fenced process that got its database back): its session again
    for (const id of kept) if (!this.owned.has(id)) await this.takeOver(id);
    await this.acquireShare();
    if (Math.random() < 0.05) await this.cleanUp();
  }

  /** Takes free or expired connections up to this process's share. */
  private async acquireShare(): Promise<void> {
    const db = this.ctx.db;
    const { rows: counts } = await db.execute<{ alive: number | string; total: number | string }>(sql`
      select (select count(*) from cluster_processes where seen_at > now() - ${this.ttl()}) as alive,
             (select count(*) from whatsapps) as total`);
    const alive = Math.max(1, Number(counts[0]?.alive ?? 1));
    const share = Math.ceil(Number(counts[0]?.total ?? 0) / alive);
    if (this.owned.size >= share) return;
    const { rows } = await db.execute<{ id: number; owner: string | null; expired: boolean | string | null }>(sql`
      select w.id, l.owner, l.expires_at < now() as expired
      from whatsapps w left join session_leases l on l.whatsapp_id = w.id
      where l.whatsapp_id is null or l.expires_at < now() or l.owner like ${`${likeEscape(this.node)}:%`}
      order by w.id`);
    for (const r of rows) {
      if (this.owned.size >= share || this.draining) return;
      const id = Number(r.id);
      if (this.owned.has(id)) continue;
      const expired = r.owner === null || r.expired === true || r.expired === "t";
      const dead = r.owner !== null && !expired && this.deadOnThisNode(r.owner);
      if (!expired && !dead) continue;
      if ((await this.tryLease(id, dead ? (r.owner as string) : undefined)) && !this.owned.has(id)) await this.takeOver(id);
    }
  }

  /** An owner on this node whose process is gone (a restart on the same machine takes over at once). */
  private deadOnThisNode(owner: string): boolean {
    const parts = owner.split(":");
    if (parts.length < 3 || parts.slice(0, -2).join(":") !== this.node || owner === this.id) return false;
    const pid = Number(parts[parts.length - 2]);
    if (!Number.isInteger(pid) || pid <= 0) return false;
    if (pid === process.pid) return true; // this pid is this process now (a container's pid 1 restarted)
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "ESRCH";
    }
  }

  /** Takes the connection's lease when it is free, expired, this process's, or `deadOwner`'s. */
  private async tryLease(whatsappId: number, deadOwner?: string): Promise<boolean> {
    const { rows } = await this.ctx.db.execute<{ whatsapp_id: number }>(sql`
      insert into session_leases (whatsapp_id, owner, expires_at)
      select ${whatsappId}, ${this.id}, now() + ${this.ttl()} where exists (select 1 from whatsapps where id = ${whatsappId})
      on conflict (whatsapp_id) do update set owner = excluded.owner, expires_at = excluded.expires_at, acquired_at = now()
      where session_leases.expires_at < now() or session_leases.owner = ${this.id} or session_leases.owner = ${deadOwner ?? this.id}
      returning whatsapp_id`);
    return rows.length > 0;
  }

  private takeOver(whatsappId: number): Promise<void> {
    this.owned.add(whatsappId);
    this.ctx.log.info({ whatsappId, process: this.id }, "session owned; starting it here");
    const done = (async () => {
      try {
        await this.hooks?.adopt(whatsappId);
        await this.hooks?.start(whatsappId);
      } catch (err) {
        this.ctx.log.error({ err, whatsappId }, "starting an owned session failed");
      }
    })().finally(() => {
      if (this.takingOver.get(whatsappId) === done) this.takingOver.delete(whatsappId);
    });
    this.takingOver.set(whatsappId, done);
    return done;
  }

  /**
   * A request's start of a session this process has just taken over in a round (the take-over
   * starts it): waits for that start instead of starting the session a second time, which would
   * show a new QR code while the first one is still being stored.
   */
  private async startedByTakeOver(whatsappId: number, op: string): Promise<boolean> {
    const pending = this.takingOver.get(whatsappId);
    if (!pending || (op !== "start" && op !== "ensure")) return false;
    await pending;
    return true;
  }

  /** Renewal failing for longer than the expiry: another process may own the sessions now; they stop here. */
  private async fenceIfStale(): Promise<void> {
    if (Date.now() - this.lastRenewed < this.ttlMs - this.renewMs) return;
    for (const id of this.ownedIds()) {
      this.owned.delete(id);
      this.ctx.log.warn({ whatsappId: id }, "session leases not renewed in time; stopping the session here");
      await this.hooks?.stop(id).catch(() => {});
    }
  }

  private async cleanUp(): Promise<void> {
    await this.ctx.db.execute(sql`delete from cluster_processes where seen_at < now() - interval '1 hour'`);
    await this.ctx.db.execute(sql`delete from owner_calls where created_at < now() - interval '10 minutes'`);
  }

  // ---------- where a session runs ----------

  /** The process owning the connection's session now (an unexpired lease), if any; a process handing over owns nothing. */
  async ownerOf(whatsappId: number, not?: string): Promise<string | undefined> {
    if (this.owned.has(whatsappId) && !this.draining) return this.id;
    const { rows } = await this.ctx.db.execute<{ owner: string }>(sql`
      select owner from session_leases where whatsapp_id = ${whatsappId} and expires_at > now()
        and owner <> ${this.id} and owner <> ${not ?? this.id}`);
    return rows[0]?.owner;
  }

  /**
   * The owner, waiting up to `ownerWaitMs` while there is none (a hand-over takes a moment: the
   * leases are released, another process takes them); undefined when nobody took it by then.
   */
  private async waitForOwner(whatsappId: number, not?: string): Promise<string | undefined> {
    const deadline = Date.now() + this.ownerWaitMs;
    for (;;) {
      const owner = await this.ownerOf(whatsappId, not);
      if (owner || Date.now() >= deadline || this.closed) return owner;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * Before a session is started, restarted, logged out or stopped on request: answers true when
   * its owner (another process) did it, or this process's own take-over of it was starting it;
   * false when this process owns it (taking the lease when it is free) and does it itself.
   */
  async atOwner(whatsappId: number, op: SessionOp): Promise<boolean> {
    if (this.owned.has(whatsappId)) return this.startedByTakeOver(whatsappId, op);
    if (!this.draining && op !== "stop" && (await this.tryLease(whatsappId))) {
      // a round took it meanwhile (its lease is this process's, so both "took" it)
      if (this.owned.has(whatsappId)) return this.startedByTakeOver(whatsappId, op);
      this.owned.add(whatsappId);
      await this.hooks?.adopt(whatsappId);
      return false;
    }
    const owner = op === "stop" ? await this.ownerOf(whatsappId) : await this.waitForOwner(whatsappId);
    if (!owner || owner === this.id) {
      if (op === "stop") return true; // no session anywhere
      throw new AppError("ERR_SESSION_NOT_OWNED");
    }
    // a lease held elsewhere was taken by a round (whose take-over starts the session) or by a request there that starts it
    if (op === "ensure") return true;
    await this.callProcess(owner, `conn.${op}`, whatsappId, {});
    return true;
  }

  async connectedElsewhere(whatsappId: number): Promise<boolean> {
    const { rows } = await this.ctx.db.execute(sql`
      select 1 from session_leases l join whatsapps w on w.id = l.whatsapp_id
      where l.whatsapp_id = ${whatsappId} and l.expires_at > now() and l.owner <> ${this.id} and w.status = 'CONNECTED'`);
    return rows.length > 0;
  }

  call(whatsappId: number, method: string, args: unknown[]): Promise<unknown> {
    return this.ask(whatsappId, CALL_SESSION, { method, args });
  }

  /** Runs `method` at the connection's owner (here when this process owns it). */
  async ask(whatsappId: number, method: string, args: unknown): Promise<unknown> {
    let handingOver: string | undefined;
    for (let attempt = 1; ; attempt++) {
      const owner = await this.waitForOwner(whatsappId, handingOver);
      // nobody owns the session (its owner died and no process took it over yet): try again shortly
      if (!owner) throw new AppError("ERR_SESSION_NOT_OWNED");
      if (owner === this.id) return this.run(method, whatsappId, args);
      try {
        return await this.callProcess(owner, method, whatsappId, args);
      } catch (err) {
        // the owner is handing its sessions over (SIGTERM): asked again at the next owner
        if (err instanceof HandingOver && attempt < 3) {
          handingOver = owner;
          continue;
        }
        throw err;
      }
    }
  }

  private run(method: string, whatsappId: number, args: unknown): Promise<unknown> {
    const handler = this.handlers.get(method);
    if (!handler) return Promise.reject(new Error(`unknown owner call ${method}`));
    return handler(whatsappId, args);
  }

  private async callProcess(owner: string, method: string, whatsappId: number, args: unknown): Promise<unknown> {
    const db = this.ctx.db;
    const { rows } = await db.execute<{ id: number | string }>(sql`
      insert into owner_calls (owner, caller, method, args)
      values (${owner}, ${this.id}, ${method}, ${JSON.stringify({ whatsappId, args })}::jsonb) returning id`);
    const callId = Number(rows[0].id);
    try {
      const deadline = Date.now() + this.callTimeoutMs;
      await this.notify(`call:${owner}:${callId}`);
      for (;;) {
        // the reply's NOTIFY wakes this at once; a look every second covers a notification lost
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(1000, Math.max(0, deadline - Date.now())));
          this.waiters.set(callId, { resolve, timer });
        });
        const w = this.waiters.get(callId);
        if (w?.timer) clearTimeout(w.timer);
        this.waiters.delete(callId);
        const { rows: done } = await db.execute<{
          result: unknown;
          error: { code?: string; message?: string; fields?: Record<string, string[]>; handingOver?: boolean } | null;
          answered: boolean;
        }>(sql`
          select result, error, (result is not null or error is not null) as answered from owner_calls where id = ${callId}`);
        const r = done[0];
        if (r && (r.answered === true || String(r.answered) === "t")) {
          const error = typeof r.error === "string" ? JSON.parse(r.error) : r.error;
          if (error) {
            if (error.handingOver) throw new HandingOver();
            if (error.code?.startsWith("ERR_")) throw new AppError(error.code as ErrorCode, undefined, error.fields);
            throw new Error(error.message ?? "owner call failed");
          }
          const result = typeof r.result === "string" ? JSON.parse(r.result) : r.result;
          return (result as { value?: unknown } | null)?.value;
        }
        if (Date.now() >= deadline || this.closed) throw new AppError("ERR_SESSION_NOT_OWNED");
      }
    } finally {
      await db.execute(sql`delete from owner_calls where id = ${callId}`).catch(() => {});
    }
  }

  /** A call to this process: claimed once, run, answered. */
  private async answer(callId: number): Promise<void> {
    if (this.handling.has(callId)) return;
    this.handling.add(callId);
    try {
      const { rows } = await this.ctx.db.execute<{ caller: string; method: string; args: unknown }>(sql`
        update owner_calls set done_at = now() where id = ${callId} and owner = ${this.id} and done_at is null
        returning caller, method, args`);
      const call = rows[0];
      if (!call) return;
      const { whatsappId, args } = (typeof call.args === "string" ? JSON.parse(call.args) : call.args) as {
        whatsappId: number;
        args: unknown;
      };
      let result: string | null = null;
      let error: string | null = null;
      try {
        if (this.draining) throw new HandingOver();
        result = JSON.stringify({ value: (await this.run(call.method, whatsappId, args)) ?? null });
      } catch (err) {
        const e = err as { code?: unknown; message?: unknown; fields?: unknown };
        error = JSON.stringify({
          handingOver: err instanceof HandingOver,
          code: typeof e.code === "string" && e.code.startsWith("ERR_") ? e.code : undefined,
          message: typeof e.message === "string" ? e.message : String(err),
          fields: e.fields,
        });
      }
      await this.ctx.db.execute(sql`update owner_calls set result = ${result}::jsonb, error = ${error}::jsonb where id = ${callId}`);
      await this.notify(`reply:${call.caller}:${callId}`);
    } catch (err) {
      this.ctx.log.warn({ err, callId }, "answering an owner call failed");
    } finally {
      this.handling.delete(callId);
    }
  }

  // ---------- the outbox ----------

  /** A message was queued for the connection: its owner's sender is woken (here, or by NOTIFY). */
  wakeOutbox(whatsappId: number): void {
    if (this.owned.has(whatsappId) && !this.draining) {
      this.hooks?.wakeSender(whatsappId);
      return;
    }
    const wake = `outbox:${whatsappId}`;
    void (this.wakes ? this.wakes.send(wake) : this.notify(wake)).catch((err) =>
      this.ctx.log.warn({ err, whatsappId }, "outbox wake not sent (the poll sends it)"),
    );
  }

  /** The safety net of the wakes: owned connections with queued rows are woken every `pollMs`; calls missed are answered. */
  private async pollOutbox(): Promise<void> {
    if (this.draining || this.closed) return;
    try {
      const ids = this.ownedIds();
      if (ids.length) {
        const { rows } = await this.ctx.db.execute<{ whatsapp_id: number }>(sql`
          select distinct whatsapp_id from outbox where failed_at is null
            and whatsapp_id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`);
        for (const r of rows) if (this.owned.has(Number(r.whatsapp_id))) this.hooks?.wakeSender(Number(r.whatsapp_id));
      }
      const { rows: calls } = await this.ctx.db.execute<{ id: number }>(sql`
        select id from owner_calls where owner = ${this.id} and done_at is null and created_at > now() - interval '1 minute'`);
      for (const c of calls) void this.answer(Number(c.id));
    } catch (err) {
      this.ctx.log.debug({ err }, "outbox poll failed");
    }
  }

  // ---------- notifications ----------

  private async notify(payload: string): Promise<void> {
    await this.ctx.db.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
  }

  private onNotify(payload: string): void {
    if (this.closed) return;
    if (payload.startsWith("outbox:")) {
      const id = Number(payload.slice(7));
      if (this.owned.has(id)) this.hooks?.wakeSender(id);
    } else if (payload === "released") {
      if (!this.draining) void this.tick();
    } else if (payload.startsWith("call:")) {
      const rest = payload.slice(5);
      const at = rest.lastIndexOf(":");
      if (rest.slice(0, at) === this.id) void this.answer(Number(rest.slice(at + 1)));
    } else if (payload.startsWith("reply:")) {
      const rest = payload.slice(6);
      const at = rest.lastIndexOf(":");
      if (rest.slice(0, at) !== this.id) return;
      const w = this.waiters.get(Number(rest.slice(at + 1)));
      if (w) {
        if (w.timer) clearTimeout(w.timer);
        w.resolve();
      }
    }
  }
}

/** Answered by a process handing its sessions over: the caller asks the next owner. */
class HandingOver extends AppError {
  constructor() {
    super("ERR_SESSION_NOT_OWNED");
  }
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Running jobs (a predicate on the `jobs` row) whose process has not said it is alive for `ttlMs`. */
export function jobsOfGoneProcesses(ttlMs: number): SQL {
  return sql`(locked_by is null or locked_by not in (select id from cluster_processes where seen_at > now() - ${ttlMs} * interval '1 millisecond'))`;
}
