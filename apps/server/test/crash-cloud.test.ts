import { afterAll, describe, expect, it } from "vitest";
import { call, cleanupAll, database, freePort, login, pool, quiet, Server } from "./crash-kit.js";
import { startFakeGraph } from "./fakes/graph.js";

/**
 * Nothing lost, nothing twice on a WhatsApp Cloud API connection — where Meta keeps no
 * idempotency (every POST is a message). 300 agent sends, 10 at a time, the server killed
 * (SIGKILL) when half of them were answered and started again on the same database; the requests
 * the kill made fail are sent again with their Idempotency-Key. Meanwhile the fake Graph API keeps
 * posting its statuses to the webhook, again and again until the server answers 200 (as Meta
 * does). Then every message reached the fake exactly once, counted by biz_opaque_callback_data,
 * and none is lost. Runs on PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite.
 */

const CUSTOMERS = 10;
const OUTBOUND = 300;
const PARALLEL = 10;
/** the server is killed when Meta takes this many agent messages (before it answers the last one) */
const KILL_AT = 40;

afterAll(cleanupAll);

describe("a Cloud connection's server killed mid-burst sends each message once", () => {
  it("300 agent sends, SIGKILL in the middle, restart", async () => {
    const fake = await startFakeGraph({ statusDelayMs: 1, redeliverMs: 200 });
    const { env, engine } = await database();
    const server = new Server(await freePort(), {
      ...env,
      WHATSAPP_GRAPH_URL: fake.url,
      ALLOWED_PRIVATE_HOSTS: "127.0.0.0/8",
      CLOUD_SEND_GRACE_S: "8",
    });
    fake.state.webhookUrl = `${server.base}/webhooks/whatsapp`;
    await server.start();
    let token = await login(server.base);

    const conn = await call(server.base, token, "POST", "/whatsapp", {
      name: "Oficial",
      channel: "cloud",
      sendIntervalMs: 0,
      sendJitterMs: 0,
      sendBurst: 20,
      replyGapMs: 0,
      cloud: {
        phoneNumberId: fake.phoneNumberId,
        businessAccountId: fake.wabaId,
        accessToken: fake.state.accessToken,
        appSecret: fake.state.appSecret,
        verifyToken: "crash-verify-token",
      },
    });
    for (let i = 0; i < 200 && (await call(server.base, token, "GET", `/whatsapp/${conn.id}`)).status !== "CONNECTED"; i++)
      await new Promise((r) => setTimeout(r, 50));

    // customers write first (their 24 h window opens), each gets a ticket an agent takes
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `55119700${String(i).padStart(5, "0")}`);
    for (const number of customers)
      await fake.customerSends(number, `C${number.slice(-3)}`, { type: "text", text: { body: `oi ${number}` } });
    await quiet(server.base, token);
    const ticketOf = new Map<string, number>();
    const list = await call(server.base, token, "GET", "/tickets?showAll=true&status=pending&rowsPerPage=200");
    for (const t of list.tickets) ticketOf.set(t.contact.number, t.id);
    expect(ticketOf.size).toBe(CUSTOMERS);
    for (const id of ticketOf.values()) await call(server.base, token, "PUT", `/tickets/${id}`, { status: "open" });

    const outbound = Array.from({ length: OUTBOUND }, (_, i) => ({ i, number: customers[i % CUSTOMERS], key: `cloud-crash-${i}` }));
    const send = (m: (typeof outbound)[number]) =>
      call(server.base, token, "POST", `/messages/${ticketOf.get(m.number)}`, { body: `agent ${m.i}` }, { "idempotency-key": m.key });
    const failed: typeof outbound = [];
    let killed: Promise<void> | undefined;
    let acceptedAtKill = 0;
    let unansweredAtKill = 0;
    // the kill falls mid-send: Meta has just taken the KILL_AT-th message and not answered it yet
    fake.state.answerDelayMs = 200;
    const base = fake.accepted.length;
    fake.state.onAccepted = (n) => {
      if (n - base !== KILL_AT || killed) return;
      acceptedAtKill = n - base;
      unansweredAtKill = fake.accepted.length - fake.answers.written;
      killed = server.kill();
    };
    await pool(outbound, PARALLEL, send, failed);
    for (let i = 0; i < 6000 && !killed; i++) await new Promise((r) => setTimeout(r, 50));
    expect(killed).toBeDefined();
    await killed;
    fake.state.answerDelayMs = 0;
    fake.state.onAccepted = undefined;

    await server.start();
    token = await login(server.base);
    const still: typeof outbound = [];
    await pool([...failed], PARALLEL, send, still);
    expect(still).toHaveLength(0);
    const jobs = await quiet(server.base, token);
    expect(jobs.outbox.queued).toBe(0);

    // every agent message reached the fake once: by our id, and by its text
    const agentSends = fake.accepted.filter((a) => /^agent \d+$/.test((a.body.text as { body?: string } | undefined)?.body ?? ""));
    const byOurId = new Map<string, number>();
    for (const a of agentSends) byOurId.set(a.ourId ?? "", (byOurId.get(a.ourId ?? "") ?? 0) + 1);
    const byText = new Map<string, number>();
    for (const a of agentSends) {
      const text = (a.body.text as { body: string }).body;
      byText.set(text, (byText.get(text) ?? 0) + 1);
    }
    const twice = [...byOurId.values()].filter((n) => n > 1).length;
    const lost = outbound.filter((m) => !byText.has(`agent ${m.i}`)).length;
    console.log(
      `[crash-cloud ${engine}] sends ${OUTBOUND}, failed by the kill ${failed.length}, accepted by the fake at the kill ${acceptedAtKill} (${unansweredAtKill} not yet answered), ` +
        `received ${agentSends.length}, distinct ${byOurId.size}, twice ${twice}, lost ${lost}, webhook deliveries ${fake.deliveries.attempts} (ok ${fake.deliveries.ok})`,
    );
    expect(byOurId.has("")).toBe(false);
    expect(unansweredAtKill).toBeGreaterThan(0);
    expect(twice).toBe(0);
    expect(lost).toBe(0);
    expect(byOurId.size).toBe(OUTBOUND);
    expect([...byText.values()].every((n) => n === 1)).toBe(true);
    await fake.close();
  }, 600_000);
});
