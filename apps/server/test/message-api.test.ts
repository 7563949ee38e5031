import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  customerSays,
  eventually,
  multipart,
  PNG,
  pairedSimulator,
  phoneOf,
  type SimConnection,
  settle,
  ticketOfContact,
} from "./conversation-kit.js";
import { BAD_TOKENS_PER_MIN } from "../src/modules/message-api/routes.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * POST /api/messages/send: the connection's token in any of the three headers, the number's
 * shape, JSON and multipart, where the message is stored (the live ticket, else a closed one: no
 * waiting ticket opens), Idempotency-Key, and the per-token rate limit with Retry-After.
 */

const RATE = 8;
let t: TestApp;
let sim: SimConnection;
const TOKEN = "tok-api-principal";
let seq = 0;
const nextNumber = () => `55119600${String(++seq).padStart(5, "0")}`;

beforeAll(async () => {
  t = await createTestApp({ API_RATE_PER_MIN: String(RATE) });
  sim = await pairedSimulator(t);
  expect((await api(t, t.adminToken, "PUT", `/whatsapp/${sim.whatsappId}`, { token: TOKEN })).status).toBe(200);
});
afterAll(() => t.teardown());

/** A fresh limiter window per test: each test sends with its own connection's token when it sends many. */
async function send(headers: Record<string, string>, payload: object | { payload: Buffer; headers: Record<string, string> }) {
  const isMultipart = "payload" in payload && Buffer.isBuffer(payload.payload);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/messages/send",
    headers: { ...headers, ...(isMultipart ? (payload as { headers: Record<string, string> }).headers : {}) },
    payload: isMultipart ? (payload as { payload: Buffer }).payload : (payload as object),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

async function tokenedConnection(token: string) {
  const s = await pairedSimulator(t);
  expect((await api(t, t.adminToken, "PUT", `/whatsapp/${s.whatsappId}`, { token })).status).toBe(200);
  return s;
}

const fromMeOn = async (s: SimConnection, number: string) =>
  (await phoneOf(s, number)).filter((m: { fromMe: boolean }) => m.fromMe) as { body: string; mediaType?: string; id: string }[];

describe("POST /api/messages/send", () => {
  it("accepts the token as Bearer, X_TOKEN and X-Token; a wrong or missing token is 401", async () => {
    const s = await tokenedConnection("tok-headers");
    const number = nextNumber();
    const variants: Record<string, string>[] = [
      { authorization: "Bearer tok-headers" },
      { x_token: "tok-headers" },
      { "x-token": "tok-headers" },
    ];
    for (const h of variants) {
      const res = await send(h, { number, body: `via ${Object.keys(h)[0]}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ message: "Mensagem enviada com sucesso", id: expect.any(Number) });
    }
    await eventually(async () => (await fromMeOn(s, number)).length >= 3, "the three messages on the phone");
    await settle(t);
    expect((await fromMeOn(s, number)).map((m) => m.body)).toEqual(["via authorization", "via x_token", "via x-token"]);
    expect((await send({ authorization: "Bearer nao-existe" }, { number, body: "x" })).status).toBe(401);
    expect((await send({}, { number, body: "x" })).status).toBe(401);
    // a user's session token is not a connection token
    expect((await send({ authorization: `Bearer ${t.adminToken}` }, { number, body: "x" })).status).toBe(401);
  });

  it("the number is digits only with the country code; any other shape is 400 ERR_WAPP_INVALID_CONTACT", async () => {
    const s = await tokenedConnection("tok-numbers");
    const h = { authorization: "Bearer tok-numbers" };
    for (const bad of ["11987654321", "+55 11 98765-4321", "(11) 98765-4321", "55119876543210", "abc", ""]) {
      const res = await send(h, { number: bad, body: "x" });
      expect(res, bad).toMatchObject({ status: 400, body: { error: "ERR_WAPP_INVALID_CONTACT" } });
    }
    expect((await send(h, { number: "5511987650001", body: "" })).body.error).toBe("ERR_VALIDATION");
    expect((await send(h, { number: "551187650002", body: "fixo, 12 dígitos" })).status).toBe(200);
    // on the phone once the sender has taken it (a slow machine's sender may still be at it after one settle)
    await eventually(async () => (await fromMeOn(s, "551187650002")).length > 0, "the message on the phone");
    await settle(t);
    expect((await fromMeOn(s, "551187650002")).map((m) => m.body)).toEqual(["fixo, 12 dígitos"]);
  });

  it("a notification for a contact without a live ticket is stored on a closed ticket: no waiting ticket opens; the answer opens one with the history", async () => {
    const number = nextNumber();
    const res = await send({ authorization: `Bearer ${TOKEN}` }, { number, body: "Sua fatura de novembro está disponível." });
    expect(res.status).toBe(200);
    await settle(t);
    const tickets = await ticketOfContact(t, number);
    expect(tickets.map((x) => x.status)).toEqual(["closed"]);
    expect(tickets[0].id).toBe(res.body.ticketId);
    const pending = await api(t, t.adminToken, "GET", "/tickets?status=pending&showAll=true&rowsPerPage=100");
    expect(pending.body.tickets.some((x: { contact: { number: string } }) => x.contact.number === number)).toBe(false);
    const stored = await t.ctx.db.execute<{ source: string; ticket_id: number }>(
      sql`select source, ticket_id from messages where id = ${res.body.id}`,
    );
    expect(stored.rows[0]).toEqual({ source: "api", ticket_id: res.body.ticketId });

    await customerSays(t, sim, number, "obrigado, já paguei");
    const after = await ticketOfContact(t, number);
    const live = after.find((x) => x.status === "pending");
    expect(live).toBeDefined();
    const history = await api(t, t.adminToken, "GET", `/messages/${live.id}`);
    expect(history.status).toBe(200);
  });

  it("with a live ticket, the message is stored on it", async () => {
    const number = nextNumber();
    await customerSays(t, sim, number, "oi");
    const [ticket] = await ticketOfContact(t, number);
    expect(ticket.status).toBe("pending");
    const res = await send({ x_token: TOKEN }, { number, body: "Técnico a caminho" });
    expect(res.body.ticketId).toBe(ticket.id);
    const msgs = await api(t, t.adminToken, "GET", `/messages/${ticket.id}`);
    expect(msgs.body.messages.some((m: { id: number; fromMe: boolean }) => m.id === res.body.id && m.fromMe)).toBe(true);
    expect((await ticketOfContact(t, number)).length).toBe(1);
  });

  it("multipart with medias sends each file (the body is the first one's caption)", async () => {
    const s = await tokenedConnection("tok-media");
    const number = nextNumber();
    const form = multipart({ number, body: "segue o boleto" }, [{ field: "medias", name: "boleto.png", type: "image/png", data: PNG }]);
    const res = await send({ authorization: "Bearer tok-media" }, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ids).toHaveLength(1);
    // unsolicited: it may wait for the number's pace (a timer, which settle does not wait for)
    await eventually(async () => (await fromMeOn(s, number)).length > 0, "the media sent");
    await settle(t);
    const got = await fromMeOn(s, number);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ body: "segue o boleto", mediaType: "image" });
    const bad = multipart({ number: "123", body: "x" }, [{ field: "medias", name: "a.png", type: "image/png", data: PNG }]);
    expect((await send({ authorization: "Bearer tok-media" }, bad)).body.error).toBe("ERR_WAPP_INVALID_CONTACT");
  });

  it("an Idempotency-Key retry answers the first result and sends nothing new", async () => {
    const s = await tokenedConnection("tok-idem");
    const number = nextNumber();
    const h = { authorization: "Bearer tok-idem", "idempotency-key": "fatura-123" };
    const [a, b] = await Promise.all([send(h, { number, body: "uma vez" }), send(h, { number, body: "uma vez" })]);
    const ok = [a, b].filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const c = await send(h, { number, body: "uma vez" });
    expect(c.body.id).toBe(ok[0].body.id);
    await eventually(async () => (await fromMeOn(s, number)).length > 0, "the message on the phone");
    await settle(t);
    expect((await fromMeOn(s, number)).map((m) => m.body)).toEqual(["uma vez"]);
    // the key is the caller's: another token with the same key sends
    expect((await send({ authorization: `Bearer ${TOKEN}`, "idempotency-key": "fatura-123" }, { number, body: "outra" })).body.id).not.toBe(
      c.body.id,
    );
  });

  it(`more than ${RATE} calls a minute on one token answer 429 with Retry-After; other tokens are not affected`, async () => {
    await tokenedConnection("tok-rate");
    const number = nextNumber();
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < RATE + 2; i++) {
      const res = await send({ authorization: "Bearer tok-rate" }, { number, body: `n${i}` });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers["retry-after"] as string;
    }
    expect(statuses.filter((x) => x === 200)).toHaveLength(RATE);
    expect(statuses.slice(RATE)).toEqual([429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    await tokenedConnection("tok-rate-outro");
    expect((await send({ authorization: "Bearer tok-rate-outro" }, { number, body: "outro token" })).status).toBe(200);
  });

  it("the OpenAPI document names the call with its token security scheme", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api-docs/json" });
    const doc = res.json();
    expect(doc.components.securitySchemes.apiToken).toEqual({ type: "apiKey", in: "header", name: "X_TOKEN" });
    expect(doc.paths["/api/messages/send"].post.security).toEqual([{ apiToken: [] }, { bearer: [] }]);
  });

  // last: it blocks this test's address for a minute
  it(`more than ${BAD_TOKENS_PER_MIN} wrong tokens a minute from one address answer 429: tokens are not guessed`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < BAD_TOKENS_PER_MIN + 1; i++)
      statuses.push((await send({ x_token: `palpite-${i}` }, { number: "5511987650009", body: "x" })).status);
    // earlier tests of this file spent a few: 401s up to the limit, then 429s
    const first429 = statuses.indexOf(429);
    expect(first429).toBeGreaterThan(BAD_TOKENS_PER_MIN - 8);
    expect(statuses.slice(0, first429).every((x) => x === 401)).toBe(true);
    expect(statuses.slice(first429).every((x) => x === 429)).toBe(true);
    const blocked = await send({ authorization: `Bearer ${TOKEN}` }, { number: "5511987650009", body: "x" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
  });
});
