import { randomBytes } from "node:crypto";
import type { Queue } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, customerSays, eventually, listen, pairedSimulator, recorder, socketFor } from "./conversation-kit.js";
import { type FakeTypebot, fakeTypebot, rt } from "./fake-typebot.js";
import { CLUSTER_REDIS_URL, createProcessApp, createSharedDatabase, type TestApp } from "./helpers.js";

/**
 * Issue 28 §1 and §4: two server processes (two apps in this test process, each with its own pool,
 * event bus, sockets and job runner) on one PostgreSQL database, sharing events, limits and locks
 * through Redis (`REDIS_URL`) or through PostgreSQL alone. These run in both CI passes: they make
 * their own PostgreSQL database and use Redis under a key prefix of their own.
 */

type Mode = "redis" | "postgres";
const envOf = (mode: Mode, extra: Record<string, string> = {}): Record<string, string> => ({
  ...(mode === "redis" && { REDIS_URL: CLUSTER_REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(5).toString("hex")}:` }),
  ...extra,
});

/** `owned`: DATABASE_URL set, so each WhatsApp session has one owner process (lib/cluster/ownership.ts) */
async function twoProcesses(mode: Mode, extra: Record<string, string> = {}, owned = false) {
  const shared = await createSharedDatabase();
  const env = envOf(mode, { ...extra, ...(owned && { DATABASE_URL: shared.url }) });
  // one test process holds both: named as two machines, or each would take the other's sessions
  // as those of a dead process on its own machine (same host name and pid)
  const a = await createProcessApp(shared.url, { ...env, CLUSTER_NODE: "node-a" });
  const b = await createProcessApp(shared.url, { ...env, CLUSTER_NODE: "node-b" });
  return {
    a,
    b,
    async teardown() {
      await a.teardown();
      await b.teardown();
      await shared.drop();
    },
  };
}

describe.each<Mode>(["redis", "postgres"])("events across processes (%s)", (mode) => {
  let a: TestApp;
  let b: TestApp;
  let teardown: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, teardown } = await twoProcesses(mode));
  });
  afterAll(() => teardown());

  it("a customer message received by process A reaches an agent's socket on process B; the dashboard on A counts that agent online", async () => {
    const agent = await b.createUser({ name: "Bia", profile: "admin" });
    const socket = await socketFor(await listen(b), agent.token);
    try {
      const messages = recorder<{ action: string; message: { body: string } }>(socket, "appMessage");
      const joined = await new Promise<{ ok: boolean }>((r) => socket.emit("joinTickets", "open", r));
      expect(joined.ok).toBe(true);

      const sim = await pairedSimulator(a);
      await customerSays(a, sim, "5511988880001", "Olá, minha internet caiu");
      const heard = await messages.waitFor((p) => p.action === "create" && p.message.body === "Olá, minha internet caiu");
      expect(heard.message.body).toBe("Olá, minha internet caiu");

      // who is online is counted across processes
      await eventually(async () => {
        const res = await api(a, a.adminToken, "GET", "/metrics");
        return (res.body.now.agents as { userId: number }[]).some((x) => x.userId === agent.id);
      }, "the agent on B online on A's dashboard");
    } finally {
      socket.close();
    }
  });

  it("an incident opened on process A is met by the next customer message on process B (B's cached 'none open' is dropped)", async () => {
    const sim = await pairedSimulator(b);
    const number = "5511988880077";
    // B looks for open incidents at this message and keeps the answer (none) for a while
    await customerSays(b, sim, number, "Oi, boa tarde");
    const watcher = await socketFor(await listen(b), b.adminToken);
    try {
      const heard = recorder<{ action: string; incident: { id: number } }>(watcher, "incident");
      const notice = "Estamos com uma falha na fibra da sua região. Previsão: 18h.";
      const opened = await api(a, a.adminToken, "POST", "/incidents", { title: "Fibra rompida", message: notice });
      expect(opened.status).toBe(200);
      await heard.waitFor((p) => p.action === "create" && p.incident.id === opened.body.id);
      await customerSays(b, sim, number, "Minha internet caiu");
      await eventually(
        async () => (await sim.session.messages(number)).some((m) => m.fromMe && m.body === notice),
        "the incident's notice on the customer's phone",
      );
      await api(a, a.adminToken, "POST", `/incidents/${opened.body.id}/close`, {});
    } finally {
      watcher.close();
    }
  });

  it("signing out on process A closes the user's socket on process B", async () => {
    const agent = await b.createUser({ name: "Caio" });
    const socket = await socketFor(await listen(b), agent.token);
    const closed = new Promise<string>((r) => socket.once("disconnect", (reason) => r(reason)));
    const res = await a.app.inject({ method: "DELETE", url: "/auth/logout", headers: { authorization: `Bearer ${agent.token}` } });
    expect(res.statusCode).toBe(204);
    expect(await closed).toBe("io server disconnect");
    // and B refuses the token at once (its session cache was dropped by A's event)
    expect((await api(b, agent.token, "GET", "/users")).status).toBe(403);
  });

  it("an event too large for one NOTIFY still arrives whole", async () => {
    const socket = await socketFor(await listen(b), b.adminToken);
    try {
      const queues = recorder<{ action: string; queue: { name: string; greetingMessage: string } }>(socket, "queue");
      const greeting = "Bem-vindo! ".repeat(1200);
      const res = await api(a, a.adminToken, "POST", "/queue", { name: "Grande", color: "#112233", greetingMessage: greeting });
      expect(res.status).toBe(200);
      const heard = await queues.waitFor((p) => p.queue?.name === "Grande");
      expect(heard.queue.greetingMessage).toBe(greeting);
    } finally {
      socket.close();
    }
  });

  it("a burst of events published on A arrives on B whole and in order, a large one among them", async () => {
    const socket = await socketFor(await listen(b), b.adminToken);
    try {
      const queues = recorder<{ action: string; queue: { name: string; greetingMessage: string } }>(socket, "queue");
      const res = await api(a, a.adminToken, "POST", "/queue", { name: "Rajada", color: "#445566", greetingMessage: "" });
      expect(res.status).toBe(200);
      const queue = res.body as Queue;
      // published in one go: on PostgreSQL most wait while a NOTIFY is in flight and travel together
      const names = Array.from({ length: 200 }, (_, i) => `Rajada ${i}`);
      for (const [i, name] of names.entries())
        a.ctx.events.publish("queue.saved", {
          action: "update",
          queue: { ...queue, name, greetingMessage: i === 100 ? "Olá! ".repeat(3000) : "" },
        });
      await queues.waitFor((p) => p.queue?.name === "Rajada 199");
      const heard = queues.seen.filter((p) => p.queue?.name.startsWith("Rajada ")).map((p) => p.queue.name);
      expect(heard).toEqual(names);
      expect(queues.seen.find((p) => p.queue?.name === "Rajada 100")?.queue.greetingMessage).toHaveLength(15_000);
    } finally {
      socket.close();
    }
  });
});

describe.each<Mode>(["redis", "postgres"])("outbox wakes across processes (%s)", (mode) => {
  let a: TestApp;
  let b: TestApp;
  let teardown: () => Promise<void>;
  beforeAll(async () => {
    // the owner looks at its outbox by itself only once a minute: a prompt send is the wake's doing
    ({ a, b, teardown } = await twoProcesses(mode, { OUTBOX_POLL_MS: "60000" }, true));
  });
  afterAll(() => teardown());

  it("an agent's reply stored on the process that does not own the session is sent by the owner at once", async () => {
    const sim = await pairedSimulator(a);
    await customerSays(a, sim, "5511988880077", "Preciso de ajuda");
    let ticketId = 0;
    await eventually(async () => {
      const { rows } = await b.ctx.db.execute<{ id: number }>(
        sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = '5511988880077'`,
      );
      ticketId = Number(rows[0]?.id ?? 0);
      return ticketId > 0;
    }, "the customer's ticket");
    // the agent answers on the process that does not own the session (the leases settle first: one owner)
    const ownerNow = () => [a, b].filter((x) => x.channels.get(sim.whatsappId));
    await eventually(() => ownerNow().length === 1, "one owner of the session");
    const [owner] = ownerNow();
    const other = owner === a ? b : a;
    expect((await api(other, other.adminToken, "PUT", `/tickets/${ticketId}`, { status: "open" })).status).toBe(200);
    const sent = await api(other, other.adminToken, "POST", `/messages/${ticketId}`, { body: "Já verifico, um momento" });
    expect(sent.status).toBe(200);
    const phoneNow = sim.whatsappId === 0 ? undefined : owner.simulator.get(sim.whatsappId);
    await eventually(
      async () => !!(await phoneNow?.messages("5511988880077"))?.some((m) => m.fromMe && m.body === "Já verifico, um momento"),
      "the reply on the customer's phone (well before the owner's one-minute poll)",
    );
    // sent by the owner, which stayed the owner (a take-over in between would wake its sender by itself)
    const after = ownerNow();
    expect(after.length === 1 && after[0] === owner).toBe(true);
  });
});

describe.each<Mode>(["redis", "postgres"])("sign-in limits across processes (%s)", (mode) => {
  let a: TestApp;
  let b: TestApp;
  let teardown: () => Promise<void>;
  beforeAll(async () => {
    // five failures from one address, any account, then it waits (the window is long: no timing in play)
    ({ a, b, teardown } = await twoProcesses(mode, { LOGIN_RATE_PER_IP: "5", LOGIN_RATE_WINDOW_S: "600" }));
  });
  afterAll(() => teardown());

  it("five wrong passwords spread over two processes trigger the throttle on both", async () => {
    const victim = await a.createUser({ password: "right-pass" });
    const attempt = (app: TestApp, password: string) =>
      app.app.inject({ method: "POST", url: "/auth/login", payload: { email: victim.email, password }, remoteAddress: "10.28.0.1" });
    const codes: number[] = [];
    for (const app of [a, b, a, b, a]) codes.push((await attempt(app, "wrong")).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
    for (const app of [b, a]) {
      const held = await attempt(app, "right-pass");
      expect(held.statusCode).toBe(429);
      expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    }
  });
});

describe("the Typebot turn lock across processes", () => {
  let a: TestApp;
  let b: TestApp;
  let tb: FakeTypebot;
  let teardown: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, teardown } = await twoProcesses("postgres"));
    tb = await fakeTypebot({
      ask: [
        { bubbles: [rt.say("Qual seu nome?")], input: { type: "text input" } },
        { bubbles: [rt.say("Prazer!")], input: { type: "text input" } },
      ],
    });
  });
  afterAll(async () => {
    await teardown();
    await tb.close();
  });

  it("a ticket's turn on B waits for its turn on A: Typebot never hears the ticket twice at once, and hears it in order", async () => {
    // the turns are run by hand: A takes the first message's job, B the second's
    await a.jobs.stop();
    await b.jobs.stop();
    const sim = await pairedSimulator(a);
    const set = await api(a, a.adminToken, "PUT", `/typebot/settings/${sim.whatsappId}`, {
      enabled: true,
      baseUrl: tb.url,
      slug: "ask",
      delayMs: 0,
    });
    expect(set.status).toBe(200);
    const number = "5511977770001";
    const queued = async () => {
      const { rows } = await a.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from jobs where name = 'bots.typebot' and state = 'queued'`,
      );
      return Number(rows[0].n);
    };

    tb.hold = true;
    await customerSays(a, sim, number, "oi");
    await eventually(async () => (await queued()) === 1, "the first turn's job");
    expect(await a.jobs.tick()).toBe(1);
    await eventually(() => tb.inFlight === 1, "A's turn calling Typebot");

    await customerSays(a, sim, number, "Maria");
    await eventually(async () => (await queued()) === 1, "the second turn's job");
    expect(await b.jobs.tick()).toBe(1);
    // B's turn either waits for the ticket's lock or (without one) calls Typebot beside A's
    await eventually(async () => {
      const { rows } = await a.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
      );
      return Number(rows[0].n) > 0 || tb.inFlight > 1;
    }, "B's turn");
    tb.release();
    await a.jobs.idle();
    await b.jobs.idle();

    expect(tb.maxInFlight).toBe(1);
    expect(tb.calls.map((c) => c.path.split("/").pop())).toEqual(["startChat", "continueChat"]);
    expect(tb.calls[1].body.message).toBe("Maria");
  });
});
