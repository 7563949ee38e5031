import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { whatsapps } from "../src/db/schema/index.js";
import { createAuthStateStore } from "../src/modules/connections/auth-state.js";
import { api, createQueue, listen, pairedSimulator, recorder, socketFor } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let agent: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp();
  agent = await t.createUser({ name: "Ana" });
});
afterAll(() => t.teardown());

const create = (body: Record<string, unknown>, token = t.adminToken) => api(t, token, "POST", "/whatsapp", { type: "simulator", ...body });

describe("/whatsapp", () => {
  it("writes are for admins; reads never answer the API token, only whether one is set", async () => {
    expect((await create({ name: "Nope" }, agent.token)).status).toBe(403);
    const res = await create({ name: "Principal", token: "segredo-da-api" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Principal", type: "simulator", isDefault: true, hasToken: true });
    expect(JSON.stringify(res.body)).not.toContain("segredo-da-api");
    // the session starts on its own and shows a QR (its status lands a moment after the answer)
    let shown = res.body as { status: string; qrcode: string };
    for (let i = 0; i < 100 && !(shown.status === "qrcode" && shown.qrcode); i++) {
      await new Promise((r) => setTimeout(r, 20));
      shown = (await api(t, t.adminToken, "GET", `/whatsapp/${res.body.id}`)).body;
    }
    expect(shown.status).toBe("qrcode");
    expect(shown.qrcode).not.toBe("");
    const asAgent = await api(t, agent.token, "GET", "/whatsapp");
    expect(asAgent.body[0]).toMatchObject({ name: "Principal", hasToken: true });
    expect(asAgent.body[0]).not.toHaveProperty("token");
    expect((await api(t, agent.token, "PUT", `/whatsapp/${res.body.id}`, { name: "Xavier" })).status).toBe(403);
    expect((await api(t, agent.token, "DELETE", `/whatsapp/${res.body.id}`)).status).toBe(403);
    expect((await api(t, agent.token, "POST", `/whatsappsession/${res.body.id}`)).status).toBe(403);
  });

  it("exactly one default: a new default takes the flag, the default cannot be unset, deleting it promotes the oldest", async () => {
    const list0 = (await api(t, t.adminToken, "GET", "/whatsapp")).body as { id: number; isDefault: boolean }[];
    const first = list0.find((w) => w.isDefault)?.id as number;
    const second = (await create({ name: "Segunda" })).body;
    expect(second.isDefault).toBe(false);
    const third = (await create({ name: "Terceira", isDefault: true })).body;
    expect(third.isDefault).toBe(true);
    const defaults = async () =>
      ((await api(t, t.adminToken, "GET", "/whatsapp")).body as { id: number; isDefault: boolean }[])
        .filter((w) => w.isDefault)
        .map((w) => w.id);
    expect(await defaults()).toEqual([third.id]);
    const unset = await api(t, t.adminToken, "PUT", `/whatsapp/${third.id}`, { isDefault: false });
    expect(unset.status).toBe(400);
    expect(unset.body).toEqual({ error: "ERR_NO_OTHER_WHATSAPP" });
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${second.id}`, { isDefault: true })).body.isDefault).toBe(true);
    expect(await defaults()).toEqual([second.id]);
    expect((await api(t, t.adminToken, "DELETE", `/whatsapp/${second.id}`)).status).toBe(200);
    expect(await defaults()).toEqual([first]);
  });

  it("validates: name, duplicate name, greeting required with several queues, unknown queue", async () => {
    expect((await create({ name: "A" })).body).toMatchObject({ error: "ERR_VALIDATION", fields: { name: ["Too Short!"] } });
    expect((await create({ name: "principal" })).body).toEqual({ error: "ERR_WAPP_NAME_ALREADY_EXISTS" });
    const q1 = await createQueue(t, "Um");
    const q2 = await createQueue(t, "Dois");
    expect((await create({ name: "Menu", queueIds: [q1, q2] })).body).toEqual({ error: "ERR_WAPP_GREETING_REQUIRED" });
    const ok = await create({ name: "Menu", queueIds: [q1, q2], greetingMessage: "Olá" });
    expect(ok.body.queues.map((q: { id: number }) => q.id).sort()).toEqual([q1, q2].sort());
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${ok.body.id}`, { greetingMessage: "" })).body).toEqual({
      error: "ERR_WAPP_GREETING_REQUIRED",
    });
    expect((await create({ name: "Fila fantasma", queueIds: [999999] })).body).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
    expect((await api(t, t.adminToken, "GET", "/whatsapp/999999")).body).toEqual({ error: "ERR_NO_WAPP_FOUND" });
  });

  it("send settings: the pace of unsolicited sends and the reply typing gap have their defaults, are saved, and are validated", async () => {
    const made = await create({ name: "Ritmo" });
    expect(made.body).toMatchObject({ sendIntervalMs: 1000, sendJitterMs: 1500, sendBurst: 3, replyGapMs: 300 });
    expect((await api(t, t.adminToken, "PUT", `/whatsapp/${made.body.id}`, { replyGapMs: 800 })).body).toMatchObject({ replyGapMs: 800 });
    expect((await api(t, t.adminToken, "GET", `/whatsapp/${made.body.id}`)).body.replyGapMs).toBe(800);
    for (const replyGapMs of [-1, 10_001, 1.5, "300"]) {
      const res = await api(t, t.adminToken, "PUT", `/whatsapp/${made.body.id}`, { replyGapMs });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "ERR_VALIDATION", fields: { replyGapMs: expect.any(Array) } });
    }
    expect((await api(t, t.adminToken, "GET", `/whatsapp/${made.body.id}`)).body.replyGapMs).toBe(800);
  });

  it("bot settings: the API key is write-only; blank keeps it", async () => {
    const w = (await create({ name: "Bot" })).body;
    const bad = await api(t, t.adminToken, "PUT", `/typebot/settings/${w.id}`, { enabled: true, baseUrl: "", slug: "" });
    expect(bad.status).toBe(400);
    const saved = await api(t, t.adminToken, "PUT", `/typebot/settings/${w.id}`, {
      enabled: true,
      baseUrl: "https://bot.example",
      slug: "suporte",
      apiKey: "k-123",
    });
    expect(saved.body).toEqual({
      enabled: true,
      baseUrl: "https://bot.example",
      slug: "suporte",
      hasApiKey: true,
      expiryMinutes: 30,
      endKeyword: "",
      unknownMessage: "",
      delayMs: 1000,
    });
    const kept = await api(t, t.adminToken, "PUT", `/typebot/settings/${w.id}`, {
      enabled: false,
      baseUrl: "https://bot.example",
      slug: "suporte",
      apiKey: "",
    });
    expect(kept.body.hasApiKey).toBe(true);
    expect(JSON.stringify((await api(t, t.adminToken, "GET", `/whatsapp/${w.id}`)).body)).not.toContain("k-123");
    expect((await api(t, agent.token, "GET", `/typebot/settings/${w.id}`)).status).toBe(403);
  });
});

describe("/whatsappsession", () => {
  it("pairs by QR, disconnects (auth forgotten), reconnects with a new QR, and PUT asks for a fresh QR", async () => {
    const sim = await pairedSimulator(t, { name: "Sessão" });
    const status = async () => (await api(t, t.adminToken, "GET", `/whatsapp/${sim.whatsappId}`)).body;
    expect(await status()).toMatchObject({ status: "CONNECTED", qrcode: "", number: expect.stringMatching(/^\d+$/) });
    // a restart keeps the pairing (auth stored in whatsapp_auth_keys)
    await api(t, t.adminToken, "POST", `/whatsappsession/${sim.whatsappId}`);
    await t.channels.idle();
    expect((await status()).status).toBe("CONNECTED");
    expect((await api(t, t.adminToken, "DELETE", `/whatsappsession/${sim.whatsappId}`)).status).toBe(200);
    await t.channels.idle();
    expect((await status()).status).toBe("DISCONNECTED");
    await api(t, t.adminToken, "POST", `/whatsappsession/${sim.whatsappId}`);
    await t.channels.idle();
    const qr1 = await status();
    expect(qr1.status).toBe("qrcode");
    await api(t, t.adminToken, "PUT", `/whatsappsession/${sim.whatsappId}`);
    await t.channels.idle();
    const qr2 = await status();
    expect(qr2.status).toBe("qrcode");
    expect(qr2.qrcode).not.toBe(qr1.qrcode);
    const session = t.simulator.get(sim.whatsappId);
    expect(await session?.scan(qr1.qrcode)).toBe(false);
    expect(await session?.scan(qr2.qrcode)).toBe(true);
    await t.channels.idle();
    expect((await status()).status).toBe("CONNECTED");
  });

  it("the connection's number follows the phone: another phone's number after pairing again, none after a logout or while a new QR waits", async () => {
    const sim = await pairedSimulator(t, { name: "Troca de celular" });
    const status = async () => (await api(t, t.adminToken, "GET", `/whatsapp/${sim.whatsappId}`)).body;
    expect((await status()).number).toMatch(/^\d+$/);
    const socket = await socketFor(await listen(t), t.adminToken);
    const sessions = recorder<{ session: { id: number; status: string; number: string } }>(socket, "whatsappSession");
    const announced = (status: string, number: string) =>
      sessions.waitFor((p) => p.session.id === sim.whatsappId && p.session.status === status && p.session.number === number);
    try {
      // a new QR code: the old phone is unlinked
      await api(t, t.adminToken, "PUT", `/whatsappsession/${sim.whatsappId}`);
      await t.channels.idle();
      expect(await status()).toMatchObject({ status: "qrcode", number: "" });
      await announced("qrcode", "");
      // another phone scans it
      expect(await sim.session.scan((await status()).qrcode, "5511988887777")).toBe(true);
      await t.channels.idle();
      expect(await status()).toMatchObject({ status: "CONNECTED", number: "5511988887777" });
      await announced("CONNECTED", "5511988887777");
      // disconnected from the product: no phone any more
      await api(t, t.adminToken, "DELETE", `/whatsappsession/${sim.whatsappId}`);
      await t.channels.idle();
      expect(await status()).toMatchObject({ status: "DISCONNECTED", number: "" });
      await announced("DISCONNECTED", "");
    } finally {
      socket.close();
    }
  });
});

describe("auth state store", () => {
  it("writes all entries of a call together, deletes null values, and clears per connection", async () => {
    const a = (await create({ name: "Auth A" })).body.id as number;
    const b = (await create({ name: "Auth B" })).body.id as number;
    const storeA = createAuthStateStore(t.ctx.db, a);
    const storeB = createAuthStateStore(t.ctx.db, b);
    await storeA.set(new Map([["creds", "{}"], ...Array.from({ length: 600 }, (_, i) => [`pre-key:${i}`, `v${i}`] as [string, string])]));
    await storeB.set(new Map([["creds", "{b}"]]));
    expect((await storeA.get(["creds", "pre-key:599", "missing"])).size).toBe(2);
    await storeA.set(
      new Map<string, string | null>([
        ["pre-key:1", null],
        ["creds", "{new}"],
      ]),
    );
    const got = await storeA.get(["pre-key:1", "creds"]);
    expect(got.has("pre-key:1")).toBe(false);
    expect(got.get("creds")).toBe("{new}");
    // a failing write leaves nothing half-written
    const tooLong = new Map<string, string | null>([
      ["k1", "v1"],
      ["k2", null as unknown as string],
    ]);
    tooLong.set("k3", undefined as unknown as string);
    await expect(storeA.set(tooLong)).rejects.toThrow();
    expect((await storeA.get(["k1"])).size).toBe(0);
    await storeA.clear();
    expect((await storeA.get(["creds"])).size).toBe(0);
    expect((await storeB.get(["creds"])).get("creds")).toBe("{b}");
  });
});

describe("the message-API token is write-only (issue 12, item 13)", () => {
  it("GET never answers it; 'Gerar novo token' answers a new one once, for admins only", async () => {
    const w = (await create({ name: "Token Único", token: "antigo-token-123" })).body as { id: number };
    const read = await api(t, t.adminToken, "GET", `/whatsapp/${w.id}`);
    expect(read.body).toMatchObject({ hasToken: true });
    expect(read.body).not.toHaveProperty("token");
    expect(JSON.stringify(read.body)).not.toContain("antigo-token-123");

    expect((await api(t, agent.token, "POST", `/whatsapp/${w.id}/token`)).status).toBe(403);
    const s = await socketFor(await listen(t), t.adminToken);
    const events: unknown[] = [];
    s.on("whatsapp", (p: unknown) => events.push(p));
    const fresh = await api(t, t.adminToken, "POST", `/whatsapp/${w.id}/token`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const [row] = await t.ctx.db.select({ token: whatsapps.token }).from(whatsapps).where(eq(whatsapps.id, w.id));
    expect(row.token).toBe(fresh.body.token);
    // the announcement to admins' sockets says a token is set, not which
    await vi.waitFor(() => expect(events.length).toBeGreaterThan(0));
    expect(JSON.stringify(events)).not.toContain(fresh.body.token);
    expect(events[0]).toMatchObject({ action: "update", whatsapp: { id: w.id, hasToken: true } });
    s.disconnect();
    const again = await api(t, t.adminToken, "GET", "/whatsapp");
    expect(JSON.stringify(again.body)).not.toContain(fresh.body.token);
    expect((await api(t, t.adminToken, "POST", "/whatsapp/999999/token")).status).toBe(404);
  });
});
