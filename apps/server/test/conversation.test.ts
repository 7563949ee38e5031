import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  api,
  createQueue,
  emitAck,
  listen,
  multipart,
  PNG,
  pairedSimulator,
  phoneOf,
  settle,
  recorder,
  type SimConnection,
  socketFor,
} from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

type AppMessage = {
  action: "create" | "update";
  message: {
    id: number;
    body: string;
    fromMe: boolean;
    ack: number;
    mediaType: string;
    mediaUrl: string | null;
    quotedMsg: { id: number } | null;
    wid: string;
  };
  ticket: { id: number; status: string };
};
type TicketEvent = {
  action: string;
  ticket?: { id: number; status: string; queueId: number | null; userId: number | null; transf: boolean };
};

let t: TestApp;
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.teardown();
});

let sim: SimConnection;
let support: number;
let billing: number;
let ana: { id: number; token: string };
let beto: { id: number; token: string };
let url: string;

beforeAll(async () => {
  t = await createTestApp({});
  url = await listen(t);
  support = await createQueue(t, "Suporte", "Você está no Suporte. Um técnico já vai te atender.");
  billing = await createQueue(t, "Financeiro", "Financeiro, em que podemos ajudar?");
  ana = await t.createUser({ name: "Ana", queueIds: [support] });
  beto = await t.createUser({ name: "Beto", queueIds: [billing] });
  sim = await pairedSimulator(t, {
    name: "Provedor",
    queueIds: [support, billing],
    greetingMessage: "Olá! Bem-vindo à Fibra Net. Escolha o setor:",
    farewellMessage: "Atendimento encerrado. Obrigado!",
  });
});

it("a simulated customer and signed-in agents carry a whole conversation", async () => {
  const customer = "5511987654321";
  const anaSocket = await socketFor(url, ana.token);
  const betoSocket = await socketFor(url, beto.token);
  sockets.push(anaSocket, betoSocket);
  const anaMessages = recorder<AppMessage>(anaSocket, "appMessage");
  const anaTickets = recorder<TicketEvent>(anaSocket, "ticket");
  const betoTickets = recorder<TicketEvent>(betoSocket, "ticket");
  expect(await emitAck(anaSocket, "joinTickets", "pending")).toEqual({ ok: true });
  expect(await emitAck(anaSocket, "joinNotification")).toEqual({ ok: true });
  expect(await emitAck(betoSocket, "joinTickets", "pending")).toEqual({ ok: true });

  // 1. the customer writes; the connection answers with its greeting and the queue menu
  const firstId = await sim.session.customerSend({ number: customer, name: "Joana Cliente", body: "Oi, minha internet caiu" });
  await anaMessages.waitFor((p) => !p.message.fromMe && p.message.body === "Oi, minha internet caiu");
  await anaMessages.waitFor((p) => p.message.fromMe && p.message.body.includes("Escolha o setor"));
  await settle(t);
  const menu = (await phoneOf(sim, customer)).filter((m) => m.fromMe)[0];
  expect(menu.body).toBe("Olá! Bem-vindo à Fibra Net. Escolha o setor:\n\n*1* - Financeiro\n*2* - Suporte");

  // 2. a valid choice routes the ticket to Suporte; its greeting follows
  await sim.session.customerSend({ number: customer, name: "Joana Cliente", body: "2" });
  const routed = await anaTickets.waitFor((p) => p.action === "update" && p.ticket?.queueId === support);
  const ticketId = routed.ticket?.id as number;
  await settle(t);
  expect((await phoneOf(sim, customer)).at(-1)?.body).toBe("Você está no Suporte. Um técnico já vai te atender.");

  // 3. Ana finds it waiting and accepts it
  const waiting = await api(t, ana.token, "GET", "/tickets?status=pending");
  expect(waiting.body.tickets.map((x: { id: number }) => x.id)).toContain(ticketId);
  expect((await api(t, beto.token, "GET", `/tickets/${ticketId}`)).status).toBe(403);
  const accepted = await api(t, ana.token, "PUT", `/tickets/${ticketId}`, { status: "open", userId: ana.id });
  expect(accepted.body).toMatchObject({ status: "open", userId: ana.id, queueId: support });
  await anaTickets.waitFor((p) => p.action === "update" && p.ticket?.status === "open" && p.ticket.id === ticketId);

  // 4. she opens the chat: messages and the read mark
  expect(await emitAck(anaSocket, "joinChatBox", ticketId)).toEqual({ ok: true });
  const history = await api(t, ana.token, "GET", `/messages/${ticketId}`);
  expect(history.body.messages.map((m: { body: string }) => m.body)).toEqual([
    "Oi, minha internet caiu",
    menu.body,
    "2",
    "Você está no Suporte. Um técnico já vai te atender.",
  ]);
  expect(history.body.ticket.unreadMessages).toBe(0);
  await anaTickets.waitFor((p) => p.action === "updateUnread");
  const first = history.body.messages[0];
  expect(first.wid).toBe(firstId);

  // 5. she replies quoting the first message, then sends an image
  const reply = await api(t, ana.token, "POST", `/messages/${ticketId}`, {
    body: "*Ana:*\nVou verificar sua conexão.",
    quotedMsg: { id: first.id },
  });
  expect(reply.status).toBe(200);
  const replyMsg = reply.body[0];
  const replyEvent = await anaMessages.waitFor((p) => p.action === "create" && p.message.id === replyMsg.id);
  expect(replyEvent.message.quotedMsg?.id).toBe(first.id);
  await settle(t);
  expect((await phoneOf(sim, customer)).at(-1)).toMatchObject({ body: "*Ana:*\nVou verificar sua conexão.", quotedId: firstId });

  const form = multipart({ body: "Veja o diagnóstico" }, [{ field: "medias", name: "diagnostico.png", type: "image/png", data: PNG }]);
  const image = await t.app.inject({
    method: "POST",
    url: `/messages/${ticketId}`,
    headers: { ...bearer(ana.token), ...form.headers },
    payload: form.payload,
  });
  expect(image.statusCode).toBe(200);
  const imageEvent = await anaMessages.waitFor((p) => p.action === "create" && p.message.mediaType === "image");
  expect(imageEvent.message.mediaUrl).toMatch(/^\/media\//);
  await settle(t);
  expect((await phoneOf(sim, customer)).at(-1)).toMatchObject({ mediaType: "image", body: "Veja o diagnóstico" });

  // 6. acks advance: delivered by the phone, read when the customer reads
  await anaMessages.waitFor((p) => p.action === "update" && p.message.id === replyMsg.id && p.message.ack === 2);
  await sim.session.customerRead(customer);
  await anaMessages.waitFor((p) => p.action === "update" && p.message.id === replyMsg.id && p.message.ack === 3);

  // 7. the customer answers; Ana hears it in the chat box
  await sim.session.customerSend({ number: customer, body: "Era sobre a fatura também" });
  await anaMessages.waitFor((p) => p.message.body === "Era sobre a fatura também" && p.ticket.id === ticketId);

  // 8. Ana transfers to Financeiro: pending there, nobody's; Beto hears it and accepts
  const transferred = await api(t, ana.token, "PUT", `/tickets/${ticketId}`, {
    queueId: billing,
    userId: null,
    status: "pending",
    transf: true,
  });
  expect(transferred.body).toMatchObject({ status: "pending", queueId: billing, userId: null, transf: true });
  await betoTickets.waitFor((p) => p.action === "update" && p.ticket?.id === ticketId && p.ticket.queueId === billing);
  const betoAccepts = await api(t, beto.token, "PUT", `/tickets/${ticketId}`, { status: "open" });
  expect(betoAccepts.body).toMatchObject({ status: "open", userId: beto.id, queueId: billing });
  expect((await api(t, ana.token, "POST", `/messages/${ticketId}`, { body: "ainda aqui?" })).status).toBe(403);

  // 9. Beto closes it (Finalizar): the farewell reaches the customer
  const closed = await api(t, beto.token, "PUT", `/tickets/${ticketId}`, { status: "closed" });
  expect(closed.body.status).toBe("closed");
  await betoTickets.waitFor((p) => p.action === "update" && p.ticket?.status === "closed");
  await settle(t);
  expect((await phoneOf(sim, customer)).at(-1)?.body).toBe("Atendimento encerrado. Obrigado!");

  // the whole conversation is on the one ticket, in order, nothing lost
  const all = await api(t, t.adminToken, "GET", `/messages/${ticketId}?rowsPerPage=50`);
  expect(all.body.messages.map((m: { fromMe: boolean; body: string }) => `${m.fromMe ? "<" : ">"} ${m.body}`)).toEqual([
    "> Oi, minha internet caiu",
    `< ${menu.body}`,
    "> 2",
    "< Você está no Suporte. Um técnico já vai te atender.",
    "< *Ana:*\nVou verificar sua conexão.",
    "< Veja o diagnóstico",
    "> Era sobre a fatura também",
    "< Atendimento encerrado. Obrigado!",
  ]);
});
