import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { sql } from "drizzle-orm";
import type { SimulatorSession } from "../src/channels/simulator/session.js";
import type { DomainEvents } from "../src/lib/events.js";
import { bearer, type TestApp } from "./helpers.js";

/** Shared steps of the conversation tests: queues, a paired simulator connection, customers, sockets. */

let seq = 0;

export async function api(t: TestApp, token: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) {
  const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined && { payload: payload as object }) });
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely
  return { status: res.statusCode, body: body as any };
}

export async function createQueue(t: TestApp, name: string, greetingMessage = ""): Promise<number> {
  seq++;
  const color = `#${(0x100000 + ((seq * 7919 + Math.floor(Math.random() * 1000)) % 0xefffff)).toString(16)}`;
  const res = await api(t, t.adminToken, "POST", "/queue", { name, color, greetingMessage });
  if (res.status !== 200) throw new Error(`queue: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export interface SimConnection {
  whatsappId: number;
  session: SimulatorSession;
}

/** A simulator connection, created through the API and paired by scanning its QR code. */
export async function pairedSimulator(
  t: TestApp,
  input: {
    name?: string;
    queueIds?: number[];
    greetingMessage?: string;
    farewellMessage?: string;
    isDefault?: boolean;
    /** the number's send pace; tests send without waiting unless they test the pace */
    sendIntervalMs?: number;
    sendJitterMs?: number;
    sendBurst?: number;
    /** the typing gap between consecutive messages of one chat; tests send without it unless they test it */
    replyGapMs?: number;
    /** the product's default send settings (pace and typing gap) instead of the tests' quick ones */
    defaultPace?: boolean;
    /** number health: a new number's warm-up (off in tests unless they test it), its daily cap, its backup */
    warmupEnabled?: boolean;
    dailyCap?: number;
    backupWhatsappId?: number;
  } = {},
): Promise<SimConnection> {
  const res = await api(t, t.adminToken, "POST", "/whatsapp", {
    name: input.name ?? `Sim ${++seq}`,
    type: "simulator",
    queueIds: input.queueIds ?? [],
    greetingMessage: input.greetingMessage ?? "",
    farewellMessage: input.farewellMessage ?? "",
    ...(!input.defaultPace && {
      sendIntervalMs: input.sendIntervalMs ?? 0,
      sendJitterMs: input.sendJitterMs ?? 0,
      sendBurst: input.sendBurst ?? 20,
      replyGapMs: input.replyGapMs ?? 0,
    }),
    ...(input.isDefault !== undefined && { isDefault: input.isDefault }),
    warmupEnabled: input.warmupEnabled ?? false,
    ...(input.dailyCap !== undefined && { dailyCap: input.dailyCap }),
    ...(input.backupWhatsappId !== undefined && { backupWhatsappId: input.backupWhatsappId }),
  });
  if (res.status !== 200) throw new Error(`whatsapp: ${res.status} ${JSON.stringify(res.body)}`);
  const whatsappId = res.body.id as number;
  await t.channels.idle();
  const session = t.simulator.get(whatsappId);
  if (!session) throw new Error("no simulator session");
  if (!(await session.scan(session.qrcode))) throw new Error("pairing failed");
  await t.channels.idle();
  return { whatsappId, session };
}

/** Everything received has been handled and everything queued has been sent (or failed). */
export async function settle(t: TestApp): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await t.channels.idle();
    await t.sender.idle();
  }
  await t.channels.idle();
}

/** A customer writes and the pipeline has handled it, and any automatic reply has been sent. */
export async function customerSays(
  t: TestApp,
  sim: SimConnection,
  number: string,
  body: string,
  extra: {
    name?: string;
    id?: string;
    quotedId?: string;
    media?: { data: Buffer; mimetype: string; fileName?: string };
    groupId?: string;
  } = {},
): Promise<string> {
  const id = await sim.session.customerSend({ number, name: extra.name ?? `Cliente ${number.slice(-4)}`, body, ...extra });
  await settle(t);
  return id;
}

/** What the customer's phone shows of the chat (agent and bot replies are fromMe). */
export function phoneOf(sim: SimConnection, number: string) {
  return sim.session.messages(number);
}

export async function ticketOfContact(t: TestApp, number: string) {
  const res = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${number}&rowsPerPage=50`);
  // biome-ignore lint/suspicious/noExplicitAny: loose read
  return (res.body.tickets as any[]).filter((x) => x.contact.number === number);
}

export async function listen(t: TestApp): Promise<string> {
  const addr = t.app.server.address() as AddressInfo | null;
  if (addr) return `http://127.0.0.1:${addr.port}`;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

export async function socketFor(url: string, token: string): Promise<Socket> {
  const socket = connect(url, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (err) => reject(err));
  });
  return socket;
}

export function emitAck(socket: Socket, event: string, ...args: unknown[]): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => socket.emit(event, ...args, (r: { ok: boolean; error?: string }) => resolve(r)));
}

/** Collects every payload of an event, and waits for one that matches. */
export function recorder<T = unknown>(socket: Socket, event: string) {
  const seen: T[] = [];
  const waiters: { pred: (p: T) => boolean; resolve: (p: T) => void }[] = [];
  socket.on(event, (p: T) => {
    seen.push(p);
    for (const w of [...waiters]) {
      if (w.pred(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  return {
    seen,
    waitFor(pred: (p: T) => boolean, timeoutMs = 5000): Promise<T> {
      const hit = seen.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} event matched`)), timeoutMs);
        waiters.push({
          pred,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
  };
}

/**
 * Resolves once everything the server emitted to this socket before now has arrived: an admin
 * touches a queue, and the `queue` event every signed-in socket hears comes after anything sent
 * earlier on the same connection. What the socket has not heard by then, it will not hear.
 */
export async function heardUpTo(t: TestApp, socket: Socket, queueId: number): Promise<void> {
  const marker = `marcador ${++seq}`;
  const heard = new Promise<void>((resolve) => {
    const on = (p: { action: string; queue?: { greetingMessage?: string } }) => {
      if (p.queue?.greetingMessage !== marker) return;
      socket.off("queue", on);
      resolve();
    };
    socket.on("queue", on);
  });
  const res = await api(t, t.adminToken, "PUT", `/queue/${queueId}`, { greetingMessage: marker });
  if (res.status !== 200) throw new Error(`queue: ${res.status}`);
  await heard;
}

/** Waits for a condition the server reaches on its own (a socket joining its rooms), checking it often. */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits for the next domain event that matches (or one already published while waiting). */
export function nextEvent<K extends keyof DomainEvents>(
  t: TestApp,
  name: K,
  pred: (p: DomainEvents[K]) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<DomainEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${name} event matched within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = t.ctx.events.on(name, (p) => {
      if (!pred(p)) return;
      clearTimeout(timer);
      off();
      resolve(p);
    });
  });
}

/** Resolves when a message's ack reaches `ack` (the channel's receipts are journaled and applied). */
export async function ackReaches(t: TestApp, messageId: number, ack: number): Promise<void> {
  const seen = nextEvent(t, "message.updated", (p) => p.message.id === messageId && p.message.ack >= ack);
  const [row] = (await t.ctx.db.execute<{ ack: number }>(sql`select ack from messages where id = ${messageId}`)).rows;
  if (row && row.ack >= ack) {
    seen.catch(() => undefined);
    return;
  }
  await seen;
}

/** A tiny but real PNG (1×1), recognised by content. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A multipart/form-data body for app.inject. */
export function multipart(fields: Record<string, string>, files: { field: string; name: string; type: string; data: Buffer }[]) {
  const boundary = `----balcao${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
    );
    parts.push(f.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
