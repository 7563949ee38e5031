import { PAGE_SIZE } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ackReaches,
  api,
  createQueue,
  customerSays,
  multipart,
  PNG,
  pairedSimulator,
  phoneOf,
  type SimConnection,
  emitAck,
  listen,
  nextEvent,
  recorder,
  settle,
  socketFor,
} from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let sim: SimConnection;
let agent: { id: number; token: string };
let queue: number;

beforeAll(async () => {
  t = await createTestApp();
  queue = await createQueue(t, "Suporte");
  agent = await t.createUser({ name: "Ana", queueIds: [queue] });
  sim = await pairedSimulator(t, { queueIds: [queue] });
});
afterAll(() => t.teardown());

let n = 0;
async function openTicket(messagesFromCustomer: string[] = ["oi"]) {
  const number = `55119200${String(++n).padStart(5, "0")}`;
  for (const body of messagesFromCustomer) await customerSays(t, sim, number, body);
  const res = await t.ctx.db.execute<{ id: number }>(
    sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ${number} and t.status <> 'closed'`,
  );
  const id = res.rows[0].id;
  await api(t, agent.token, "PUT", `/tickets/${id}`, { status: "open" });
  return { id, number };
}

describe("GET /messages/:ticketId", () => {
  it("pages from the newest, each page in chronological order, and marks the ticket read", async () => {
    const bodies = Array.from({ length: 7 }, (_, i) => `m${i + 1}`);
    const tk = await openTicket(bodies);
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body.unreadMessages).toBe(7);
    const p1 = await api(t, agent.token, "GET", `/messages/${tk.id}?pageNumber=1&rowsPerPage=3`);
    expect(p1.status).toBe(200);
    expect(p1.body.messages.map((m: { body: string }) => m.body)).toEqual(["m5", "m6", "m7"]);
    expect(p1.body).toMatchObject({ count: 7, hasMore: true, ticket: { id: tk.id, unreadMessages: 0 } });
    const p3 = await api(t, agent.token, "GET", `/messages/${tk.id}?pageNumber=3&rowsPerPage=3`);
    expect(p3.body.messages.map((m: { body: string }) => m.body)).toEqual(["m1"]);
    expect(p3.body).toMatchObject({ count: 7, hasMore: false });
    // past the last page: no messages, and still how many the ticket holds
    const p4 = await api(t, agent.token, "GET", `/messages/${tk.id}?pageNumber=4&rowsPerPage=3`);
    expect(p4.body).toMatchObject({ messages: [], count: 7, hasMore: false });
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body.unreadMessages).toBe(0);
    const read = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from messages where ticket_id = ${tk.id} and not read`,
    );
    expect(read.rows[0].n).toBe(0);
    const capped = await api(t, agent.token, "GET", `/messages/${tk.id}?rowsPerPage=100000`);
    expect(capped.status).toBe(200);
    expect(capped.body.messages.length).toBeLessThanOrEqual(PAGE_SIZE.messages.max);
  });

  it("POST /messages/:ticketId/read: what arrives in the chat an agent is reading is read (count cleared, messages read, everyone told)", async () => {
    const tk = await openTicket(["oi"]);
    await api(t, agent.token, "GET", `/messages/${tk.id}`);
    await customerSays(t, sim, tk.number, "chegou agora");
    await customerSays(t, sim, tk.number, "e mais isto");
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body.unreadMessages).toBe(2);
    const cleared = nextEvent(t, "ticket.unreadCleared", (p) => p.ticket.id === tk.id);
    const res = await api(t, agent.token, "POST", `/messages/${tk.id}/read`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tk.id, unreadMessages: 0 });
    await cleared;
    const unread = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from messages where ticket_id = ${tk.id} and not read`,
    );
    expect(unread.rows[0].n).toBe(0);
    // nothing new: the same answer, nothing announced
    expect((await api(t, agent.token, "POST", `/messages/${tk.id}/read`)).body.unreadMessages).toBe(0);
    // an agent of another queue may not read it; unknown tickets are not found
    const outsider = await t.createUser({ name: "Fora", queueIds: [await createQueue(t, "Outra")] });
    await customerSays(t, sim, tk.number, "mais uma");
    expect((await api(t, outsider.token, "POST", `/messages/${tk.id}/read`)).status).toBe(403);
    expect((await api(t, agent.token, "GET", `/tickets/${tk.id}`)).body.unreadMessages).toBe(1);
    expect((await api(t, agent.token, "POST", "/messages/999999/read")).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
    expect((await t.app.inject({ method: "POST", url: `/messages/${tk.id}/read` })).statusCode).toBe(401);
  });

  it("answers ERR_NO_TICKET_FOUND for an unknown ticket and 400 for a bad id", async () => {
    expect((await api(t, agent.token, "GET", "/messages/999999")).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
    expect((await api(t, agent.token, "GET", "/messages/abc")).status).toBe(400);
  });
});

/** A message as GET /messages/:ticketId shows it. */
async function storedMessage(ticketId: number, id: number) {
  const list = await api(t, agent.token, "GET", `/messages/${ticketId}`);
  return list.body.messages.find((m: { id: number }) => m.id === id);
}
const withoutAcks = ({ ack: _a, updatedAt: _u, ...m }: Record<string, unknown>) => m;

describe("POST /messages/:ticketId", () => {
  it("sends text with a quoted message to the customer's phone; acks advance to delivered, then read", async () => {
    const tk = await openTicket(["qual o prazo?"]);
    const list = await api(t, agent.token, "GET", `/messages/${tk.id}`);
    const question = list.body.messages[0];
    const res = await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "*Ana:*\nAté amanhã", quotedMsg: { id: question.id } });
    expect(res.status).toBe(200);
    const [sent] = res.body;
    // answered from the commit: stored with the clock, before anything reached the phone
    expect(sent).toMatchObject({ fromMe: true, body: "*Ana:*\nAté amanhã", ack: 0, quotedMsg: { id: question.id, body: "qual o prazo?" } });
    // the answer is the message as stored: what a read of it shows (but the acks, which move on)
    expect(withoutAcks(sent)).toEqual(withoutAcks(await storedMessage(tk.id, sent.id)));
    await settle(t);
    const phone = await phoneOf(sim, tk.number);
    const onPhone = phone[phone.length - 1];
    expect(onPhone).toMatchObject({ fromMe: true, body: "*Ana:*\nAté amanhã", quotedId: question.wid });
    // sent with the id it was stored with; the simulated phone reports server (1) and delivered (2) acks by itself
    expect(onPhone.id).toBe(sent.wid);
    await ackReaches(t, sent.id, 2);
    const updates: { id: number; ack: number }[] = [];
    const off = t.ctx.events.on("message.updated", ({ message }) => {
      if (message.id === sent.id) updates.push(message);
    });
    await sim.session.customerRead(tk.number);
    await t.channels.idle();
    off();
    // the tick's event carries the whole message as a read shows it (quoted message included)
    expect(updates.at(-1)).toMatchObject({ ack: 3, quotedMsg: { id: question.id, body: "qual o prazo?" } });
    expect(updates.at(-1)).toEqual(await storedMessage(tk.id, sent.id));
    expect((await t.ctx.db.execute<{ ack: number }>(sql`select ack from messages where id = ${sent.id}`)).rows[0].ack).toBe(3);
    // the list shows the words as a person reads them, without the signature markup
    const ticket = await api(t, agent.token, "GET", `/tickets/${tk.id}`);
    expect(ticket.body.lastMessage).toBe("Até amanhã");
  });

  it("accepts what the original web client posts (read: 1, fromMe, mediaUrl, quotedMsg: null) and stays strict on the rest", async () => {
    const tk = await openTicket(["posso pagar amanhã?"]);
    const original = { read: 1, fromMe: true, mediaUrl: "", body: "Pode sim", quotedMsg: null };
    const res = await api(t, agent.token, "POST", `/messages/${tk.id}`, original);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body[0]).toMatchObject({ fromMe: true, body: "Pode sim", ack: 0 });
    await settle(t);
    const phone = await phoneOf(sim, tk.number);
    expect(phone[phone.length - 1]).toMatchObject({ fromMe: true, body: "Pode sim" });
    expect((await api(t, agent.token, "POST", `/messages/${tk.id}`, { ...original, read: 0, fromMe: 0, extra: "ignored" })).status).toBe(
      200,
    );
    // what matters stays strict
    const bad = [
      { ...original, read: "yes" },
      { ...original, read: 2 },
      { ...original, body: 42 },
      { ...original, quotedMsg: { id: "abc" } },
      { ...original, body: "x".repeat(70_000) },
    ];
    for (const payload of bad) {
      const r = await api(t, agent.token, "POST", `/messages/${tk.id}`, payload);
      expect(r.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(r.body.error).toBe("ERR_VALIDATION");
    }
  });

  it("sends an image checked by content; a file that is not what it claims is refused", async () => {
    const tk = await openTicket();
    const form = multipart({ body: "segue o print" }, [{ field: "medias", name: "print.png", type: "image/png", data: PNG }]);
    const res = await t.app.inject({
      method: "POST",
      url: `/messages/${tk.id}`,
      headers: { ...bearer(agent.token), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    const [m] = res.json();
    expect(m).toMatchObject({ mediaType: "image", body: "segue o print", fileName: "print.png", mimetype: "image/png" });
    expect(m.mediaUrl).toMatch(/^\/media\/[a-f0-9]{32}\.png$/);
    expect(withoutAcks(m)).toEqual(withoutAcks(await storedMessage(tk.id, m.id)));
    expect((await t.app.inject({ method: "GET", url: m.mediaUrl })).rawPayload.equals(PNG)).toBe(true);
    await settle(t);
    const onPhone = (await phoneOf(sim, tk.number)).at(-1);
    expect(onPhone).toMatchObject({ mediaType: "image", body: "segue o print", mimetype: "image/png" });

    const fake = multipart({}, [{ field: "medias", name: "virus.png", type: "image/png", data: Buffer.from("<script>alert(1)</script>") }]);
    const bad = await t.app.inject({
      method: "POST",
      url: `/messages/${tk.id}`,
      headers: { ...bearer(agent.token), ...fake.headers },
      payload: fake.payload,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_INVALID_FILE");
  });

  it("refuses an empty text and a ticket that is not open; a connection that is down keeps the message and sends it on reconnect", async () => {
    const tk = await openTicket();
    expect((await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "   " })).status).toBe(400);
    await api(t, agent.token, "PUT", `/tickets/${tk.id}`, { status: "closed" });
    expect((await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "oi" })).body).toEqual({ error: "ERR_TICKET_NOT_OPEN" });

    const down = await pairedSimulator(t, { name: "Caída", queueIds: [queue] });
    const number = "5511929999999";
    await customerSays(t, down, number, "oi");
    const res = await t.ctx.db.execute<{ id: number }>(
      sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ${number}`,
    );
    const id = res.rows[0].id;
    await api(t, agent.token, "PUT", `/tickets/${id}`, { status: "open" });
    await api(t, t.adminToken, "DELETE", `/whatsappsession/${down.whatsappId}`);
    const held = await api(t, agent.token, "POST", `/messages/${id}`, { body: "ainda aí?" });
    expect(held.status).toBe(200);
    expect(held.body[0]).toMatchObject({ ack: 0, sendError: null });
    await settle(t);
    expect((await phoneOf(down, number)).some((m) => m.body === "ainda aí?")).toBe(false);
    // paired again: the queue resumes, the message goes out with its id
    await api(t, t.adminToken, "PUT", `/whatsappsession/${down.whatsappId}`);
    await t.channels.idle();
    const again = t.simulator.get(down.whatsappId);
    expect(await again?.scan(again.qrcode)).toBe(true);
    await settle(t);
    expect((await phoneOf(down, number)).filter((m) => m.body === "ainda aí?").map((m) => m.id)).toEqual([held.body[0].wid]);
  });
});

describe("DELETE /messages/:id and typing", () => {
  it("an agent's message is deleted for everyone and marked isDeleted; a customer's is refused", async () => {
    const tk = await openTicket(["mensagem do cliente"]);
    const sent = (await api(t, agent.token, "POST", `/messages/${tk.id}`, { body: "errei" })).body[0];
    await settle(t);
    await ackReaches(t, sent.id, 1);
    const res = await api(t, agent.token, "DELETE", `/messages/${sent.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sent.id, isDeleted: true, body: "" });
    expect((await phoneOf(sim, tk.number)).find((m) => m.id === sent.wid)?.isDeleted).toBe(true);
    const customerMsg = (await api(t, agent.token, "GET", `/messages/${tk.id}`)).body.messages.find((m: { fromMe: boolean }) => !m.fromMe);
    expect((await api(t, agent.token, "DELETE", `/messages/${customerMsg.id}`)).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api(t, agent.token, "DELETE", "/messages/999999")).body).toEqual({ error: "ERR_NO_MESSAGE_FOUND" });
  });

  it("typing reaches who watches the ticket: the customer's (no name), another agent's (their name), never one's own", async () => {
    const tk = await openTicket();
    const url = await listen(t);
    const anaSocket = await socketFor(url, agent.token);
    const adminSocket = await socketFor(url, t.adminToken);
    try {
      for (const s of [anaSocket, adminSocket]) expect(await emitAck(s, "joinChatBox", tk.id)).toEqual({ ok: true });
      const anaHears = recorder<{ ticketId: number; typing: boolean; name?: string }>(anaSocket, "typing");
      const adminHears = recorder<{ ticketId: number; typing: boolean; name?: string }>(adminSocket, "typing");
      await api(t, t.adminToken, "POST", `/simulator/api/connections/${sim.whatsappId}/chats/${tk.number}/typing`, { typing: true });
      await anaHears.waitFor((p) => p.ticketId === tk.id && p.typing && p.name === undefined);
      await api(t, agent.token, "POST", `/digitando/${tk.id}`);
      await adminHears.waitFor((p) => p.ticketId === tk.id && p.typing && p.name === "Ana");
      await api(t, agent.token, "POST", `/digitando/stop/${tk.id}`);
      await adminHears.waitFor((p) => p.ticketId === tk.id && !p.typing && p.name === "Ana");
      expect(anaHears.seen.filter((p) => p.name === "Ana")).toEqual([]);
    } finally {
      anaSocket.close();
      adminSocket.close();
    }
  });

  it("POST /digitando starts and stops the typing indicator on the customer's phone", async () => {
    const tk = await openTicket();
    expect((await api(t, agent.token, "POST", `/digitando/${tk.id}`)).body).toEqual({ typing: true, delivered: true });
    expect(sim.session.typing.has(tk.number)).toBe(true);
    expect((await api(t, agent.token, "POST", `/digitando/stop/${tk.id}`)).body).toEqual({ typing: false, delivered: true });
    expect(sim.session.typing.has(tk.number)).toBe(false);
  });
});
