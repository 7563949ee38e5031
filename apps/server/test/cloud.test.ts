import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, ackReaches, eventually, multipart, PNG, settle } from "./conversation-kit.js";
import { type FakeGraph, startFakeGraph } from "./fakes/graph.js";
import { pruneCloudLedger } from "../src/modules/cloud/service.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/**
 * The WhatsApp Cloud API channel against a fake Graph API (test/fakes/graph.ts): the connection's
 * test call, Meta's webhook (verification, signature, redelivery), every inbound type, outbound
 * through the outbox with our id in biz_opaque_callback_data, statuses → ticks and failures, and the
 * rule that a send of unknown outcome is not sent twice.
 */

let t: TestApp;
let fake: FakeGraph;
let conn: number;
const VERIFY = "verify-token-balcao";

beforeAll(async () => {
  // Meta's webhook posts go into the app as requests do
  fake = await startFakeGraph({
    deliver: async (raw, headers) => (await t.app.inject({ method: "POST", url: "/webhooks/whatsapp", headers, payload: raw })).statusCode,
  });
  t = await createTestApp(
    { WHATSAPP_GRAPH_URL: fake.url, CLOUD_SEND_GRACE_S: "2" },
    { cloud: { rateLimitDelayMs: () => 200, timeoutMs: 3000 } },
  );
  const res = await api(t, t.adminToken, "POST", "/whatsapp", {
    name: "Oficial",
    channel: "cloud",
    sendIntervalMs: 0,
    sendJitterMs: 0,
    replyGapMs: 0,
    cloud: {
      phoneNumberId: fake.phoneNumberId,
      businessAccountId: fake.wabaId,
      accessToken: fake.state.accessToken,
      appSecret: fake.state.appSecret,
      verifyToken: VERIFY,
    },
  });
  expect(res.status).toBe(200);
  conn = res.body.id;
  await eventually(async () => (await api(t, t.adminToken, "GET", `/whatsapp/${conn}`)).body.status === "CONNECTED", "connected");
});
afterAll(async () => {
  await t?.teardown();
  await fake?.close();
});

const count = async (q: ReturnType<typeof sql>) => Number((await t.ctx.db.execute<{ n: number }>(q)).rows[0].n);

async function messagesOf(number: string) {
  const { rows } = await t.ctx.db.execute<{
    id: number;
    wid: string;
    body: string;
    media_type: string;
    from_me: boolean;
    ack: number;
    send_error: string | null;
    media_key: string | null;
    mimetype: string | null;
    quoted_msg_id: number | null;
    data_json: string | null;
    ticket_id: number;
  }>(sql`select m.* from messages m join contacts c on c.id = m.contact_id or exists (select 1 from tickets tk where tk.id = m.ticket_id and tk.contact_id = c.id)
         where c.number = ${number} group by m.id order by m.id`);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

async function ticketOf(number: string): Promise<number> {
  const { rows } = await t.ctx.db.execute<{ id: number }>(
    sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ${number} order by t.id desc limit 1`,
  );
  const id = Number(rows[0].id);
  // the agent takes the ticket (a pending one cannot be answered)
  await api(t, t.adminToken, "PUT", `/tickets/${id}`, { status: "open" });
  return id;
}

async function customer(number: string, name: string, message: Record<string, unknown>) {
  const wamid = await fake.customerSends(number, name, message);
  await settle(t);
  return wamid;
}

describe("the connection", () => {
  it("is CONNECTED after the test call; the secrets are write-only; the tier shows", async () => {
    const res = await api(t, t.adminToken, "GET", `/whatsapp/${conn}`);
    expect(res.body).toMatchObject({
      type: "cloud",
      status: "CONNECTED",
      number: "5511988887777",
      cloud: {
        phoneNumberId: fake.phoneNumberId,
        businessAccountId: fake.wabaId,
        verifyToken: VERIFY,
        hasAccessToken: true,
        hasAppSecret: true,
        tierLimit: 1000,
        webhookPath: "/webhooks/whatsapp",
      },
    });
    const text = JSON.stringify((await api(t, t.adminToken, "GET", "/whatsapp")).body);
    expect(text).not.toContain(fake.state.accessToken);
    expect(text).not.toContain(fake.state.appSecret);
  });

  it("a token Meta refuses (401, code 190) leaves it DISCONNECTED with the reason", async () => {
    const res = await api(t, t.adminToken, "POST", "/whatsapp", {
      name: "Token vencido",
      channel: "cloud",
      cloud: { phoneNumberId: "555000111", businessAccountId: "1", accessToken: "expired", appSecret: "x", verifyToken: "another-verify" },
    });
    expect(res.status).toBe(200);
    await eventually(async () => (await api(t, t.adminToken, "GET", `/whatsapp/${res.body.id}`)).body.status === "DISCONNECTED", "refused");
    expect((await api(t, t.adminToken, "GET", `/whatsapp/${res.body.id}`)).body.disconnectReason).toContain("190");
    await api(t, t.adminToken, "DELETE", `/whatsapp/${res.body.id}`);
  });

  it("a Cloud connection needs its fields; PUT keeps the secrets when left blank", async () => {
    const bad = await api(t, t.adminToken, "POST", "/whatsapp", { name: "Sem campos", channel: "cloud" });
    expect(bad.status).toBe(400);
    const put = await api(t, t.adminToken, "PUT", `/whatsapp/${conn}`, {
      cloud: { phoneNumberId: fake.phoneNumberId, businessAccountId: fake.wabaId, verifyToken: VERIFY, accessToken: "" },
    });
    expect(put.status).toBe(200);
    expect(put.body.cloud).toMatchObject({ hasAccessToken: true, hasAppSecret: true });
    await eventually(async () => (await api(t, t.adminToken, "GET", `/whatsapp/${conn}`)).body.status === "CONNECTED", "reconnected");
  });
});

describe("the webhook", () => {
  it("answers Meta's verification with the challenge for a known verify token, 403 otherwise", async () => {
    const ok = await t.app.inject({
      method: "GET",
      url: `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe("1158201444");
    expect(ok.headers["content-type"]).toContain("text/plain");
    const bad = await t.app.inject({ method: "GET", url: "/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1" });
    expect(bad.statusCode).toBe(403);
  });

  it("a wrong or missing signature is refused (401) and nothing is stored", async () => {
    const before = await count(sql`select count(*)::int as n from inbound_events`);
    const { payload } = fake.customerPayload("5511970000001", "Intrusa", { type: "text", text: { body: "forjada" } });
    expect(await fake.post(payload, `sha256=${"0".repeat(64)}`)).toBe(401);
    expect(await fake.post(payload, null)).toBe(401);
    expect(await fake.post(payload, fake.sign(JSON.stringify(payload), "other-secret"))).toBe(401);
    await settle(t);
    expect(await count(sql`select count(*)::int as n from inbound_events`)).toBe(before);
    expect(await messagesOf("5511970000001")).toHaveLength(0);
  });

  it("Meta's redelivery of the same wamid is stored once", async () => {
    const { payload } = fake.customerPayload("5511970000002", "Rita", {
      id: "wamid.REDELIVERED1",
      type: "text",
      text: { body: "de novo" },
    });
    expect(await fake.post(payload)).toBe(200);
    expect(await fake.post(payload)).toBe(200);
    await settle(t);
    expect(await fake.post(payload)).toBe(200);
    await settle(t);
    const msgs = await messagesOf("5511970000002");
    expect(msgs.filter((m) => m.wid === "wamid.REDELIVERED1")).toHaveLength(1);
  });
});

describe("inbound", () => {
  const n = "5511970000010";

  it("text, with the customer's name from contacts[].profile.name", async () => {
    await customer(n, "Joana Prado", { type: "text", text: { body: "minha internet caiu" } });
    const msgs = await messagesOf(n);
    expect(msgs.at(-1)).toMatchObject({ body: "minha internet caiu", media_type: "chat", from_me: false });
    const { rows } = await t.ctx.db.execute<{ name: string }>(sql`select name from contacts where number = ${n}`);
    expect(rows[0].name).toBe("Joana Prado");
  });

  it("image, voice note, video, document and sticker are downloaded through GET /{media-id} with the token", async () => {
    const kinds = [
      { type: "image", mime: "image/png", data: PNG, extra: { caption: "o roteador" }, expect: "image" },
      { type: "audio", mime: "audio/ogg; codecs=opus", data: Buffer.from("OggS-voice"), extra: { voice: true }, expect: "audio" },
      { type: "video", mime: "video/mp4", data: Buffer.from("mp4-bytes"), extra: {}, expect: "video" },
      {
        type: "document",
        mime: "application/pdf",
        data: Buffer.from("%PDF-1.4 fatura"),
        extra: { filename: "fatura.pdf" },
        expect: "document",
      },
      { type: "sticker", mime: "image/webp", data: Buffer.from("RIFFwebp"), extra: { animated: false }, expect: "sticker" },
    ];
    for (const k of kinds) {
      const id = fake.addMedia(k.data, k.mime);
      await customer(n, "Joana Prado", { type: k.type, [k.type]: { id, mime_type: k.mime, sha256: "x", ...k.extra } });
      const m = (await messagesOf(n)).at(-1)!;
      expect(m.media_type).toBe(k.expect);
      expect(m.media_key).toBeTruthy();
      const file = await t.app.inject({ method: "GET", url: `/media/${m.media_key}` });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(k.data)).toBe(true);
    }
    const caption = (await messagesOf(n)).find((m) => m.media_type === "image");
    expect(caption?.body).toBe("o roteador");
    // the bytes needed the bearer token: every media-bytes request carried it
    const byteCalls = fake.requests.filter((r) => r.path.startsWith("/media-bytes/"));
    expect(byteCalls.length).toBeGreaterThanOrEqual(5);
    expect(byteCalls.every((r) => r.headers.authorization === `Bearer ${fake.state.accessToken}`)).toBe(true);
  });

  it("location, contacts, button and list replies, template button taps", async () => {
    await customer(n, "Joana Prado", {
      type: "location",
      location: { latitude: -23.55, longitude: -46.63, name: "Casa", address: "Rua A, 1" },
    });
    expect((await messagesOf(n)).at(-1)).toMatchObject({ media_type: "location", body: "Casa - Rua A, 1" });
    await customer(n, "Joana Prado", {
      type: "contacts",
      contacts: [
        {
          name: { formatted_name: "Pedro Técnico", first_name: "Pedro" },
          phones: [{ phone: "+55 11 91234-5678", wa_id: "5511912345678", type: "CELL" }],
        },
      ],
    });
    expect((await messagesOf(n)).at(-1)).toMatchObject({ media_type: "vcard", body: "Pedro Técnico" });
    await customer(n, "Joana Prado", {
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "b1", title: "Suporte" } },
    });
    expect((await messagesOf(n)).at(-1)?.body).toBe("Suporte");
    await customer(n, "Joana Prado", {
      type: "interactive",
      interactive: { type: "list_reply", list_reply: { id: "l2", title: "2ª via", description: "boleto" } },
    });
    expect((await messagesOf(n)).at(-1)?.body).toBe("2ª via");
    await customer(n, "Joana Prado", { type: "button", button: { payload: "SIM", text: "Sim, continuar" } });
    expect((await messagesOf(n)).at(-1)?.body).toBe("Sim, continuar");
  });

  it("a reply quoting one of our messages, and a reaction to it", async () => {
    const ticket = await ticketOf(n);
    const sent = await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: "Pode reiniciar o roteador?" });
    expect(sent.status).toBe(200);
    await settle(t);
    const ours = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    const wamid = fake.accepted.find((a) => a.ourId === ours.wid)!.wamid;
    await customer(n, "Joana Prado", { type: "text", text: { body: "reiniciei" }, context: { from: "5511988887777", id: wamid } });
    const reply = (await messagesOf(n)).at(-1)!;
    expect(reply.body).toBe("reiniciei");
    expect(Number(reply.quoted_msg_id)).toBe(ours.id);
    const before = (await messagesOf(n)).length;
    await customer(n, "Joana Prado", { type: "reaction", reaction: { message_id: wamid, emoji: "👍" } });
    expect((await messagesOf(n)).length).toBe(before); // a reaction is no message
  });
});

describe("outbound through the outbox", () => {
  const n = "5511970000020";

  it("text carries our id in biz_opaque_callback_data; sent, delivered and read move the ticks", async () => {
    const cust = await customer(n, "Caio", { type: "text", text: { body: "oi" } });
    const ticket = await ticketOf(n);
    const res = await api(t, t.adminToken, "POST", `/messages/${ticket}`, {
      body: "Olá Caio",
      quotedMsg: { id: (await messagesOf(n))[0].id },
    });
    expect(res.status).toBe(200);
    await settle(t);
    const ours = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    const sent = fake.accepted.filter((a) => a.ourId === ours.wid);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ type: "text", text: { body: "Olá Caio" }, to: n, context: { message_id: cust } });
    await fake.settled();
    await ackReaches(t, ours.id, 2);
    fake.read(sent[0].wamid);
    await fake.settled();
    await ackReaches(t, ours.id, 3);
  });

  it("an image is uploaded with POST /{phone-number-id}/media first, then sent by its id", async () => {
    const ticket = await ticketOf(n);
    const form = multipart({ body: "segue o print" }, [{ field: "medias", name: "print.png", type: "image/png", data: PNG }]);
    const res = await t.app.inject({
      method: "POST",
      url: `/messages/${ticket}`,
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    await settle(t);
    const ours = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    const sent = fake.accepted.find((a) => a.ourId === ours.wid)!;
    expect(sent.type).toBe("image");
    const mediaId = (sent.body.image as { id: string }).id;
    expect(fake.media.get(mediaId)?.data.equals(PNG)).toBe(true);
    expect((sent.body.image as { caption?: string }).caption).toBe("segue o print");
  });

  it("failed statuses: 131047 and 131026 fail the message with the reason in Portuguese", async () => {
    const ticket = await ticketOf(n);
    for (const [code, reason] of [
      [131047, "janela de 24 h fechada — envie um modelo"],
      [131026, "131026"],
    ] as const) {
      fake.state.nextFailedStatuses.push(code);
      await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: `vai falhar ${code}` });
      await settle(t);
      await fake.settled();
      await settle(t);
      const ours = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
      expect(ours.send_error).toContain(reason);
    }
  });

  it("rate limits are retried later, not failed: 130429 as an answer and as a status", async () => {
    const ticket = await ticketOf(n);
    fake.state.nextErrors.push({ status: 400, code: 130429, message: "Rate limit hit" });
    await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: "devagar 1" });
    await eventually(
      async () => fake.accepted.some((a) => (a.body.text as { body?: string })?.body === "devagar 1"),
      "resent after 130429",
      15_000,
    );
    fake.state.nextFailedStatuses.push(130429);
    await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: "devagar 2" });
    await eventually(
      async () => fake.accepted.filter((a) => (a.body.text as { body?: string })?.body === "devagar 2").length === 2,
      "status 130429 resent",
      15_000,
    );
    await fake.settled();
    await settle(t);
    const ours = (await messagesOf(n)).filter((m) => m.from_me && m.body.startsWith("devagar"));
    expect(ours.every((m) => m.send_error === null)).toBe(true);
    await eventually(
      async () => (await messagesOf(n)).filter((m) => m.from_me && m.body.startsWith("devagar")).every((m) => m.ack >= 2),
      "delivered",
    );
  });
});

describe("a send of unknown outcome is not sent twice", () => {
  const n = "5511970000030";

  it("Meta took it but the answer was lost: its status in the grace window says so, no second POST", async () => {
    await customer(n, "Duda", { type: "text", text: { body: "oi" } });
    const ticket = await ticketOf(n);
    fake.state.dropNext = "after";
    await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: "resposta perdida" });
    await eventually(async () => (await messagesOf(n)).some((m) => m.from_me && m.ack >= 2), "delivered by status", 15_000);
    await eventually(async () => (await count(sql`select count(*)::int as n from outbox`)) === 0, "outbox empty", 15_000);
    const ours = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    expect(fake.countByOurId().get(ours.wid)).toBe(1);
  });

  it("the request never reached Meta: no status in the grace window, so it goes again, once", async () => {
    const ticket = await ticketOf(n);
    fake.state.dropNext = "before";
    await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: "nunca chegou" });
    await eventually(
      async () => fake.accepted.some((a) => (a.body.text as { body?: string })?.body === "nunca chegou"),
      "sent after the grace window",
      15_000,
    );
    await settle(t);
    const ours = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    expect(fake.countByOurId().get(ours.wid)).toBe(1);
  });
});

describe("the send ledger's clean-up", () => {
  it("entries older than 30 days go, except those of a message still in the outbox and other connections' keys", async () => {
    const n = "5511970000040";
    await customer(n, "Eva", { type: "text", text: { body: "oi" } });
    const ticket = await ticketOf(n);
    await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: "enviada há muito tempo" });
    await eventually(async () => (await messagesOf(n)).some((m) => m.from_me && m.ack >= 2), "delivered", 15_000);
    const sent = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    // a message that failed and waits for 'Reenviar' keeps its outbox row, and so its ledger
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`insert into messages (whatsapp_id, ticket_id, body, from_me, wid) values (${conn}, ${ticket}, 'falhou', true, 'KEEPLEDGER1') returning id`,
    );
    await t.ctx.db.execute(sql`insert into outbox (message_id, whatsapp_id, chat, priority, wid, payload, failed_at)
      values (${rows[0].id}, ${conn}, ${n}, 0, 'KEEPLEDGER1', '{}'::jsonb, now())`);
    await t.ctx.db.execute(sql`insert into whatsapp_auth_keys (whatsapp_id, key, value) values
      (${conn}, 'out:KEEPLEDGER1', '{"at":1}'), (${conn}, 'cloud:kept', '[]'), (${conn}, 'seen:KEEPLEDGER1', 'sent'), (${conn}, 'wamid:wamid.KEEP', 'KEEPLEDGER1')`);
    // another engine's keys are not the ledger's
    const other = await api(t, t.adminToken, "POST", "/simulator/api/connections", { name: "Outra" });
    await t.ctx.db.execute(sql`insert into whatsapp_auth_keys (whatsapp_id, key, value) values (${other.body.id}, 'out:NOTCLOUD', 'x')`);
    const keysOf = async () =>
      (
        await t.ctx.db.execute<{ key: string }>(
          sql`select key from whatsapp_auth_keys where key like 'out:%' or key like 'seen:%' or key like 'wamid:%'`,
        )
      ).rows.map((r) => r.key);
    const sentKeys = (await keysOf()).filter((k) => k.endsWith(sent.wid) || k.startsWith("wamid:"));
    expect(sentKeys).toContain(`out:${sent.wid}`);
    // nothing is old yet
    expect(await pruneCloudLedger(t.ctx.db)).toBe(0);
    await t.ctx.db.execute(sql`update whatsapp_auth_keys set updated_at = now() - interval '31 days'`);
    const before = await keysOf();
    const removed = await pruneCloudLedger(t.ctx.db);
    const after = await keysOf();
    expect(after.sort()).toEqual(["out:KEEPLEDGER1", "out:NOTCLOUD", "seen:KEEPLEDGER1", "wamid:wamid.KEEP"]);
    expect(removed).toBe(before.length - after.length);
    expect(before).toContain(`out:${sent.wid}`);
    // the connection's other state (its retry list, its tier) is not the ledger's
    expect(await count(sql`select count(*)::int as n from whatsapp_auth_keys where whatsapp_id = ${conn} and key = 'cloud:kept'`)).toBe(1);
    await t.ctx.db.execute(sql`delete from outbox where wid = 'KEEPLEDGER1'`);
  });
});

describe("templates and the 24 h window", () => {
  it("GET /whatsapp/:id/templates answers the approved ones (every page), cached", async () => {
    const calls = () => fake.requests.filter((r) => r.path.endsWith("/message_templates")).length;
    const before = calls();
    const res = await api(t, t.adminToken, "GET", `/whatsapp/${conn}/templates`);
    expect(res.status).toBe(200);
    expect(res.body.templates.map((x: { name: string }) => x.name).sort()).toEqual(["retomar_contato", "segunda_via"]);
    expect(res.body.templates.find((x: { name: string }) => x.name === "segunda_via").variables).toBe(2);
    expect(calls() - before).toBe(2);
    await api(t, t.adminToken, "GET", `/whatsapp/${conn}/templates`);
    expect(calls() - before).toBe(2);
  });

  it("the chat knows when the window is closed", async () => {
    const n = "5511970000040";
    await customer(n, "Leo", { type: "text", text: { body: "oi" } });
    const ticket = await ticketOf(n);
    expect((await api(t, t.adminToken, "GET", `/tickets/${ticket}/window`)).body).toMatchObject({ channel: "cloud", open: true });
    await t.ctx.db.execute(sql`update messages set created_at = now() - interval '25 hours' where ticket_id = ${ticket}`);
    expect((await api(t, t.adminToken, "GET", `/tickets/${ticket}/window`)).body).toMatchObject({ channel: "cloud", open: false });
  });

  it("outside the window an agent's free text is refused without a call to Meta, and a template goes with its variables", async () => {
    const n = "5511970000041";
    await customer(n, "Leo Souza", { type: "text", text: { body: "oi" } });
    const ticket = await ticketOf(n);
    await t.ctx.db.execute(sql`update messages set created_at = now() - interval '25 hours' where ticket_id = ${ticket}`);
    const before = fake.accepted.length;
    await api(t, t.adminToken, "POST", `/messages/${ticket}`, { body: "ainda aí?" });
    await settle(t);
    const free = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    expect(free.send_error).toBe("janela de 24 h fechada — envie um modelo");
    expect(fake.accepted.length).toBe(before);

    const bad = await api(t, t.adminToken, "POST", `/messages/${ticket}`, {
      template: { name: "retomar_contato", language: "pt_BR", variables: [] },
    });
    expect(bad.status).toBe(400);
    const res = await api(t, t.adminToken, "POST", `/messages/${ticket}`, {
      template: { name: "retomar_contato", language: "pt_BR", variables: ["Leo"] },
    });
    expect(res.status).toBe(200);
    expect(res.body[0].body).toBe("Olá Leo, podemos continuar seu atendimento?");
    await settle(t);
    const ours = (await messagesOf(n)).filter((m) => m.from_me).at(-1)!;
    // unsolicited (the window is closed): it may wait for the number's pace (a timer, which settle does not wait for)
    await eventually(async () => fake.accepted.some((a) => a.ourId === ours.wid), "the template sent");
    const sent = fake.accepted.find((a) => a.ourId === ours.wid)!;
    expect(sent.body).toMatchObject({
      type: "template",
      template: {
        name: "retomar_contato",
        language: { code: "pt_BR" },
        components: [{ type: "body", parameters: [{ type: "text", text: "Leo" }] }],
      },
    });
    await fake.settled();
    await ackReaches(t, ours.id, 2);
  });

  it("an automatic send (the message API) outside the window goes as the connection's default template", async () => {
    const n = "5511970000042";
    const put = await api(t, t.adminToken, "PUT", `/whatsapp/${conn}`, {
      cloud: {
        phoneNumberId: fake.phoneNumberId,
        businessAccountId: fake.wabaId,
        verifyToken: VERIFY,
        defaultTemplate: { name: "retomar_contato", language: "pt_BR" },
      },
    });
    expect(put.body.cloud.defaultTemplate).toEqual({ name: "retomar_contato", language: "pt_BR" });
    await eventually(async () => (await api(t, t.adminToken, "GET", `/whatsapp/${conn}`)).body.status === "CONNECTED", "reconnected");
    const token = (await api(t, t.adminToken, "POST", `/whatsapp/${conn}/token`)).body.token;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: n, body: "Sua fatura vence amanhã" },
    });
    expect(res.statusCode, res.body).toBe(200);
    // unsolicited: it may wait for the number's pace (a timer, which settle does not wait for)
    await eventually(() => fake.accepted.some((a) => a.to === n), "the template sent");
    await settle(t);
    const sent = fake.accepted.filter((a) => a.to === n);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({
      type: "template",
      template: {
        name: "retomar_contato",
        components: [{ type: "body", parameters: [{ type: "text", text: "Sua fatura vence amanhã" }] }],
      },
    });
  });
});
