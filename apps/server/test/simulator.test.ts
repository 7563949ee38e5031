import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../src/config.js";
import { ackReaches, api, createQueue, multipart, PNG, settle } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let agent: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp();
  agent = await t.createUser({ name: "Ana" });
});
afterAll(() => t.teardown());

describe("the simulator page and API", () => {
  it("serves the page; its API is for admins", async () => {
    const page = await t.app.inject({ method: "GET", url: "/simulator" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("Simulador de WhatsApp");
    // the badges say a connection's status in the web's words ("Aguardando QR Code", not "qrcode")
    expect(page.body).toContain('"qrcode":"Aguardando QR Code"');
    expect(page.body).toContain('"CONNECTED":"Conectado"');
    expect(page.body).toContain("textContent: STATUS_LABELS[c.status] || c.status");
    expect((await api(t, agent.token, "GET", "/simulator/api/connections")).status).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/simulator/api/connections" })).statusCode).toBe(401);
  });

  it("creates and pairs a connection, then a customer writes text and an image and reads the agent's reply", async () => {
    const queue = await createQueue(t, "Suporte", "Olá do suporte");
    const created = await api(t, t.adminToken, "POST", "/simulator/api/connections", { name: "Sim Página", queueIds: [queue] });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    // the session's first status (its QR code) is stored as the session reports it, after the answer
    await t.channels.idle();
    const [conn] = (await api(t, t.adminToken, "GET", "/simulator/api/connections")).body;
    expect(conn).toMatchObject({ id, status: "qrcode" });
    expect((await api(t, t.adminToken, "POST", `/simulator/api/connections/${id}/scan`, { qrcode: "wrong" })).status).toBe(400);
    expect((await api(t, t.adminToken, "POST", `/simulator/api/connections/${id}/scan`, { qrcode: conn.qrcode })).body).toEqual({
      ok: true,
    });
    await t.channels.idle();
    expect((await api(t, t.adminToken, "GET", "/simulator/api/connections")).body[0].status).toBe("CONNECTED");

    const sent = await api(t, t.adminToken, "POST", `/simulator/api/connections/${id}/messages`, {
      number: "(11) 97777-0001",
      name: "Zé",
      body: "oi",
    });
    expect(sent.body.id).toMatch(/^SIMIN/);
    const form = multipart({ number: "11977770001", name: "Zé", body: "foto" }, [
      { field: "file", name: "f.png", type: "image/png", data: PNG },
    ]);
    const withImage = await t.app.inject({
      method: "POST",
      url: `/simulator/api/connections/${id}/messages`,
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(withImage.statusCode).toBe(200);
    await t.channels.idle();
    expect((await api(t, t.adminToken, "POST", `/simulator/api/connections/${id}/messages`, { number: "123", body: "x" })).status).toBe(
      400,
    );

    const tickets = await api(t, t.adminToken, "GET", "/tickets?showAll=true&searchParam=77770001");
    const ticket = tickets.body.tickets[0];
    expect(ticket).toMatchObject({ contact: { name: "Zé", number: "5511977770001" }, queueId: queue });
    const msgs = (await api(t, t.adminToken, "GET", `/messages/${ticket.id}`)).body.messages;
    expect(msgs.map((m: { mediaType: string; body: string }) => [m.mediaType, m.body])).toEqual([
      ["chat", "oi"],
      ["image", "foto"],
    ]);

    await api(t, t.adminToken, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    const [reply] = (await api(t, t.adminToken, "POST", `/messages/${ticket.id}`, { body: "Olá Zé" })).body;
    await settle(t);
    await ackReaches(t, reply.id, 2);
    const chat = (await api(t, t.adminToken, "GET", `/simulator/api/connections/${id}/chats/5511977770001`)).body;
    expect(chat.messages.at(-1)).toMatchObject({ fromMe: true, body: "Olá Zé", ack: 2 });
    expect(chat.messages[1]).toMatchObject({ mediaType: "image", hasMedia: true });
    const media = await t.app.inject({
      method: "GET",
      url: `/simulator/api/connections/${id}/chats/5511977770001/media/${chat.messages[1].id}`,
      headers: bearer(t.adminToken),
    });
    expect(media.rawPayload.equals(PNG)).toBe(true);
    expect((await api(t, t.adminToken, "POST", `/simulator/api/connections/${id}/chats/5511977770001/read`)).body).toEqual({ read: 1 });
    await t.channels.idle();
    const last = (await api(t, t.adminToken, "GET", `/messages/${ticket.id}`)).body.messages.at(-1);
    expect(last).toMatchObject({ body: "Olá Zé", ack: 3 });
    const list = (await api(t, t.adminToken, "GET", `/simulator/api/connections/${id}/chats`)).body;
    expect(list).toEqual([expect.objectContaining({ number: "5511977770001", name: "Zé", last: "Olá Zé" })]);
  });
});

describe("in production", () => {
  it("the simulator is off unless ENABLE_SIMULATOR=true", async () => {
    const prod = await createTestApp({ NODE_ENV: "production", ADMIN_EMAIL: DEMO_ADMIN.email, ADMIN_PASSWORD: DEMO_ADMIN.password });
    try {
      expect((await prod.app.inject({ method: "GET", url: "/simulator" })).statusCode).toBe(404);
      expect((await api(prod, prod.adminToken, "GET", "/simulator/api/connections")).status).toBe(404);
    } finally {
      await prod.teardown();
    }
    const enabled = await createTestApp({
      NODE_ENV: "production",
      ENABLE_SIMULATOR: "true",
      ADMIN_EMAIL: DEMO_ADMIN.email,
      ADMIN_PASSWORD: DEMO_ADMIN.password,
    });
    try {
      expect((await enabled.app.inject({ method: "GET", url: "/simulator" })).statusCode).toBe(200);
    } finally {
      await enabled.teardown();
    }
  }, 180_000);
});
