import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactExtraInfo, contacts, messages, queues, quickAnswers, settings } from "../src/db/schema/index.js";
import {
  api,
  createQueue,
  customerSays,
  emitAck,
  listen,
  multipart,
  PNG,
  pairedSimulator,
  type SimConnection,
  socketFor,
} from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** Issue 12, items 9 and 10: NUL bytes and other C0 controls, and ids beyond 32 bits, answer 4xx or are cleaned; never 500. */

let t: TestApp;
let sim: SimConnection;
let ticketId: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const queue = await createQueue(t, "Suporte");
  sim = await pairedSimulator(t, { queueIds: [queue] });
  await customerSays(t, sim, "5511977770001", "oi");
  const list = await api(t, t.adminToken, "GET", "/tickets?showAll=true&searchParam=5511977770001");
  ticketId = list.body.tickets[0].id;
  await api(t, t.adminToken, "PUT", `/tickets/${ticketId}`, { status: "open" });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.teardown();
});

describe("NUL and C0 controls are stripped at the HTTP edge (item 9)", () => {
  it("a contact with NULs in its name and extra info is stored cleaned", async () => {
    const res = await api(t, t.adminToken, "POST", "/contacts", {
      name: "Ana\u0000 Maria",
      number: "5511977770002",
      extraInfo: [{ name: "cpf\u0000", value: "123\u0000.456" }],
    });
    expect(res.status).toBe(200);
    const [row] = await t.ctx.db.select().from(contacts).where(eq(contacts.id, res.body.id));
    expect(row.name).toBe("Ana Maria");
    const [info] = await t.ctx.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, res.body.id));
    expect(info).toMatchObject({ name: "cpf", value: "123.456" });
  });

  it("a quick answer and a queue keep tab and newline but lose the other controls", async () => {
    const qa = await api(t, t.adminToken, "POST", "/quickAnswers", {
      shortcut: "nul\u0000",
      message: "Olá\u0000,\ttudo\r\nbem?\u0007\u001b",
    });
    expect(qa.status).toBe(200);
    const [qaRow] = await t.ctx.db.select().from(quickAnswers).where(eq(quickAnswers.id, qa.body.id));
    expect(qaRow).toMatchObject({ shortcut: "nul", message: "Olá,\ttudo\r\nbem?" });
    const q = await api(t, t.adminToken, "POST", "/queue", {
      name: "Fila\u0000 Zero",
      color: "#abc123",
      greetingMessage: "Bem\u0000-vindo",
    });
    expect(q.status).toBe(200);
    const [qRow] = await t.ctx.db.select().from(queues).where(eq(queues.id, q.body.id));
    expect(qRow).toMatchObject({ name: "Fila Zero", greetingMessage: "Bem-vindo" });
  });

  it("a setting, a search and a path parameter with NULs answer without a database error", async () => {
    const s = await api(t, t.adminToken, "PUT", "/settings/mail_host", { value: "smtp\u0000.example.com" });
    expect(s.status).toBe(200);
    const [row] = await t.ctx.db.select().from(settings).where(eq(settings.key, "mail_host"));
    expect(row.value).toBe("smtp.example.com");
    expect((await api(t, t.adminToken, "GET", "/contacts?searchParam=Ana%00Maria")).status).toBe(200);
    expect((await api(t, t.adminToken, "GET", "/tickets?searchParam=%00")).status).toBe(200);
    expect((await api(t, t.adminToken, "PUT", "/settings/mail%00host", { value: "x" })).status).toBe(404);
  });

  it("an agent's message with a NUL is sent and stored cleaned", async () => {
    const res = await api(t, t.adminToken, "POST", `/messages/${ticketId}`, { body: "linha\u0000 um" });
    expect(res.status).toBe(200);
    const [row] = await t.ctx.db.select().from(messages).where(eq(messages.id, res.body[0].id));
    expect(row.body).toBe("linha um");
  });

  it("a multipart caption with a NUL is stored cleaned", async () => {
    const form = multipart({ body: "legenda\u0000 da foto" }, [{ field: "medias", name: "foto\u0000.png", type: "image/png", data: PNG }]);
    const res = await t.app.inject({
      method: "POST",
      url: `/messages/${ticketId}`,
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.ctx.db.select().from(messages).where(eq(messages.id, res.json()[0].id));
    expect(row.body).toBe("legenda da foto");
  });
});

describe("ids are positive 32-bit integers (item 10)", () => {
  it("ids of 2^31 and beyond in paths answer 400, not 500", async () => {
    for (const url of ["/tickets/2147483648", "/contacts/99999999999", "/users/1e308", "/queue/2147483648", "/messages/2147483648"]) {
      const res = await api(t, t.adminToken, "GET", url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe("ERR_VALIDATION");
    }
    expect((await api(t, t.adminToken, "GET", "/tickets/2147483647")).status).toBe(404);
  });

  it("ids of 2^31 and beyond in bodies and queries answer 400", async () => {
    const cases: [string, string, unknown][] = [
      ["PUT", `/tickets/${ticketId}`, { userId: 2147483648 }],
      ["PUT", `/tickets/${ticketId}`, { queueId: 1e308 }],
      ["POST", "/tickets", { contactId: 2 ** 40 }],
      ["PUT", `/tickets/${ticketId}/tags`, { tagIds: [2147483648] }],
      ["GET", "/tickets?userId=2147483648", undefined],
      ["GET", "/tickets?queueIds=[2147483648]", undefined],
      ["GET", "/tickets?pageNumber=1e308", undefined],
      ["GET", "/contacts?pageNumber=99999999999", undefined],
    ];
    for (const [method, url, body] of cases) {
      const res = await api(t, t.adminToken, method as "GET", url, body);
      expect(res.status, `${method} ${url}`).toBe(400);
    }
  });

  it("joinChatBox with 1e308, a negative or a fractional id answers not found, not an internal error", async () => {
    const s = await socketFor(await listen(t), t.adminToken);
    sockets.push(s);
    for (const id of [1e308, 2 ** 31, -1, 1.5, "1e308", Number.NaN, null]) {
      expect(await emitAck(s, "joinChatBox", id), String(id)).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    }
    expect(await emitAck(s, "joinChatBox", ticketId)).toEqual({ ok: true });
  });
});
