import { io as ioClient, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let socket: Socket;
let agentSocket: Socket;
let agent: { id: number; token: string };
const received: { event: string; payload: any }[] = [];
const agentReceived: { event: string; payload: any }[] = [];

const connect = (url: string, token: string) =>
  new Promise<Socket>((resolve, reject) => {
    const s = ioClient(url, { transports: ["websocket"], auth: { token }, reconnection: false });
    s.on("connect", () => resolve(s));
    s.on("connect_error", reject);
  });

beforeAll(async () => {
  t = await createTestApp();
  agent = await t.createUser({ name: "Agente" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  socket = await connect(url, t.adminToken);
  agentSocket = await connect(url, agent.token);
  socket.onAny((event, payload) => received.push({ event, payload }));
  agentSocket.onAny((event, payload) => agentReceived.push({ event, payload }));
});
afterAll(async () => {
  socket.close();
  agentSocket.close();
  await t.teardown();
});

async function until<T>(fn: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never received ${what}`);
}
const seen = (list: typeof received, event: string, match: (p: any) => boolean) => () =>
  list.find((r) => r.event === event && match(r.payload));

describe("CRUD events reach signed-in sockets with { action, ... } payloads", () => {
  it("contact create, update and delete", async () => {
    const c = (
      await t.app.inject({
        method: "POST",
        url: "/contacts",
        headers: bearer(agent.token),
        payload: { name: "Live", number: "5511912340000" },
      })
    ).json();
    await until(
      seen(received, "contact", (p) => p.action === "create" && p.contact.id === c.id),
      "contact create",
    );
    await t.app.inject({ method: "PUT", url: `/contacts/${c.id}`, headers: bearer(agent.token), payload: { name: "Live 2" } });
    await until(
      seen(agentReceived, "contact", (p) => p.action === "update" && p.contact.name === "Live 2"),
      "contact update",
    );
    await t.app.inject({ method: "DELETE", url: `/contacts/${c.id}`, headers: bearer(t.adminToken) });
    await until(
      seen(agentReceived, "contact", (p) => p.action === "delete" && p.contactId === c.id),
      "contact delete",
    );
  });

  it("user, quick answer and settings updates", async () => {
    await t.app.inject({ method: "PUT", url: `/users/${agent.id}`, headers: bearer(t.adminToken), payload: { name: "Agente Novo" } });
    const u = await until(
      seen(received, "user", (p) => p.action === "update" && p.user.id === agent.id),
      "user update",
    );
    expect(u.payload.user).not.toHaveProperty("passwordHash");
    const qa = (
      await t.app.inject({
        method: "POST",
        url: "/quickAnswers",
        headers: bearer(agent.token),
        payload: { shortcut: "ola", message: "Olá, tudo bem?" },
      })
    ).json();
    await until(
      seen(received, "quickAnswer", (p) => p.action === "create" && p.quickAnswer.id === qa.id),
      "quickAnswer create",
    );
    await t.app.inject({ method: "PUT", url: "/settings/darkMode", headers: bearer(t.adminToken), payload: { value: "enabled" } });
    await until(
      seen(agentReceived, "settings", (p) => p.action === "update" && p.setting.key === "darkMode" && p.setting.value === "enabled"),
      "settings",
    );
  });

  it("a deleted user's socket is disconnected", async () => {
    const leaving = await t.createUser({ name: "Saindo" });
    const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const s = await connect(url, leaving.token);
    const closed = new Promise<string>((resolve) => s.on("disconnect", (reason) => resolve(reason)));
    await t.app.inject({ method: "DELETE", url: `/users/${leaving.id}`, headers: bearer(t.adminToken) });
    expect(await closed).toBe("io server disconnect");
  });
});
